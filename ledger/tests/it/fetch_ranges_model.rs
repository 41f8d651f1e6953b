//! Scenario: for any subset of the real testnet slot's shreds inserted in any order (with
//! holes), the store's completed ranges equal a simple model: walk the indices from `start`,
//! stop at the first hole, cut a range at every data-complete shred.
#![cfg(feature = "storage")]

use crate::common;

use bstore_ledger::Slot;
use bstore_ledger::fetch::ShredRanges;
use bstore_ledger::shred::ShredRef;
use bstore_ledger::store::{AccessMode, Blockstore};
use proptest::prelude::*;

fn model(complete: &[bool], present: &[bool], start: u32) -> Vec<std::ops::Range<u32>> {
    let mut out = Vec::new();
    let mut begin = start;
    let mut i = 0u32;
    while (i as usize) < present.len() && present[i as usize] {
        if i >= start && complete[i as usize] {
            out.push(begin..i + 1);
            begin = i + 1;
        }
        i += 1;
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]
    #[test]
    fn completed_ranges_match_the_model(
        keep in proptest::collection::vec(prop::bool::weighted(0.97), 320),
        order in Just((0..320usize).collect::<Vec<_>>()).prop_shuffle(),
        calls in 1usize..12,
        start_pick in 0usize..10,
    ) {
        let packets = common::read_records("sig-testnet-417955322/shreds.bin");
        let shreds: Vec<ShredRef<'_>> = packets.iter().map(|p| ShredRef::parse(p).expect("parses")).collect();
        let slot = shreds[0].slot();
        let complete: Vec<bool> = shreds.iter().map(|s| s.data_complete()).collect();
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Blockstore::open(dir.path(), AccessMode::ReadWrite).expect("open");
        let kept: Vec<usize> = order.into_iter().filter(|&i| keep[i]).collect();
        for chunk in kept.chunks(kept.len().div_ceil(calls).max(1)) {
            store.insert_shreds(chunk.iter().map(|&i| &packets[i])).expect("insert");
        }
        let present: Vec<bool> = (0..320).map(|i| keep[i]).collect();
        // Replay-style starts: 0 and the data-set boundaries.
        let mut starts = vec![0u32];
        starts.extend((0..320u32).filter(|&i| complete[i as usize]).map(|i| i + 1));
        let start = starts[start_pick % starts.len()];
        prop_assert_eq!(store.completed_ranges(slot, start).expect("ranges"), model(&complete, &present, start));
        prop_assert_eq!(store.completed_ranges(Slot(slot.0 + 1), 0).expect("ranges"), vec![]);
    }
}
