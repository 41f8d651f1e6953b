//! Scenario: an Alpenglow slot's block markers set its meta's parent on both writers alike.
//! The slot is Agave's own serialized components (`testdata/agave4/block_components.json`:
//! block header, entries, UpdateParent, entries, footer), shredded by bstore's shredder
//! with code shreds, one FEC-set batch per data set. The same stream goes through bstore's
//! `ledger ingest` and Agave's `insert_shreds` (the tool's version: Agave 4.2's, 4.3's and
//! 4.4's insert all parse the header at index 0 and an UpdateParent at a set boundary);
//! the slot's `meta`, `index`, `erasure_meta` and `merkle_root_meta` rows must be the same
//! bytes, and the dead mark the same, for the header alone, header then UpdateParent in
//! order and in reverse, no markers, and an UpdateParent outside the first slot of a leader
//! window (which both mark dead).

use std::path::Path;

use bstore_ledger::Slot;
use bstore_ledger::block::BlockMarker;
use bstore_ledger::shred::{BatchOptions, LastInSlot, Resign, Shredder};
use bstore_ledger::store::{AccessMode, Blockstore, SlotMeta};
use bstore_ledger::stream::write_record;
use ed25519_dalek::SigningKey;
use serde_json::Value;

use super::{agave_insert, bstore_ingest, column_differences};

/// The vector slot's data sets in order, and the parent its shreds name.
fn vector_slot() -> (Vec<Vec<u8>>, Slot) {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/agave4/block_components.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let v: Value = serde_json::from_str(&text).expect("vector file is JSON");
    let unhex = |s: &str| -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex digit"))
            .collect()
    };
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

/// Writes `sets` shredded as `slot` (child of `parent`) to a stream file: per set its data
/// shreds then its code shreds, or every record in reverse.
fn write_stream(file: &Path, slot: Slot, parent: Slot, sets: &[Vec<u8>], reverse: bool) {
    let mut shredder =
        Shredder::new(slot, parent, 7, SigningKey::from_bytes(&[42; 32])).expect("shredder");
    let mut records = Vec::new();
    for (i, set) in sets.iter().enumerate() {
        let opts = BatchOptions {
            last_in_slot: if i + 1 == sets.len() {
                LastInSlot::Yes
            } else {
                LastInSlot::No
            },
            reference_tick: 0,
            resign_last: Resign::No,
        };
        let batch = shredder.shred_batch_with_code(set, opts).expect("shreds");
        records.extend(batch.data);
        records.extend(batch.code);
    }
    if reverse {
        records.reverse();
    }
    let mut out = Vec::new();
    for record in &records {
        write_record(&mut out, record);
    }
    std::fs::write(file, out).expect("write stream");
}

/// The slot's meta and dead mark as bstore reads them from `ledger`.
fn meta_and_dead(ledger: &Path, slot: Slot) -> (SlotMeta, bool) {
    let store = Blockstore::open(ledger, AccessMode::ReadOnly).expect("open");
    let meta = store.meta(slot).expect("meta").expect("a meta row");
    (meta, store.is_dead(slot).expect("dead flag"))
}

/// What the markers decide: the parent slot, its block id, where replay starts, and the
/// dead mark (the meta's other fields are compared as bytes by `column_differences`).
fn parent_facts((meta, dead): &(SlotMeta, bool)) -> (Option<Slot>, [u8; 32], u32, bool) {
    (
        meta.parent_slot,
        meta.parent_block_id.0,
        meta.replay_fec_set_index,
        *dead,
    )
}

/// Both writers take the stream of `sets` as `slot`; their rows and dead marks must agree.
/// Returns the meta and dead mark (bstore's reading of Agave's ledger).
fn both_writers(
    dir: &Path,
    name: &str,
    slot: Slot,
    sets: &[Vec<u8>],
    parent: Slot,
    reverse: bool,
) -> (SlotMeta, bool) {
    let stream = dir.join(format!("{name}.bin"));
    write_stream(&stream, slot, parent, sets, reverse);
    let (ours, theirs) = (
        dir.join(format!("{name}-bstore")),
        dir.join(format!("{name}-agave")),
    );
    bstore_ingest(&ours, &[&stream], None);
    agave_insert(&theirs, &stream, "all");
    let differences = column_differences(&ours, &theirs, slot.0);
    assert!(differences.is_empty(), "{name}: {}", differences.join("\n"));
    let agave = meta_and_dead(&theirs, slot);
    assert_eq!(
        parent_facts(&meta_and_dead(&ours, slot)),
        parent_facts(&agave),
        "{name}: parent info and dead mark"
    );
    agave
}

#[test]
#[ignore = "needs the Agave tool; run scripts/interop-agave.sh"]
fn block_markers_set_the_same_parent_info_on_both_writers() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (sets, shred_parent) = vector_slot();
    assert!(sets.len() > 5, "the vector slot has its markers");
    // Slot 44 opens a 4-slot leader window (an UpdateParent is valid there), 42 does not.
    let window_start = Slot(44);

    for (name, reverse) in [("in-order", false), ("reverse", true)] {
        let (meta, dead) =
            both_writers(dir.path(), name, window_start, &sets, shred_parent, reverse);
        assert!(!dead, "{name}");
        assert!(meta.is_full(), "{name}");
        assert!(
            meta.replay_fec_set_index > 0 && meta.parent_slot != Some(shred_parent),
            "{name}: the UpdateParent took effect ({meta:?})"
        );
    }

    let is_update_parent = |set: &[u8]| {
        BlockMarker::parse(set)
            .ok()
            .is_some_and(|m| m.as_update_parent().is_some())
    };
    let header_only: Vec<Vec<u8>> = sets
        .iter()
        .filter(|s| !is_update_parent(s))
        .cloned()
        .collect();
    assert_eq!(
        header_only.len() + 1,
        sets.len(),
        "one UpdateParent dropped"
    );
    let (meta, dead) = both_writers(
        dir.path(),
        "header-only",
        window_start,
        &header_only,
        shred_parent,
        false,
    );
    assert!(!dead);
    assert_eq!(meta.replay_fec_set_index, 0);
    assert_ne!(
        meta.parent_block_id,
        bstore_ledger::Hash::default(),
        "from the header"
    );

    let entries_only: Vec<Vec<u8>> = sets
        .iter()
        .filter(|s| !bstore_ledger::block::is_block_marker(s))
        .cloned()
        .collect();
    let (meta, dead) = both_writers(
        dir.path(),
        "no-markers",
        window_start,
        &entries_only,
        shred_parent,
        false,
    );
    assert!(!dead);
    assert_eq!(meta.parent_slot, Some(shred_parent));
    assert_eq!(meta.parent_block_id, bstore_ledger::Hash::default());

    let (_, dead) = both_writers(
        dir.path(),
        "not-window-start",
        Slot(42),
        &sets,
        shred_parent,
        false,
    );
    assert!(
        dead,
        "an UpdateParent outside a window's first slot kills the slot"
    );
}
