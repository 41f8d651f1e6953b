//! `ShredIndexSet`: a set of shred indices of one slot as a fixed 32,768-bit bitmap.
//!
//! Used for a `SlotMeta`'s completed data indexes (whose V2 encoding is exactly this bitmap,
//! `docs/on-disk-layout.md#slotmeta`) and for the writer's cache of which shreds of a slot are
//! stored. Invariant: only
//! indices `< MAX_INDICES` can be members; the word array never holds a bit past it.

use std::fmt;

/// Number of representable indices: Agave's per-slot shred limit.
const MAX_INDICES: u32 = 32_768;
const WORDS: usize = (MAX_INDICES / 64) as usize;
/// Size of the bitmap in bytes (the V2 encoding's normal length).
pub(crate) const BITMAP_BYTES: usize = WORDS * 8;

/// A set of shred indices `< 32,768`. Bit `i` is bit `i % 64` of word `i / 64`, which is
/// bit `i % 8` of byte `i / 8` once the words are written little-endian.
#[derive(Clone, PartialEq, Eq)]
pub struct ShredIndexSet {
    words: Box<[u64; WORDS]>,
}

/// The completed data indexes of a `SlotMeta`: every index of a data-complete shred held.
pub type CompletedDataIndexes = ShredIndexSet;

impl Default for ShredIndexSet {
    fn default() -> Self {
        Self::new()
    }
}

impl ShredIndexSet {
    /// Exclusive upper bound of the members.
    pub const CAPACITY: u32 = MAX_INDICES;

    /// The empty set.
    pub fn new() -> Self {
        Self {
            words: Box::new([0; WORDS]),
        }
    }

    /// The set `0..end` (clamped to the capacity).
    pub fn with_prefix(end: u32) -> Self {
        let mut set = Self::new();
        set.insert_range(0, end);
        set
    }

    fn word_bit(index: u32) -> Option<(usize, u64)> {
        (index < MAX_INDICES).then(|| ((index / 64) as usize, 1u64 << (index % 64)))
    }

    /// Adds `index`; returns whether it was newly added. Indices `≥ 32,768` cannot be members
    /// (no valid shred has one): they leave the set unchanged and return `false`.
    pub fn insert(&mut self, index: u32) -> bool {
        let Some((w, bit)) = Self::word_bit(index) else {
            return false;
        };
        let Some(word) = self.words.get_mut(w) else {
            return false;
        };
        let new = *word & bit == 0;
        *word |= bit;
        new
    }

    /// Adds every index in `start..end` (clamped to the capacity).
    pub fn insert_range(&mut self, start: u32, end: u32) {
        for i in start..end.min(MAX_INDICES) {
            self.insert(i);
        }
    }

    /// Removes `index`; returns whether it was a member.
    pub fn remove(&mut self, index: u32) -> bool {
        let Some((w, bit)) = Self::word_bit(index) else {
            return false;
        };
        let Some(word) = self.words.get_mut(w) else {
            return false;
        };
        let had = *word & bit != 0;
        *word &= !bit;
        had
    }

    /// Whether `index` is a member.
    pub fn contains(&self, index: u32) -> bool {
        Self::word_bit(index)
            .and_then(|(w, bit)| self.words.get(w).map(|word| word & bit != 0))
            .unwrap_or(false)
    }

    /// Number of members.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// All members, ascending.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.range(0, MAX_INDICES)
    }

    /// The bitmap's words (bit `i` of word `w` is index `64w + i`) up to its last non-zero
    /// one: two sets are equal exactly when these are.
    pub fn trimmed_words(&self) -> &[u64] {
        let used = self
            .words
            .iter()
            .rposition(|w| *w != 0)
            .map_or(0, |last| last + 1);
        self.words.get(..used).unwrap_or(&[])
    }

    /// Members in `start..end`, ascending.
    pub fn range(&self, start: u32, end: u32) -> impl Iterator<Item = u32> + '_ {
        let end = end.min(MAX_INDICES);
        let mut next = start;
        std::iter::from_fn(move || {
            let found = self.next_member(next, end)?;
            next = found.checked_add(1)?;
            Some(found)
        })
    }

    /// The smallest member in `from..end`.
    pub fn next_member(&self, from: u32, end: u32) -> Option<u32> {
        let end = end.min(MAX_INDICES);
        let mut i = from;
        while i < end {
            let word = self.words.get((i / 64) as usize).copied().unwrap_or(0) >> (i % 64);
            if word != 0 {
                let found = i + word.trailing_zeros();
                return (found < end).then_some(found);
            }
            i = (i / 64 + 1) * 64;
        }
        None
    }

    /// The largest member below `before`.
    pub fn prev_member(&self, before: u32) -> Option<u32> {
        let mut end = before.min(MAX_INDICES);
        while end > 0 {
            let last = end - 1;
            let w = (last / 64) as usize;
            let shift = 63 - last % 64;
            let word = self.words.get(w).copied().unwrap_or(0) << shift;
            if word != 0 {
                return Some(last - word.leading_zeros());
            }
            end = last / 64 * 64;
        }
        None
    }

    /// The smallest index `≥ from` that is not a member (`32,768` when all are).
    pub fn first_absent_from(&self, from: u32) -> u32 {
        let mut i = from;
        while i < MAX_INDICES {
            let word = !self.words.get((i / 64) as usize).copied().unwrap_or(0) >> (i % 64);
            if word != 0 {
                return (i + word.trailing_zeros()).min(MAX_INDICES);
            }
            i = (i / 64 + 1) * 64;
        }
        MAX_INDICES
    }

    /// Whether every index in `start..end` is a member (true for an empty range).
    pub fn contains_range(&self, start: u32, end: u32) -> bool {
        start >= end || (end <= MAX_INDICES && self.first_absent_from(start) >= end)
    }

    /// The bitmap as 4096 bytes, bit `i` at bit `i % 8` of byte `i / 8`.
    pub fn to_bitmap(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(BITMAP_BYTES);
        for word in self.words.iter() {
            out.extend_from_slice(&word.to_le_bytes());
        }
        out
    }

    /// Reads a bitmap of at most 4096 bytes (shorter means the missing bytes are zero).
    /// Returns `None` when it is longer.
    pub fn from_bitmap(bytes: &[u8]) -> Option<Self> {
        if bytes.len() > BITMAP_BYTES {
            return None;
        }
        let mut set = Self::new();
        for (word, chunk) in set.words.iter_mut().zip(bytes.chunks(8)) {
            let mut le = [0u8; 8];
            le.get_mut(..chunk.len())?.copy_from_slice(chunk);
            *word = u64::from_le_bytes(le);
        }
        Some(set)
    }
}

impl fmt::Debug for ShredIndexSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl FromIterator<u32> for ShredIndexSet {
    fn from_iter<I: IntoIterator<Item = u32>>(iter: I) -> Self {
        let mut set = Self::new();
        for i in iter {
            set.insert(i);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use proptest::prelude::*;

    use super::*;

    #[test]
    fn bit_positions_match_spec() {
        let set: ShredIndexSet = [0, 9, 32_767].into_iter().collect();
        let bytes = set.to_bitmap();
        assert_eq!(bytes.len(), 4096);
        assert_eq!(bytes[0], 0b0000_0001);
        assert_eq!(bytes[1], 0b0000_0010);
        assert_eq!(bytes[4095], 0b1000_0000);
        assert!(!set.clone().insert(32_768));
        assert!(!set.contains(32_768));
    }

    #[test]
    fn neighbours_and_gaps() {
        let set: ShredIndexSet = [3, 64, 65, 200].into_iter().collect();
        assert_eq!(set.prev_member(64), Some(3));
        assert_eq!(set.prev_member(65), Some(64));
        assert_eq!(set.prev_member(3), None);
        assert_eq!(set.next_member(4, 32_768), Some(64));
        assert_eq!(set.next_member(66, 200), None);
        assert_eq!(set.first_absent_from(64), 66);
        assert_eq!(
            ShredIndexSet::with_prefix(32_768).first_absent_from(5),
            32_768
        );
        assert!(set.contains_range(64, 66));
        assert!(!set.contains_range(63, 66));
        assert_eq!(set.range(4, 201).collect::<Vec<_>>(), vec![64, 65, 200]);
    }

    proptest! {
        #[test]
        fn behaves_like_btreeset(
            members in proptest::collection::btree_set(0u32..32_768, 0..200),
            probe in 0u32..33_000,
            lo in 0u32..33_000,
            hi in 0u32..33_000,
        ) {
            let set: ShredIndexSet = members.iter().copied().collect();
            prop_assert_eq!(set.len(), members.len());
            prop_assert_eq!(set.contains(probe), members.contains(&probe));
            prop_assert_eq!(set.iter().collect::<Vec<_>>(), members.iter().copied().collect::<Vec<_>>());
            let want: Vec<u32> = members.iter().copied().filter(|&i| i >= lo && i < hi).collect();
            prop_assert_eq!(set.range(lo, hi).collect::<Vec<_>>(), want);
            prop_assert_eq!(set.prev_member(probe), members.range(..probe).next_back().copied());
            let absent = (probe..32_768).find(|i| !members.contains(i)).unwrap_or(32_768);
            prop_assert_eq!(set.first_absent_from(probe), absent.max(probe.min(32_768)));
            prop_assert_eq!(ShredIndexSet::from_bitmap(&set.to_bitmap()), Some(set.clone()));
            let all: BTreeSet<u32> = (lo..hi.min(32_768)).collect();
            prop_assert_eq!(set.contains_range(lo, hi), lo >= hi || (hi <= 32_768 && all.is_subset(&members)));
        }
    }
}
