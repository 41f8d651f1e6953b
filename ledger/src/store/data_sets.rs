//! Which data sets a set of newly stored shreds completed
//! (`docs/on-disk-layout.md#inserting-shreds`).
//!
//! A data set is `prev + 1 ..= c` where `c` is a data-complete index and `prev` the previous
//! data-complete index (or `-1`). It completes when its last shred is present and flagged and
//! every shred of it is present. A set can only complete in the call that stores its last
//! missing member, or the call that stores the data-complete shred just before it (which
//! fixes where it starts), so checking the sets around each new index finds each completed
//! set exactly once over the life of the slot.

use std::collections::BTreeSet;

use super::index_set::ShredIndexSet;

/// The half-open ranges `start..end` completed by storing `new` (any order, no duplicates
/// required), given the slot's present data indices and data-complete indices after the
/// call. Ascending, no duplicates.
pub(crate) fn newly_completed(
    present: &ShredIndexSet,
    completed: &ShredIndexSet,
    new: &[u32],
) -> Vec<(u32, u32)> {
    let cap = ShredIndexSet::CAPACITY;
    let mut candidates = BTreeSet::new();
    for &i in new {
        let start = completed.prev_member(i).map_or(0, |p| p + 1);
        if let Some(end) = completed.next_member(i, cap) {
            candidates.insert((start, end + 1));
        }
        if completed.contains(i)
            && let Some(next) = completed.next_member(i + 1, cap)
        {
            candidates.insert((i + 1, next + 1));
        }
    }
    candidates
        .into_iter()
        .filter(|&(start, end)| present.contains_range(start, end))
        .collect()
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn set(v: &[u32]) -> ShredIndexSet {
        v.iter().copied().collect()
    }

    #[test]
    fn set_completes_when_last_member_arrives() {
        let completed = set(&[3, 7]);
        let present = set(&[0, 1, 2, 3, 5, 6, 7]);
        assert_eq!(newly_completed(&present, &completed, &[1]), vec![(0, 4)]);
        assert_eq!(newly_completed(&present, &completed, &[5]), vec![]);
        let present = set(&[0, 1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(newly_completed(&present, &completed, &[4]), vec![(4, 8)]);
        assert_eq!(
            newly_completed(&present, &completed, &[7, 0]),
            vec![(0, 4), (4, 8)]
        );
    }

    #[test]
    fn marker_arriving_last_completes_the_set_after_it() {
        // 4..=7 were all present, but where their set started was unknown until 3 arrived.
        let completed = set(&[3, 7]);
        let present = set(&[3, 4, 5, 6, 7]);
        assert_eq!(newly_completed(&present, &completed, &[3]), vec![(4, 8)]);
    }

    proptest! {
        /// Inserting a slot's shreds in any order, in any chunks, reports every data set
        /// exactly once, and only when all of it is present.
        #[test]
        fn every_set_reported_once(
            len in 1u32..200,
            markers in proptest::collection::btree_set(0u32..200, 0..20),
            order in any::<u64>(),
            chunk in 1usize..20,
        ) {
            let markers: Vec<u32> = markers.into_iter().filter(|&m| m < len).collect();
            let mut indices: Vec<u32> = (0..len).collect();
            // Deterministic shuffle from the generated seed.
            let mut state = order | 1;
            for i in (1..indices.len()).rev() {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                indices.swap(i, (state % (i as u64 + 1)) as usize);
            }
            let mut present = ShredIndexSet::new();
            let mut completed = ShredIndexSet::new();
            let mut reported = Vec::new();
            for batch in indices.chunks(chunk) {
                for &i in batch {
                    present.insert(i);
                    if markers.contains(&i) {
                        completed.insert(i);
                    }
                }
                for (s, e) in newly_completed(&present, &completed, batch) {
                    prop_assert!(present.contains_range(s, e));
                    reported.push((s, e));
                }
            }
            reported.sort_unstable();
            let mut want = Vec::new();
            let mut start = 0;
            for &m in &markers {
                want.push((start, m + 1));
                start = m + 1;
            }
            prop_assert_eq!(reported, want);
        }
    }
}
