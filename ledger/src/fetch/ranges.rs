//! Completed ranges (`docs/fetch-pipeline.md#the-fetch-pipeline`): which shred ranges of a slot
//! form whole data sets.
//!
//! A data set ends at a shred flagged data-complete; it starts right after the previous one
//! (or at 0). The fetch only trusts data sets below `consumed` (the first missing index), so
//! a set after a hole, or a half-received set, is never returned.

use std::ops::Range;

/// Cuts `[start, c0+1), [c0+1, c1+1), …` from the ascending completed indices `c` with
/// `start <= c < consumed`.
///
/// `completed` must be ascending (a bitmap or sorted set iterates that way). `start >
/// consumed` yields nothing (Agave panics there). Replay passes its running shred count as
/// `start`, so `start` sits on a data-set boundary.
pub fn completed_ranges(
    completed: impl IntoIterator<Item = u32>,
    start: u32,
    consumed: u32,
) -> Vec<Range<u32>> {
    let mut out = Vec::new();
    if start >= consumed {
        return out;
    }
    let mut begin = start;
    for c in completed {
        if c < start {
            continue;
        }
        if c >= consumed {
            break;
        }
        // `c < consumed <= u32::MAX`, so `c + 1` cannot overflow.
        out.push(begin..c + 1);
        begin = c + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn cuts_at_completed_indices_below_consumed() {
        assert_eq!(completed_ranges([3, 7, 9], 0, 10), vec![0..4, 4..8, 8..10]);
        assert_eq!(completed_ranges([3, 7, 9], 4, 10), vec![4..8, 8..10]);
        // 9 is not below consumed: the set 8..10 is half received.
        assert_eq!(completed_ranges([3, 7, 9], 0, 9), vec![0..4, 4..8]);
        assert!(completed_ranges([3], 5, 4).is_empty());
        assert!(completed_ranges([3], 4, 4).is_empty());
        assert!(completed_ranges(std::iter::empty(), 0, 100).is_empty());
    }

    /// The model: walk every index below `consumed` and close a set at each completed one.
    fn model(completed: &[u32], start: u32, consumed: u32) -> Vec<Range<u32>> {
        let mut out = Vec::new();
        let mut begin = start;
        for i in start..consumed {
            if completed.contains(&i) {
                out.push(begin..i + 1);
                begin = i + 1;
            }
        }
        out
    }

    proptest! {
        #[test]
        fn agrees_with_the_model(
            mut completed in proptest::collection::vec(0u32..200, 0..20),
            start in 0u32..220,
            consumed in 0u32..220,
        ) {
            completed.sort_unstable();
            completed.dedup();
            prop_assert_eq!(
                completed_ranges(completed.iter().copied(), start, consumed),
                model(&completed, start, consumed)
            );
        }
    }
}
