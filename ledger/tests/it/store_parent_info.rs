//! Scenario: an Alpenglow slot (Agave 4.2.2's serialized components,
//! `testdata/agave4/block_components.json`, shredded by bstore's shredder) inserted into the
//! in-memory store sets its meta's parent from its markers as Agave 4.4 does: the block
//! header's parent block id, replaced by the UpdateParent's parent slot, block id and FEC
//! set in either arrival order. A slot without markers keeps the shred parent and
//! zero fields; an UpdateParent outside a leader window's first slot kills the slot.

use crate::fetch_block_components::{unhex, vectors};

use bstore_ledger::block::{BlockMarker, is_block_marker};
use bstore_ledger::shred::{BatchOptions, LastInSlot, Resign, Shredder};
use bstore_ledger::store::{Blockstore, InsertDefect, MemEngine, ParentInfoDefect, SlotMeta};
use bstore_ledger::{Hash, LedgerError, Slot};
use ed25519_dalek::SigningKey;

/// The vector slot's data sets, in order, and its shred parent.
fn data_sets() -> (Vec<Vec<u8>>, Slot) {
    let v = vectors();
    let sets = v["slot"]["data_sets"]
        .as_array()
        .expect("data sets")
        .iter()
        .map(|d| unhex(d["hex"].as_str().expect("hex")))
        .collect();
    (
        sets,
        Slot(v["slot"]["parent_slot"].as_u64().expect("parent")),
    )
}

/// Shreds `sets` as `slot` (child of `parent`), one data set per batch; returns each set's
/// data shreds.
fn shred_slot(slot: Slot, parent: Slot, sets: &[Vec<u8>]) -> Vec<Vec<Vec<u8>>> {
    let key = SigningKey::from_bytes(&[42; 32]);
    let mut shredder = Shredder::new(slot, parent, 7, key).expect("shredder");
    sets.iter()
        .enumerate()
        .map(|(i, set)| {
            let opts = BatchOptions {
                last_in_slot: if i + 1 == sets.len() {
                    LastInSlot::Yes
                } else {
                    LastInSlot::No
                },
                reference_tick: 0,
                resign_last: Resign::No,
            };
            shredder.shred_batch(set, opts).expect("shreds")
        })
        .collect()
}

fn marker(set: &[u8]) -> BlockMarker {
    BlockMarker::parse(set).expect("marker")
}

/// The slot's meta after inserting the vector slot's shreds as `slot`, in set order (one
/// call per set) or all at once in reverse.
fn meta_after(slot: Slot, reverse: bool) -> (SlotMeta, Vec<Vec<Vec<u8>>>) {
    let (sets, parent) = data_sets();
    let shreds = shred_slot(slot, parent, &sets);
    let store = Blockstore::in_memory();
    if reverse {
        let all: Vec<&Vec<u8>> = shreds.iter().flatten().rev().collect();
        let out = store.insert_shreds(all).expect("insert");
        assert!(out.rejected.is_empty(), "{:?}", out.rejected);
    } else {
        for set in &shreds {
            let out = store.insert_shreds(set).expect("insert");
            assert!(out.rejected.is_empty(), "{:?}", out.rejected);
        }
    }
    assert!(!store.is_dead(slot).expect("dead flag"));
    (store.meta(slot).expect("meta").expect("stored"), shreds)
}

#[test]
fn update_parent_sets_the_meta_parent_in_either_order() {
    let (sets, shred_parent) = data_sets();
    let header = *marker(&sets[0]).as_header().expect("set 0 is the header");
    let update = *marker(&sets[4])
        .as_update_parent()
        .expect("set 4 is the UpdateParent");
    assert_eq!(header.parent_slot, shred_parent);
    assert!(update.new_parent_slot < shred_parent);
    // 44: an UpdateParent is only valid in the first slot of a 4-slot leader window.
    for reverse in [false, true] {
        let (meta, shreds) = meta_after(Slot(44), reverse);
        let update_set =
            u32::try_from(shreds[..4].iter().map(Vec::len).sum::<usize>()).expect("small slot");
        assert!(update_set > 0 && update_set % 32 == 0, "{update_set}");
        assert_eq!(
            meta.parent_slot,
            Some(update.new_parent_slot),
            "reverse {reverse}"
        );
        assert_eq!(meta.parent_block_id, update.new_parent_block_id);
        assert_eq!(meta.replay_fec_set_index, update_set);
        assert!(meta.is_full());
    }
}

#[test]
fn header_alone_sets_the_parent_block_id() {
    let (sets, shred_parent) = data_sets();
    let header = *marker(&sets[0]).as_header().expect("header");
    // Drop the UpdateParent: only the header names a parent.
    let sets: Vec<Vec<u8>> = sets
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != 4)
        .map(|(_, s)| s.clone())
        .collect();
    let slot = Slot(44);
    let store = Blockstore::in_memory();
    for set in shred_slot(slot, shred_parent, &sets) {
        let out = store.insert_shreds(&set).expect("insert");
        assert!(out.rejected.is_empty(), "{:?}", out.rejected);
    }
    let meta = store.meta(slot).expect("meta").expect("stored");
    assert_eq!(meta.parent_slot, Some(header.parent_slot));
    assert_eq!(meta.parent_block_id, header.parent_block_id);
    assert_eq!(meta.replay_fec_set_index, 0);
}

#[test]
fn slot_without_markers_keeps_zero_fields() {
    let (sets, shred_parent) = data_sets();
    let entries: Vec<Vec<u8>> = sets.into_iter().filter(|s| !is_block_marker(s)).collect();
    let slot = Slot(44);
    let store = Blockstore::in_memory();
    for set in shred_slot(slot, shred_parent, &entries) {
        let out = store.insert_shreds(&set).expect("insert");
        assert!(out.rejected.is_empty(), "{:?}", out.rejected);
    }
    let meta = store.meta(slot).expect("meta").expect("stored");
    assert_eq!(meta.parent_slot, Some(shred_parent));
    assert_eq!(meta.parent_block_id, Hash::default());
    assert_eq!(meta.replay_fec_set_index, 0);
    assert!(meta.is_full());
}

#[test]
fn update_parent_outside_window_start_kills_the_slot() {
    let (sets, shred_parent) = data_sets();
    let slot = Slot(42);
    let store: Blockstore<MemEngine> = Blockstore::in_memory();
    let shreds = shred_slot(slot, shred_parent, &sets);
    let mut rejected = Vec::new();
    for set in &shreds {
        rejected.extend(store.insert_shreds(set).expect("insert").rejected);
    }
    assert_eq!(rejected.len(), 1, "{rejected:?}");
    let LedgerError::ShredRejected { index, defect, .. } = &rejected[0].error else {
        panic!("{:?}", rejected[0].error);
    };
    let update_set = shreds[..4].iter().map(Vec::len).sum::<usize>();
    assert_eq!(index.0 as usize, update_set);
    assert_eq!(
        *defect,
        InsertDefect::ParentInfo(ParentInfoDefect::UpdateParentNotFirstInLeaderWindow)
    );
    assert!(store.is_dead(slot).expect("dead flag"));
    let meta = store.meta(slot).expect("meta").expect("stored");
    let header = *marker(&sets[0]).as_header().expect("header");
    assert_eq!(meta.parent_slot, Some(header.parent_slot));
    assert_eq!(meta.parent_block_id, header.parent_block_id);
    assert_eq!(meta.replay_fec_set_index, 0);
}
