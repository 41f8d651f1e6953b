//! Merkle trees over the shreds of one FEC set
//! (`docs/formats-shreds.md#merkle-tree-and-signatures`).
//!
//! Leaf = SHA-256(`0x00 ‖ "SOLANA_MERKLE_SHREDS_LEAF" ‖ payload[64 .. proof offset]`);
//! node = SHA-256(`0x01 ‖ "SOLANA_MERKLE_SHREDS_NODE" ‖ left[..20] ‖ right[..20]`); an odd
//! last node pairs with itself. Leaves are ordered data shreds first, then code shreds.
//! Checking many shreds of the same sets reuses their shared nodes through a
//! [`NodeMemo`] (`merkle_memo.rs`), which changes no result.

use sha2::{Digest, Sha256};

use super::defect::ShredDefect;
use super::layout::{
    CODE_PAYLOAD_LEN, MERKLE_DATA_PAYLOAD_LEN, MerkleOffsets, SIZE_OF_CODE_HEADERS,
    SIZE_OF_MERKLE_PROOF_ENTRY, SIZE_OF_MERKLE_ROOT, SIZE_OF_SIGNATURE, merkle_offsets, read_array,
};
use super::merkle_memo::{NodeInput, NodeMemo, hash_node};
use super::parse::ShredRef;
use super::variant::ShredKind;
use crate::error::FormatError;
use crate::types::{Hash, Signature};

const LEAF_PREFIX: &[u8] = b"\x00SOLANA_MERKLE_SHREDS_LEAF";

/// Hash of one leaf's bytes (`payload[64 .. proof offset]`).
pub(crate) fn leaf_hash(body: &[u8]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(LEAF_PREFIX);
    h.update(body);
    h.finalize().into()
}

/// The input of a node hash: both children truncated to 20 bytes.
fn node_input(left: &[u8], right: &[u8]) -> NodeInput {
    let mut input = [0u8; 2 * SIZE_OF_MERKLE_PROOF_ENTRY];
    let (l, r) = input.split_at_mut(SIZE_OF_MERKLE_PROOF_ENTRY);
    // Children are 32-byte nodes or 20-byte proof entries: both at least 20 bytes.
    l.copy_from_slice(&left[..SIZE_OF_MERKLE_PROOF_ENTRY]);
    r.copy_from_slice(&right[..SIZE_OF_MERKLE_PROOF_ENTRY]);
    input
}

/// Hash of an inner node from its two 32-byte children.
pub(crate) fn join_nodes(left: &[u8; 32], right: &[u8; 32]) -> [u8; 32] {
    hash_node(&node_input(left, right))
}

/// Folds a proof (concatenated 20-byte siblings, leaf level first) onto a leaf. `None` when
/// the position does not fit the proof (it must reach 0 at the root).
pub(crate) fn root_from_proof(leaf: [u8; 32], position: usize, proof: &[u8]) -> Option<[u8; 32]> {
    root_from_proof_with(leaf, position, proof, &mut NodeMemo::default())
}

/// [`root_from_proof`], reusing and remembering inner nodes in `memo` (the same result).
fn root_from_proof_with(
    leaf: [u8; 32],
    position: usize,
    proof: &[u8],
    memo: &mut NodeMemo,
) -> Option<[u8; 32]> {
    let levels = proof.len() / SIZE_OF_MERKLE_PROOF_ENTRY;
    // The position must reach 0 at the root (checked before any hashing); past 63 levels
    // every position does.
    let rest = u32::try_from(levels)
        .ok()
        .and_then(|l| position.checked_shr(l))
        .unwrap_or(0);
    if rest != 0 {
        return None;
    }
    let mut node = leaf;
    let mut pos = position;
    for sibling in proof.chunks_exact(SIZE_OF_MERKLE_PROOF_ENTRY) {
        let input = if pos.is_multiple_of(2) {
            node_input(&node, sibling)
        } else {
            node_input(sibling, &node)
        };
        node = memo.node(&input);
        pos >>= 1;
    }
    Some(node)
}

/// Proof size needed for a tree of `num_leaves` leaves: ⌈log2(num_leaves)⌉.
pub fn proof_size_for(num_leaves: usize) -> u8 {
    // At most 64 for any usize, so the cast is lossless.
    let bits = usize::BITS - num_leaves.saturating_sub(1).leading_zeros();
    bits as u8
}

/// A whole tree, built by the shredder. Layer 0 is the leaves; the last layer is the root.
#[derive(Debug)]
pub(crate) struct MerkleTree {
    nodes: Vec<[u8; 32]>,
    /// Start of each layer in `nodes`, plus its length.
    layers: Vec<(usize, usize)>,
}

impl MerkleTree {
    /// Builds the tree; `leaves` must not be empty (the caller always has ≥ 1 shred).
    pub(crate) fn new(leaves: Vec<[u8; 32]>) -> Self {
        let mut nodes = leaves;
        let mut layers = vec![(0, nodes.len())];
        let (mut start, mut len) = (0, nodes.len());
        while len > 1 {
            for i in (0..len).step_by(2) {
                let left = nodes[start + i];
                // An odd last node pairs with itself.
                let right = nodes[start + (i + 1).min(len - 1)];
                nodes.push(join_nodes(&left, &right));
            }
            start += len;
            len = len.div_ceil(2);
            layers.push((start, len));
        }
        Self { nodes, layers }
    }

    pub(crate) fn root(&self) -> [u8; 32] {
        self.nodes.last().copied().unwrap_or_default()
    }

    /// Writes the proof of leaf `position` into `out` (20 bytes per level, leaf level first).
    /// `out` must be exactly `20 × (levels − 1)` bytes.
    pub(crate) fn write_proof(&self, position: usize, out: &mut [u8]) {
        let mut pos = position;
        let levels = self.layers.iter().take(self.layers.len().saturating_sub(1));
        for ((start, len), slot) in levels.zip(out.chunks_exact_mut(SIZE_OF_MERKLE_PROOF_ENTRY)) {
            let sibling = (pos ^ 1).min(len - 1);
            slot.copy_from_slice(&self.nodes[start + sibling][..SIZE_OF_MERKLE_PROOF_ENTRY]);
            pos >>= 1;
        }
    }
}

fn merkle_layout(shred: &ShredRef<'_>) -> Result<(MerkleOffsets, bool, bool), ShredDefect> {
    let (proof_size, chained, resigned) = shred
        .variant()
        .merkle()
        .ok_or(ShredDefect::WrongKind { expected: "Merkle" })?;
    let payload_len = match shred.kind() {
        ShredKind::Data => MERKLE_DATA_PAYLOAD_LEN,
        ShredKind::Code => CODE_PAYLOAD_LEN,
    };
    Ok((
        merkle_offsets(payload_len, proof_size, chained, resigned),
        chained,
        resigned,
    ))
}

fn invalid(shred: &ShredRef<'_>, defect: ShredDefect) -> FormatError {
    FormatError::InvalidShred {
        slot: Some(shred.slot()),
        index: Some(shred.index()),
        defect,
    }
}

fn leaf_of(shred: &ShredRef<'_>) -> Result<[u8; 32], ShredDefect> {
    let (offsets, _, _) = merkle_layout(shred)?;
    let body = shred
        .payload()
        .get(SIZE_OF_SIGNATURE..offsets.proof)
        .ok_or(ShredDefect::InvalidMerkleProof)?;
    Ok(leaf_hash(body))
}

fn root_of(shred: &ShredRef<'_>, memo: &mut NodeMemo) -> Result<[u8; 32], ShredDefect> {
    let leaf = leaf_of(shred)?;
    let (offsets, _, _) = merkle_layout(shred)?;
    let proof = shred
        .payload()
        .get(offsets.proof..offsets.retransmitter)
        .ok_or(ShredDefect::InvalidMerkleProof)?;
    root_from_proof_with(leaf, shred.erasure_position(), proof, memo)
        .ok_or(ShredDefect::InvalidMerkleProof)
}

/// The shred's Merkle leaf (`docs/formats-shreds.md#merkle-tree-and-signatures`). Error for legacy
/// shreds.
pub fn merkle_leaf(shred: &ShredRef<'_>) -> crate::Result<Hash> {
    leaf_of(shred).map(Hash).map_err(|d| invalid(shred, d))
}

/// The FEC set's Merkle root, from this shred's leaf and proof. Error for legacy shreds and
/// when the leaf position does not fit the proof.
pub fn merkle_root(shred: &ShredRef<'_>) -> crate::Result<Hash> {
    merkle_root_with(shred, &mut NodeMemo::default())
}

/// [`merkle_root`], reusing the inner nodes earlier calls with the same `memo` computed:
/// the same root and the same errors, with fewer node hashes when the shreds of a set are
/// checked together.
pub fn merkle_root_with(shred: &ShredRef<'_>, memo: &mut NodeMemo) -> crate::Result<Hash> {
    root_of(shred, memo)
        .map(Hash)
        .map_err(|d| invalid(shred, d))
}

/// The previous FEC set's root carried by a chained shred; `None` for unchained and legacy.
pub fn chained_merkle_root(shred: &ShredRef<'_>) -> Option<Hash> {
    let (offsets, chained, _) = merkle_layout(shred).ok()?;
    if !chained {
        return None;
    }
    read_array::<SIZE_OF_MERKLE_ROOT>(shred.payload(), offsets.chained_root).map(Hash)
}

/// The retransmitter signature of a resigned shred; `None` otherwise.
pub fn retransmitter_signature(shred: &ShredRef<'_>) -> Option<Signature> {
    let (offsets, _, resigned) = merkle_layout(shred).ok()?;
    if !resigned {
        return None;
    }
    read_array::<SIZE_OF_SIGNATURE>(shred.payload(), offsets.retransmitter).map(Signature)
}

/// The shred's erasure shard: `payload[64 .. 88 + capacity]` for Merkle data,
/// `payload[89 .. 89 + shard length]` for Merkle code; `None` for legacy shreds.
pub fn erasure_shard<'a>(shred: &ShredRef<'a>) -> Option<&'a [u8]> {
    let (offsets, _, _) = merkle_layout(shred).ok()?;
    let start = match shred.kind() {
        ShredKind::Data => SIZE_OF_SIGNATURE,
        ShredKind::Code => SIZE_OF_CODE_HEADERS,
    };
    shred.payload().get(start..offsets.chained_root)
}

pub(crate) fn root_bytes(shred: &ShredRef<'_>) -> Result<[u8; 32], ShredDefect> {
    root_of(shred, &mut NodeMemo::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaves(n: usize) -> Vec<[u8; 32]> {
        (0..n).map(|i| leaf_hash(&i.to_le_bytes())).collect()
    }

    #[test]
    fn every_proof_folds_to_the_root() {
        for n in [1usize, 2, 3, 5, 32, 33, 64, 68] {
            let tree = MerkleTree::new(leaves(n));
            let p = usize::from(proof_size_for(n));
            let mut proof = vec![0u8; p * SIZE_OF_MERKLE_PROOF_ENTRY];
            for (i, leaf) in leaves(n).into_iter().enumerate() {
                tree.write_proof(i, &mut proof);
                assert_eq!(
                    root_from_proof(leaf, i, &proof),
                    Some(tree.root()),
                    "n={n} i={i}"
                );
            }
        }
    }

    #[test]
    fn a_shared_memo_gives_every_root_and_catches_every_altered_proof() {
        let mut memo = NodeMemo::for_shreds(8);
        for n in [1usize, 3, 32, 64, 68] {
            let tree = MerkleTree::new(leaves(n));
            let mut proof = vec![0u8; usize::from(proof_size_for(n)) * SIZE_OF_MERKLE_PROOF_ENTRY];
            for (i, leaf) in leaves(n).into_iter().enumerate() {
                tree.write_proof(i, &mut proof);
                let root = root_from_proof_with(leaf, i, &proof, &mut memo);
                assert_eq!(root, Some(tree.root()), "n={n} i={i}");
                // One altered byte at each level, after the honest folds filled the memo:
                // the same (wrong) root as without a memo.
                for at in (0..proof.len()).step_by(SIZE_OF_MERKLE_PROOF_ENTRY) {
                    let mut bad = proof.clone();
                    bad[at] ^= 1;
                    let with = root_from_proof_with(leaf, i, &bad, &mut memo);
                    assert_eq!(with, root_from_proof(leaf, i, &bad), "n={n} i={i} at={at}");
                    assert_ne!(with, Some(tree.root()), "n={n} i={i} at={at}");
                }
                assert_eq!(
                    root_from_proof_with(leaf, i + (1 << 20), &proof, &mut memo),
                    None
                );
            }
        }
    }

    #[test]
    fn proof_sizes() {
        assert_eq!(proof_size_for(1), 0);
        assert_eq!(proof_size_for(2), 1);
        assert_eq!(proof_size_for(64), 6);
        assert_eq!(proof_size_for(65), 7);
        assert_eq!(proof_size_for(68), 7);
    }

    #[test]
    fn position_outside_proof_is_rejected() {
        let leaf = leaf_hash(b"x");
        assert!(root_from_proof(leaf, 4, &[0u8; 40]).is_none());
        assert!(root_from_proof(leaf, 3, &[0u8; 40]).is_some());
    }
}
