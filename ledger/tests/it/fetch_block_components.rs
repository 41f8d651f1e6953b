//! Scenario: an Alpenglow slot (Agave 4.2.2's own serialized components,
//! `testdata/agave4/block_components.json`, and 4.4.0's, `testdata/agave44/`, each shredded
//! by bstore's shredder) in the in-memory store. The entries API drops the markers as Agave's `get_slot_entries` does; the
//! components API returns every data set in order, typed, with the UpdateParent's new
//! parent; the view fetch carries each marker beside an empty entry set. An aborted block
//! and a damaged marker are errors naming slot and range. Every real slot of the test data
//! reads as entry batches only, with the same entries as before (no marker false positive).

use crate::common;

use std::collections::BTreeSet;
use std::path::Path;

use bstore_ledger::block::{BlockMarker, MarkerDefect, UpdateParent, is_block_marker};
use bstore_ledger::entry::{Entry, decode_entries};
use bstore_ledger::fetch::{
    AllowDead, Component, ComponentFetch, DataDefect, EntryFetch, FetchBuffer, ViewFetch,
    last_entry_hash,
};
use bstore_ledger::shred::ShredRef;
use bstore_ledger::shred::{BatchOptions, LastInSlot, Resign, Shredder};
use bstore_ledger::store::{Blockstore, MemEngine};
use bstore_ledger::{Hash, LedgerError, Slot};
use ed25519_dalek::SigningKey;
use serde_json::Value;

/// The vectors written by Agave 4.2.2 (`interop/agave4-block`).
pub(crate) fn vectors() -> Value {
    vectors_at("../testdata/agave4/block_components.json")
}

/// The same recipe written by Agave 4.4.0 (`interop/agave44-block`).
fn vectors_44() -> Value {
    vectors_at("../testdata/agave44/block_components.json")
}

fn vectors_at(file: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("vector file is JSON")
}

pub(crate) fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex digit"))
        .collect()
}

fn hash_of(v: &Value) -> Hash {
    Hash(
        unhex(v.as_str().expect("hex"))
            .try_into()
            .expect("32 bytes"),
    )
}

/// The 4.2.2 vector slot's data sets, in order.
fn data_sets() -> Vec<Vec<u8>> {
    data_sets_of(&vectors())
}

fn data_sets_of(v: &Value) -> Vec<Vec<u8>> {
    v["slot"]["data_sets"]
        .as_array()
        .expect("data sets")
        .iter()
        .map(|d| unhex(d["hex"].as_str().expect("hex")))
        .collect()
}

/// Shreds `sets` as one slot (one data set per batch, the last one last-in-slot), child of
/// the vector's parent (41, the parent its block header names: insert checks the two agree)
/// and inserts them; returns each set's shred range.
fn store_slot(
    store: &Blockstore<MemEngine>,
    slot: u64,
    sets: &[Vec<u8>],
) -> Vec<std::ops::Range<u32>> {
    let key = SigningKey::from_bytes(&[42; 32]);
    let mut shredder = Shredder::new(Slot(slot), Slot(41), 7, key).expect("shredder");
    let mut ranges = Vec::new();
    for (i, set) in sets.iter().enumerate() {
        let start = shredder.next_index().0;
        let last = if i + 1 == sets.len() {
            LastInSlot::Yes
        } else {
            LastInSlot::No
        };
        let opts = BatchOptions {
            last_in_slot: last,
            reference_tick: 0,
            resign_last: Resign::No,
        };
        let shreds = shredder.shred_batch(set, opts).expect("shreds");
        let out = store.insert_shreds(&shreds).expect("insert");
        assert!(out.rejected.is_empty(), "{:?}", out.rejected);
        ranges.push(start..shredder.next_index().0);
    }
    ranges
}

fn batch_entries(sets: &[Vec<u8>]) -> Vec<Entry> {
    sets.iter()
        .filter(|s| !is_block_marker(s))
        .flat_map(|s| decode_entries(s).expect("entry batch"))
        .collect()
}

#[test]
fn alpenglow_slot_reads_as_components_and_entries() {
    for v in [vectors(), vectors_44()] {
        slot_reads_as_components_and_entries(&v);
    }
}

fn slot_reads_as_components_and_entries(v: &Value) {
    let sets = data_sets_of(v);
    let store = Blockstore::in_memory();
    // 44, not the vector's 42: insert accepts an UpdateParent only in the first slot of a
    // leader window, as Agave 4.4 does.
    let ranges = store_slot(&store, 44, &sets);
    let slot = Slot(44);

    let got = store
        .get_slot_components_with_shred_info(slot, 0, AllowDead::No)
        .expect("components");
    assert!(got.is_full);
    assert_eq!(
        got.num_shreds,
        u64::from(ranges.last().expect("ranges").end)
    );
    assert_eq!(got.components.len(), sets.len());
    for ((c, set), range) in got.components.iter().zip(&sets).zip(&ranges) {
        assert_eq!(&c.range, range);
        match &c.component {
            Component::Marker(m) => assert_eq!(m, &BlockMarker::parse(set).expect("marker")),
            Component::EntryBatch(e) => assert_eq!(e, &decode_entries(set).expect("batch")),
        }
    }
    let (range, update) = got.update_parent().expect("the slot has an UpdateParent");
    assert_eq!(range, &ranges[4]);
    assert_eq!(
        update,
        &UpdateParent {
            new_parent_slot: Slot(40),
            new_parent_block_id: Hash([0x22; 32]),
        }
    );
    assert_eq!(
        got.last_entry_hash(),
        Some(hash_of(&v["slot"]["blockhash"]))
    );

    // The entries API: markers dropped, nothing else changed.
    let entries = store
        .get_slot_entries_with_shred_info(slot, 0, AllowDead::No)
        .expect("entries");
    assert_eq!(entries.entries, batch_entries(&sets));
    assert_eq!(entries.entries.len(), 6);
    assert_eq!(entries.markers, 4);
    assert_eq!(entries.num_shreds, got.num_shreds);
    assert_eq!(got.entries().cloned().collect::<Vec<_>>(), entries.entries);
    // A marker-only data block has no entries.
    assert!(
        store
            .get_entries_in_data_block(slot, ranges[0].clone())
            .expect("header")
            .is_empty()
    );

    // Views: each marker beside an empty entry set, in place.
    let mut buf = FetchBuffer::new();
    let views = store
        .fetch_slot_views(slot, 0, AllowDead::No, &mut buf)
        .expect("views");
    let kinds: Vec<Option<&str>> = views
        .sets
        .iter()
        .map(|s| s.marker.as_ref().map(|m| m.kind().name()))
        .collect();
    assert_eq!(
        kinds,
        [
            Some("header"),
            Some("genesis_certificate"),
            None,
            None,
            Some("update_parent"),
            None,
            Some("footer"),
            None
        ]
    );
    assert!(
        views
            .sets
            .iter()
            .all(|s| s.marker.is_none() || s.entries.is_empty())
    );
    assert_eq!(views.num_entries(), 6);
    drop(views);
    // The blockhash skips markers.
    assert_eq!(
        last_entry_hash(&store, slot, &mut buf).expect("hash"),
        Some(hash_of(&v["slot"]["blockhash"]))
    );

    // From the UpdateParent's first shred on (where Agave 4.4 replays an UpdateParent slot).
    let tail = store
        .get_slot_components_with_shred_info(slot, ranges[4].start, AllowDead::No)
        .expect("suffix");
    assert_eq!(tail.components.len(), 4);
    assert!(tail.update_parent().is_some_and(|(r, _)| r == &ranges[4]));
}

#[test]
fn aborted_block_is_block_aborted_everywhere() {
    let sets = data_sets();
    let aborted = unhex(vectors()["aborted"]["hex"].as_str().expect("hex"));
    let store = Blockstore::in_memory();
    let ranges = store_slot(&store, 43, &[sets[0].clone(), sets[2].clone(), aborted]);
    let slot = Slot(43);
    let want = |e: &LedgerError| {
        matches!(e, LedgerError::BlockAborted { slot: Slot(43), start, end }
            if *start == ranges[2].start && *end == ranges[2].end)
    };
    let e = store.get_slot_entries(slot, 0).expect_err("aborted");
    assert!(want(&e), "{e}");
    assert_eq!(e.kind(), "block_aborted");
    assert!(
        e.to_string()
            .starts_with("Block in slot 43 was aborted as leader sent an empty entry batch")
    );
    let e = store
        .get_slot_components_with_shred_info(slot, 0, AllowDead::No)
        .expect_err("aborted");
    assert!(want(&e), "{e}");
    let mut buf = FetchBuffer::new();
    let e = store
        .fetch_slot_views(slot, 0, AllowDead::No, &mut buf)
        .expect_err("aborted");
    assert!(want(&e), "{e}");
    // The batch before the abort still reads on its own.
    assert_eq!(
        store
            .get_entries_in_data_block(slot, ranges[1].clone())
            .expect("batch")
            .len(),
        2
    );
}

#[test]
fn damaged_marker_is_invalid_shred_data_naming_the_marker() {
    let sets = data_sets();
    let mut bad = sets[0].clone();
    bad[8] = 9; // marker version 9
    let store = Blockstore::in_memory();
    let ranges = store_slot(&store, 44, &[bad, sets[2].clone()]);
    let e = store.get_slot_entries(Slot(44), 0).expect_err("bad marker");
    match &e {
        LedgerError::InvalidShredData {
            slot: Slot(44),
            start,
            end,
            cause:
                DataDefect::Marker {
                    offset: 8,
                    defect: MarkerDefect::UnknownVersion(9),
                },
        } => assert_eq!(*start..*end, ranges[0]),
        other => panic!("{other}"),
    }
    assert_eq!(e.cause_kind(), "marker_unknown_version");
}

/// Every data-shred file of the real test data: each slot reads as entry batches only, and
/// the components' entries are the entries API's.
#[test]
fn real_testdata_has_no_marker_false_positives() {
    let files = [
        "sig-testnet-417955322/shreds.bin",
        "sig-v2-slot410010000-fec0/shreds.bin",
        "radiance-mainnet-102815960/data_shreds.bin",
        "sig-mainnet-shreds/mainnet_shreds.bin",
        "sig-agave-generated/agave.blockstore.test_get_rooted_block.shreds.bin",
        "sig-agave-generated/agave.blockstore.bench_write_small.shreds.bin",
    ];
    let archives = [
        "firedancer/localnet-shreds/localnet-slot0-shreds.ar",
        "firedancer/localnet-shreds/localnet-v14-slot0-shreds.ar",
        "firedancer/localnet-shreds/localnet-slot50-shreds.ar",
        "firedancer/localnet-shreds/localnet-v14-slot1-shreds.ar",
    ];
    let inputs = files
        .iter()
        .map(|f| (*f, common::read_records(f)))
        .chain(archives.iter().map(|f| (*f, common::read_ar(f))));
    let mut data_sets = 0;
    for (name, packets) in inputs {
        let store = Blockstore::in_memory();
        store
            .insert_shreds_with(&packets, common::insert_options(name))
            .expect("insert");
        let slots: BTreeSet<Slot> = packets
            .iter()
            .filter_map(|p| ShredRef::parse(p).ok().map(|s| s.slot()))
            .collect();
        for slot in slots {
            let components = store
                .get_slot_components_with_shred_info(slot, 0, AllowDead::Yes)
                .unwrap_or_else(|e| panic!("{name} slot {slot}: {e}"));
            assert!(
                components.markers().next().is_none(),
                "{name} slot {slot}: a marker in real data"
            );
            let entries = store
                .get_slot_entries_with_shred_info(slot, 0, AllowDead::Yes)
                .expect("entries");
            assert_eq!(
                components.entries().cloned().collect::<Vec<_>>(),
                entries.entries
            );
            assert_eq!(entries.markers, 0);
            data_sets += components.components.len();
        }
    }
    assert!(data_sets > 20, "{data_sets} data sets checked");
}
