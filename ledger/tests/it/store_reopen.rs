//! Closing and reopening a store keeps everything: shreds byte for byte, metas, roots, dead
//! slots, block times and heights; re-inserting the same shreds is all duplicates.
#![cfg(feature = "storage")]

use crate::store_support;

use bstore_ledger::{ShredIndex, Slot};
use store_support::{SlotExpectation, open_rw, payload, shuffled_chunks, testnet};

#[test]
fn reopen_keeps_everything() {
    let (packets, expected) = testnet();
    let want = SlotExpectation::from_json(&expected["shreds"]);
    let dir = tempfile::tempdir().expect("tempdir");
    let meta_before = {
        let store = open_rw(dir.path());
        for chunk in shuffled_chunks(&packets, 7, 25) {
            store.insert_shreds(&chunk).expect("insert");
        }
        store.set_roots([want.parent, want.slot]).expect("roots");
        store.set_dead_slot(Slot(want.slot.0 + 1)).expect("dead");
        store.set_block_time(want.slot, -17).expect("block time");
        store
            .set_block_height(want.slot, 123_456)
            .expect("block height");
        store.meta(want.slot).expect("meta").expect("stored")
    };

    let store = open_rw(dir.path());
    let meta = store
        .meta(want.slot)
        .expect("meta")
        .expect("stored after reopen");
    assert_eq!(meta, meta_before);
    want.check_meta(&meta, "after reopen");
    for packet in &packets {
        let shred = bstore_ledger::shred::ShredRef::parse(packet).expect("parse");
        let stored = store.data_shred(want.slot, shred.index()).expect("read");
        assert_eq!(stored, Some(payload(packet)), "shred {}", shred.index());
    }
    assert_eq!(
        store
            .data_shred(want.slot, ShredIndex(want.received as u32))
            .expect("read"),
        None
    );
    assert!(store.is_root(want.slot).expect("root") && store.is_root(want.parent).expect("root"));
    assert!(!store.is_root(Slot(want.slot.0 + 1)).expect("root"));
    assert!(store.is_dead(Slot(want.slot.0 + 1)).expect("dead"));
    assert!(!store.is_dead(want.slot).expect("dead"));
    store
        .remove_dead_slot(Slot(want.slot.0 + 1))
        .expect("undead");
    assert!(!store.is_dead(Slot(want.slot.0 + 1)).expect("dead"));
    assert_eq!(store.block_time(want.slot).expect("time"), Some(-17));
    assert_eq!(
        store.block_height(want.slot).expect("height"),
        Some(123_456)
    );
    assert_eq!(store.block_time(want.parent).expect("time"), None);

    // The parent placeholder and the slot, in slot order; the range bounds are honoured.
    assert_eq!(store.highest_slot().expect("highest"), Some(want.slot));
    let slots: Vec<Slot> = store
        .slot_metas(..)
        .map(|m| m.expect("meta").slot)
        .collect();
    assert_eq!(slots, vec![want.parent, want.slot]);
    assert_eq!(store.slot_metas(want.slot..).count(), 1);
    assert_eq!(store.slot_metas(..want.slot).count(), 1);
    assert_eq!(store.slot_metas(..=want.slot).count(), 2);
    assert_eq!(store.slot_metas(Slot(want.slot.0 + 1)..).count(), 0);

    let again = store.insert_shreds(&packets).expect("insert again");
    assert_eq!((again.inserted, again.duplicates), (0, packets.len()));
    assert!(again.completed_data_sets.is_empty() && again.slots_full.is_empty());
}
