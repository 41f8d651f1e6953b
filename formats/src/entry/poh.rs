//! Proof of history (`docs/formats-entries.md#proof-of-history`): the hash chain that links
//! entries, and the Merkle mixin of
//! an entry's signatures.

use sha2::digest::generic_array::GenericArray;
use sha2::{Digest, Sha256};

use super::PohDefect;
use super::limits::{HashLimits, HashTally};
use super::model::Entry;
use super::view::EntryView;
use crate::error::FormatError;
use crate::sha256_blocks::SHA256_IV;
use crate::types::Hash;

/// Merkle leaf and inner-node domain prefixes.
const LEAF_PREFIX: u8 = 0x00;
const NODE_PREFIX: u8 = 0x01;

/// Hashes `h` with SHA-256 `n` times in a row.
///
/// A 32-byte message is exactly one padded block, so the loop calls the compression
/// function directly on a block whose padding never changes (0x80, zeros, bit length 256);
/// only the first 32 bytes are rewritten each round. `sha2` picks SHA-NI when the CPU has it.
fn hash_repeatedly(h: &[u8; 32], n: u64) -> [u8; 32] {
    if n == 0 {
        return *h;
    }
    let mut block = GenericArray::from([0u8; 64]);
    block[..32].copy_from_slice(h);
    block[32] = 0x80;
    block[62] = 0x01; // 256 bits, big-endian in the last 8 bytes
    for _ in 0..n {
        let mut state = SHA256_IV;
        sha2::compress256(&mut state, std::slice::from_ref(&block));
        for (dst, word) in block.chunks_exact_mut(4).zip(state) {
            dst.copy_from_slice(&word.to_be_bytes());
        }
    }
    let mut out = [0u8; 32];
    out.copy_from_slice(&block[..32]);
    out
}

/// `next_hash` of `docs/formats-entries.md#proof-of-history`: `num_hashes - 1` plain hashes of
/// `prev`, then one more, plain
/// for a tick (`mixin == None`) or over `hash ‖ mixin` for an entry with transactions.
/// With `num_hashes == 0` a tick repeats `prev` unchanged and an entry with transactions
/// hashes `prev ‖ mixin` once, as Agave does.
pub fn next_hash(prev: &Hash, num_hashes: u64, mixin: Option<&Hash>) -> Hash {
    match mixin {
        None => Hash(hash_repeatedly(&prev.0, num_hashes)),
        Some(m) => {
            let h = hash_repeatedly(&prev.0, num_hashes.saturating_sub(1));
            let mut hasher = Sha256::new();
            hasher.update(h);
            hasher.update(m.0);
            Hash(hasher.finalize().into())
        }
    }
}

/// Merkle root over the signatures of all transactions of an entry, in order: leaves are
/// SHA-256(0x00 ‖ sig), nodes SHA-256(0x01 ‖ left ‖ right), an odd last node pairs with
/// itself. No signatures give 32 zero bytes.
pub fn signatures_mixin<'s>(sigs: impl IntoIterator<Item = &'s [u8; 64]>) -> Hash {
    let mut level: Vec<[u8; 32]> = sigs
        .into_iter()
        .map(|sig| {
            let mut hasher = Sha256::new();
            hasher.update([LEAF_PREFIX]);
            hasher.update(sig);
            hasher.finalize().into()
        })
        .collect();
    while level.len() > 1 {
        let n = level.len();
        let mut write = 0;
        let mut read = 0;
        // `read < n` and `write <= read / 2 < n` keep every index in bounds.
        while read < n {
            let left = level[read];
            let right = if read + 1 < n { level[read + 1] } else { left };
            let mut hasher = Sha256::new();
            hasher.update([NODE_PREFIX]);
            hasher.update(left);
            hasher.update(right);
            level[write] = hasher.finalize().into();
            write += 1;
            read += 2;
        }
        level.truncate(write);
    }
    Hash(level.first().copied().unwrap_or([0; 32]))
}

/// What PoH verification needs from an entry; implemented by owned entries and views.
pub trait PohEntry {
    /// Hashes since the previous entry, the mixin hash included.
    fn num_hashes(&self) -> u64;
    /// The PoH hash the entry carries.
    fn hash(&self) -> Hash;
    /// True for an entry without transactions.
    fn is_tick(&self) -> bool;
    /// `None` for a tick, else the Merkle root of all the entry's signatures.
    fn mixin(&self) -> Option<Hash>;
}

impl PohEntry for Entry {
    fn num_hashes(&self) -> u64 {
        self.num_hashes
    }

    fn hash(&self) -> Hash {
        self.hash
    }

    fn is_tick(&self) -> bool {
        Entry::is_tick(self)
    }

    fn mixin(&self) -> Option<Hash> {
        (!Entry::is_tick(self)).then(|| {
            signatures_mixin(
                self.transactions
                    .iter()
                    .flat_map(|tx| tx.signatures.iter().map(|s| &s.0)),
            )
        })
    }
}

impl PohEntry for EntryView<'_> {
    fn num_hashes(&self) -> u64 {
        EntryView::num_hashes(self)
    }

    fn hash(&self) -> Hash {
        EntryView::hash(self)
    }

    fn is_tick(&self) -> bool {
        EntryView::is_tick(self)
    }

    fn mixin(&self) -> Option<Hash> {
        (!EntryView::is_tick(self)).then(|| signatures_mixin(self.signatures()))
    }
}

impl<T: PohEntry + ?Sized> PohEntry for &T {
    fn num_hashes(&self) -> u64 {
        (**self).num_hashes()
    }

    fn hash(&self) -> Hash {
        (**self).hash()
    }

    fn is_tick(&self) -> bool {
        (**self).is_tick()
    }

    fn mixin(&self) -> Option<Hash> {
        (**self).mixin()
    }
}

/// Checks that each entry's hash follows from the previous one (the first from `start`,
/// the parent slot's blockhash); returns the last hash (`start` when there are no entries).
/// Fails with `FormatError::Poh { entry, defect: HashMismatch }` at the first broken link,
/// `entry` counting from 0 within `entries`. The work is bounded by the default
/// [`HashLimits`]: see [`verify_poh_with_limits`].
pub fn verify_poh<E: PohEntry>(
    start: &Hash,
    entries: impl IntoIterator<Item = E>,
) -> crate::Result<Hash> {
    verify_poh_with_limits(start, entries, &HashLimits::default())
}

/// [`verify_poh`] with explicit bounds: each entry's `num_hashes` is counted against
/// `limits` (from the first entry given, which is taken to follow a tick) before it is
/// hashed, so an entry asking for too many hashes fails with `TickHashLimit` or
/// `SlotHashLimit` at once instead of running for hours.
pub fn verify_poh_with_limits<E: PohEntry>(
    start: &Hash,
    entries: impl IntoIterator<Item = E>,
    limits: &HashLimits,
) -> crate::Result<Hash> {
    let mut prev = *start;
    let mut tally = HashTally::default();
    for (i, entry) in entries.into_iter().enumerate() {
        let num_hashes = entry.num_hashes();
        tally
            .push(num_hashes, entry.is_tick(), limits)
            .map_err(|defect| FormatError::Poh { entry: i, defect })?;
        let expected = next_hash(&prev, num_hashes, entry.mixin().as_ref());
        let found = entry.hash();
        if expected != found {
            return Err(FormatError::Poh {
                entry: i,
                defect: PohDefect::HashMismatch { expected, found },
            });
        }
        prev = found;
    }
    Ok(prev)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sha(data: &[u8]) -> [u8; 32] {
        Sha256::digest(data).into()
    }

    #[test]
    fn repeated_hash_matches_plain_sha256() {
        let h = sha(b"seed");
        let mut expected = h;
        for n in 0..5u64 {
            assert_eq!(hash_repeatedly(&h, n), expected, "n = {n}");
            expected = sha(&expected);
        }
    }

    #[test]
    fn next_hash_forms() {
        let prev = Hash(sha(b"prev"));
        let mixin = Hash(sha(b"mixin"));
        assert_eq!(next_hash(&prev, 0, None), prev);
        assert_eq!(next_hash(&prev, 1, None).0, sha(&prev.0));
        let mut joined = prev.0.to_vec();
        joined.extend_from_slice(&mixin.0);
        assert_eq!(next_hash(&prev, 0, Some(&mixin)).0, sha(&joined));
        assert_eq!(next_hash(&prev, 1, Some(&mixin)).0, sha(&joined));
        let once = sha(&prev.0);
        let mut joined2 = once.to_vec();
        joined2.extend_from_slice(&mixin.0);
        assert_eq!(next_hash(&prev, 2, Some(&mixin)).0, sha(&joined2));
    }

    #[test]
    fn merkle_mixin_shapes() {
        let sigs: Vec<[u8; 64]> = (0..3u8).map(|i| [i; 64]).collect();
        let leaf = |s: &[u8; 64]| {
            let mut v = vec![LEAF_PREFIX];
            v.extend_from_slice(s);
            sha(&v)
        };
        let node = |l: &[u8; 32], r: &[u8; 32]| {
            let mut v = vec![NODE_PREFIX];
            v.extend_from_slice(l);
            v.extend_from_slice(r);
            sha(&v)
        };
        assert_eq!(signatures_mixin([]), Hash([0; 32]));
        assert_eq!(signatures_mixin(&sigs[..1]).0, leaf(&sigs[0]));
        let (l0, l1, l2) = (leaf(&sigs[0]), leaf(&sigs[1]), leaf(&sigs[2]));
        assert_eq!(signatures_mixin(&sigs[..2]).0, node(&l0, &l1));
        let root3 = node(&node(&l0, &l1), &node(&l2, &l2));
        assert_eq!(signatures_mixin(&sigs).0, root3);
    }
}
