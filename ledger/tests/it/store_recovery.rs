//! Scenario: insert rebuilds lost data shreds from coding shreds, on real sets: the mainnet
//! set `recovery_slot284737905_fec483`, Firedancer's chained resigned fixture, and a full
//! 34:34 set made by Agave's shredder with any ≤ 34 of its shreds dropped. Recovered shreds
//! are stored byte-identical to the originals, their data sets are reported, and Agave's
//! `index` / `erasure_meta` / `merkle_root_meta` rows describe what is stored. A corrupted
//! coding shred never yields a data shred.

use crate::common;

use std::collections::BTreeSet;

use bstore_ledger::fetch::EntryFetch;
use bstore_ledger::shred::ShredRef;
use bstore_ledger::store::columns::{ErasureMetaColumn, Index, MerkleRootMetaColumn};
use bstore_ledger::store::{Blockstore, Column, InsertOptions, KvEngine, LeaderCheck, MemEngine};
use bstore_ledger::{Pubkey, ShredIndex, Slot};
use proptest::prelude::*;

const MAINNET: &str = "sig-mainnet-shreds/recovery_slot284737905_fec483";
const FD_RESIGNED: &str =
    "firedancer/fec-sets/chained_resigned-FT9QgTVo375TgDAQusTgpsfXqTosCJLfrBpoVdcbnhtS.ar";
const AGAVE_SET: &str = "sig-agave-generated/recovery_test_shreds_34_data_34_code.bin";

fn row<C: Column, E: KvEngine>(store: &Blockstore<E>, key: C::Key) -> Option<C::Value> {
    store.row::<C>(key).expect("row reads and decodes")
}

#[test]
fn mainnet_set_is_recovered_on_insert() {
    let input = common::read_records(&format!("{MAINNET}/input_shreds.bin"));
    let expected = common::read_records(&format!("{MAINNET}/expected_recovered_shreds.bin"));
    let store = Blockstore::in_memory();
    // A 2024 mainnet set of unchained Merkle shreds: older than Agave 4.x's shape rules.
    let out = store
        .insert_shreds_with(&input, common::legacy_shapes())
        .expect("insert");
    assert!(out.rejected.is_empty(), "{:?}", out.rejected);
    assert!(out.recovery_failed.is_empty(), "{:?}", out.recovery_failed);
    assert_eq!(out.recovered, 5, "5 of the 7 data shreds were missing");

    let slot = Slot(284_737_905);
    for payload in expected
        .iter()
        .filter(|p| ShredRef::parse(p).is_ok_and(|s| s.is_data()))
    {
        let s = ShredRef::parse(payload).expect("parses");
        let stored = store.data_shred(slot, s.index()).expect("read");
        assert_eq!(stored.as_deref(), Some(s.payload()), "shred {}", s.index());
    }
    // 482 (the end of the data set before) is not in the fixture, so the block's start is
    // not known from the store's rows and no data set is reported complete; the block itself
    // fetches by range.
    let batch = std::fs::read(common::path(&format!(
        "{MAINNET}/batches/batch_00483_00489.bin"
    )))
    .expect("batch file");
    let entries = store
        .get_entries_in_data_block(slot, 483..490)
        .expect("recovered block fetches");
    assert_eq!(bstore_ledger::entry::encode_entries(&entries), batch);

    // Agave's rows: the set's shape from its first coding shred, its root, and presence.
    let erasure = row::<ErasureMetaColumn, _>(&store, (slot, 483)).expect("erasure_meta");
    assert_eq!((erasure.num_data, erasure.num_coding), (7, 21));
    let merkle = row::<MerkleRootMetaColumn, _>(&store, (slot, 483)).expect("merkle_root_meta");
    let first = ShredRef::parse(&input[0]).expect("parses");
    assert_eq!(merkle.first_received_shred_index, first.index().0);
    assert_eq!(
        merkle.merkle_root,
        Some(bstore_ledger::shred::merkle_root(&first).expect("root"))
    );
    let index = row::<Index, _>(&store, slot).expect("index");
    assert_eq!(
        index.data.iter().collect::<Vec<_>>(),
        (483..490).collect::<Vec<_>>()
    );
    let code: BTreeSet<u32> = input
        .iter()
        .filter_map(|p| ShredRef::parse(p).ok())
        .filter(|s| !s.is_data())
        .map(|s| s.index().0)
        .collect();
    assert_eq!(index.code.iter().collect::<BTreeSet<_>>(), code);
}

#[test]
fn firedancer_chained_resigned_slot_completes_on_insert() {
    let exp = common::json("firedancer/expected.json");
    let item =
        &exp["items"]["fec-sets/chained_resigned-FT9QgTVo375TgDAQusTgpsfXqTosCJLfrBpoVdcbnhtS.ar"];
    let leader: Pubkey = item["shreds"]["leader"]
        .as_str()
        .expect("leader")
        .parse()
        .expect("base58 key");
    let packets = common::read_ar(FD_RESIGNED);
    let store = Blockstore::in_memory();
    let options = InsertOptions {
        leader: LeaderCheck::Verify(leader),
        ..common::insert_options(FD_RESIGNED)
    };
    let out = store.insert_shreds_with(&packets, options).expect("insert");
    assert!(out.recovery_failed.is_empty(), "{:?}", out.recovery_failed);
    assert!(out.duplicate_slots.is_empty(), "{:?}", out.duplicate_slots);
    let missing = item["shreds"]["missing_data_indices"]
        .as_array()
        .expect("missing")
        .len();
    // 479, the last data shred of the resigned set, was never received either.
    assert_eq!(out.recovered, missing + 1);

    let want = &item["deshred_after_reed_solomon_recovery"];
    let slot = ShredRef::parse(&packets[0]).expect("parses").slot();
    let (mut entries, mut txs) = (0u64, 0u64);
    for batch in want["batches"].as_array().expect("batches") {
        let s = batch["start_index"].as_u64().expect("start") as u32;
        let e = batch["end_index"].as_u64().expect("end") as u32 + 1;
        let got = store
            .get_entries_in_data_block(slot, s..e)
            .expect("block fetches after recovery");
        assert_eq!(got.len() as u64, batch["entry_count"].as_u64().expect("n"));
        entries += got.len() as u64;
        txs += got.iter().map(|e| e.transactions.len() as u64).sum::<u64>();
    }
    assert_eq!(entries, want["totals"]["entries"].as_u64().expect("e"));
    assert_eq!(txs, want["totals"]["txs"].as_u64().expect("t"));
}

#[test]
fn a_corrupted_coding_shred_never_yields_a_data_shred() {
    let input = common::read_records(&format!("{MAINNET}/input_shreds.bin"));
    let expected = common::read_records(&format!("{MAINNET}/expected_recovered_shreds.bin"));
    let originals: std::collections::BTreeMap<u32, Vec<u8>> = input
        .iter()
        .chain(&expected)
        .filter_map(|p| ShredRef::parse(p).ok())
        .filter(|s| s.is_data())
        .map(|s| (s.index().0, s.payload().to_vec()))
        .collect();
    let code_at = input
        .iter()
        .position(|p| ShredRef::parse(p).is_ok_and(|s| !s.is_data()))
        .expect("a code shred");
    let slot = Slot(284_737_905);
    // Bytes across the erasure shard of one coding shred, with the corrupt shred inserted
    // after the genuine ones (it is refused: its proof no longer reaches the set's root, and
    // the genuine shreds still rebuild the set) and first (it defines the root, the genuine
    // shreds are refused, and one shred is too few to rebuild anything).
    for pos in (89..1228).step_by(97) {
        for corrupt_first in [false, true] {
            let mut bad = input.clone();
            bad[code_at][pos] ^= 0x5A;
            let shred = bad.remove(code_at);
            match corrupt_first {
                true => bad.insert(0, shred),
                false => bad.push(shred),
            }
            let store = Blockstore::in_memory();
            let out = store
                .insert_shreds_with(&bad, common::legacy_shapes())
                .expect("insert");
            assert!(!out.rejected.is_empty(), "byte {pos}: nothing refused");
            for i in 483..490u32 {
                if let Some(stored) = store.data_shred(slot, ShredIndex(i)).expect("read") {
                    assert_eq!(Some(&stored), originals.get(&i), "byte {pos}: shred {i}");
                }
            }
            let want = if corrupt_first { 0 } else { 5 };
            assert_eq!(out.recovered, want, "byte {pos}, first {corrupt_first}");
        }
    }
}

/// Inserts `keep` of the Agave-made set in `order`, in `calls` calls.
fn insert_subset(packets: &[Vec<u8>], keep: &[usize], calls: usize) -> Blockstore<MemEngine> {
    let store = Blockstore::in_memory();
    let per_call = keep.len().div_ceil(calls.max(1)).max(1);
    for chunk in keep.chunks(per_call) {
        // A 34:34 set made by an older Agave shredder: not a 4.x shape.
        let out = store
            .insert_shreds_with(chunk.iter().map(|&i| &packets[i]), common::legacy_shapes())
            .expect("insert");
        assert!(out.rejected.is_empty(), "{:?}", out.rejected);
        assert!(out.recovery_failed.is_empty(), "{:?}", out.recovery_failed);
    }
    store
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Any ≤ 34 of the 68 shreds dropped, the rest inserted in any order and any number of
    /// calls: every data shred is stored byte-identical, and the entries equal the full set's.
    #[test]
    fn agave_set_with_any_34_shreds_dropped_stores_every_data_shred(
        order in Just((0..68usize).collect::<Vec<_>>()).prop_shuffle(),
        dropped in 0usize..=34,
        calls in 1usize..4,
    ) {
        let packets = common::read_records(AGAVE_SET);
        prop_assert_eq!(packets.len(), 68);
        let keep = &order[dropped..];
        let store = insert_subset(&packets, keep, calls);
        let full = insert_subset(&packets, &order, 1);
        let data: Vec<ShredRef<'_>> = packets
            .iter()
            .filter_map(|p| ShredRef::parse(p).ok())
            .filter(|s| s.is_data())
            .collect();
        prop_assert_eq!(data.len(), 34);
        for s in &data {
            let stored = store.data_shred(s.slot(), s.index()).expect("read");
            prop_assert_eq!(stored.as_deref(), Some(s.payload()), "shred {}", s.index());
        }
        let slot = data[0].slot();
        let got = store.get_slot_entries_with_shred_info(slot, 0, bstore_ledger::fetch::AllowDead::No);
        let want = full.get_slot_entries_with_shred_info(slot, 0, bstore_ledger::fetch::AllowDead::No);
        prop_assert_eq!(format!("{got:?}"), format!("{want:?}"));
    }
}
