//! Inner-node hashes shared by the proofs of one Merkle tree, and the node hash itself.
//!
//! Every shred of an FEC set carries its own proof, and the proofs of neighbouring shreds
//! fold through the same inner nodes: checking the n shreds of a set one by one hashes
//! n × depth nodes, of which only n − 1 are distinct. [`NodeMemo`] remembers computed nodes
//! by their exact input (the two 20-byte children), so a later fold that reaches the same
//! input reuses the hash. A node hash is a pure function of that input, so a hit returns
//! exactly the bytes hashing would: the memo changes no root, and a proof that differs
//! anywhere misses at that level and is hashed.
//!
//! The memo is direct-mapped: each input has one slot, chosen from its bytes, and a
//! different input for the same slot replaces it. A lookup is one index and one 40-byte
//! compare whatever the input, so hostile proofs can only cause misses (the cost without a
//! memo), never more work than that.

use sha2::digest::generic_array::GenericArray;

use super::layout::SIZE_OF_MERKLE_PROOF_ENTRY;
use crate::sha256_blocks::digest_padded;

/// The two children of an inner node, each truncated to 20 bytes: `left ‖ right`.
pub(crate) type NodeInput = [u8; 2 * SIZE_OF_MERKLE_PROOF_ENTRY];

const NODE_PREFIX: &[u8; 26] = b"\x01SOLANA_MERKLE_SHREDS_NODE";

/// Prefix and children: 26 + 40 = 66 bytes, so the padded message is exactly two blocks.
const NODE_MESSAGE_LEN: usize = NODE_PREFIX.len() + 2 * SIZE_OF_MERKLE_PROOF_ENTRY;

/// SHA-256(`0x01 ‖ "SOLANA_MERKLE_SHREDS_NODE" ‖ left[..20] ‖ right[..20]`), by two calls of
/// the compression function on the padded message (the same bytes `Sha256::digest` pads,
/// without its buffering; `sha2` uses SHA-NI when the CPU has it).
pub(crate) fn hash_node(input: &NodeInput) -> [u8; 32] {
    let mut blocks = [GenericArray::from([0u8; 64]); 2];
    let (head, tail) = input.split_at(64 - NODE_PREFIX.len());
    blocks[0][..NODE_PREFIX.len()].copy_from_slice(NODE_PREFIX);
    blocks[0][NODE_PREFIX.len()..].copy_from_slice(head);
    blocks[1][..tail.len()].copy_from_slice(tail);
    blocks[1][tail.len()] = 0x80;
    // Message length in bits, big-endian, in the last 8 bytes (528 fits easily).
    let bits = (NODE_MESSAGE_LEN as u64 * 8).to_be_bytes();
    blocks[1][56..].copy_from_slice(&bits);
    digest_padded(&blocks)
}

#[derive(Debug, Clone, Copy)]
struct Remembered {
    input: NodeInput,
    node: [u8; 32],
}

/// Node hashes computed so far, for reuse by later folds (see the module docs). A memo of
/// no slots remembers nothing, and every fold hashes every node.
#[derive(Debug, Clone, Default)]
pub struct NodeMemo {
    /// Power-of-two length (or empty).
    slots: Vec<Option<Remembered>>,
}

impl NodeMemo {
    /// Fewest and most slots a memo gets (about 80 bytes each).
    const MIN_SLOTS: usize = 64;
    const MAX_SLOTS: usize = 4096;

    /// A memo sized for about `shreds` shreds checked in one go: two slots per shred, so
    /// the inner nodes of the sets being checked (fewer than one per shred) rarely
    /// displace each other.
    pub fn for_shreds(shreds: usize) -> Self {
        let len = shreds
            .saturating_mul(2)
            .clamp(Self::MIN_SLOTS, Self::MAX_SLOTS)
            .next_power_of_two();
        Self {
            slots: vec![None; len],
        }
    }

    /// The node over `input`: remembered, or hashed and remembered.
    pub(crate) fn node(&mut self, input: &NodeInput) -> [u8; 32] {
        let Some(entry) = self.slot_of(input).and_then(|i| self.slots.get_mut(i)) else {
            return hash_node(input);
        };
        match entry {
            Some(r) if r.input == *input => r.node,
            _ => {
                let node = hash_node(input);
                *entry = Some(Remembered {
                    input: *input,
                    node,
                });
                node
            }
        }
    }

    /// The one slot `input` may occupy; `None` for a memo of no slots. Honest children are
    /// hash outputs, so a few of their bytes spread evenly.
    fn slot_of(&self, input: &NodeInput) -> Option<usize> {
        if self.slots.is_empty() {
            return None;
        }
        let word = |at: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&input[at..at + 8]);
            u64::from_le_bytes(b)
        };
        let mixed = (word(0) ^ word(SIZE_OF_MERKLE_PROOF_ENTRY).rotate_left(29))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        // The high bits of the product mix every input bit; the mask keeps the index in range.
        Some(((mixed >> 32) as usize) & (self.slots.len() - 1))
    }
}

#[cfg(test)]
mod tests {
    use sha2::{Digest, Sha256};

    use super::*;

    fn input(seed: u8) -> NodeInput {
        std::array::from_fn(|i| seed.wrapping_mul(31).wrapping_add(i as u8))
    }

    #[test]
    fn node_hash_is_sha256_of_prefix_and_children() {
        for seed in 0..=255u8 {
            let input = input(seed);
            let mut h = Sha256::new();
            h.update(NODE_PREFIX);
            h.update(input);
            let expected: [u8; 32] = h.finalize().into();
            assert_eq!(hash_node(&input), expected, "seed {seed}");
        }
    }

    #[test]
    fn memo_returns_the_hash_of_the_exact_input() {
        // A tiny memo so that inputs share slots and replace each other.
        let mut memo = NodeMemo {
            slots: vec![None; 2],
        };
        for round in 0..3 {
            for seed in 0..40u8 {
                let input = input(seed);
                assert_eq!(
                    memo.node(&input),
                    hash_node(&input),
                    "round {round} seed {seed}"
                );
            }
        }
        let mut off = NodeMemo::default();
        assert_eq!(off.node(&input(7)), hash_node(&input(7)));
    }

    #[test]
    fn memo_sizes() {
        assert_eq!(NodeMemo::for_shreds(0).slots.len(), 64);
        assert_eq!(NodeMemo::for_shreds(320).slots.len(), 1024);
        assert_eq!(NodeMemo::for_shreds(1024).slots.len(), 2048);
        assert_eq!(NodeMemo::for_shreds(1 << 20).slots.len(), 4096);
    }
}
