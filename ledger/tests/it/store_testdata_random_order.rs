//! Every data-shred file of the test data, inserted in a seeded random order in random-size
//! calls, gives the slot metas the files' expected.json describes, and the data sets the
//! calls report, unioned, are exactly the complete data sets of the file. The expectations
//! describe the file's data shreds, so they are inserted first; the file's coding shreds
//! then go in (recovering what they can, checked by `store_recovery.rs`) and may only add.
#![cfg(feature = "storage")]

use crate::common;
use crate::store_support;

use std::collections::BTreeSet;

use bstore_ledger::Slot;
use bstore_ledger::store::{CompletedDataSet, SlotMeta};
use serde_json::Value;
use store_support::{SlotExpectation, complete_batches, open_rw, shuffled_chunks};

/// Reads the UDP payloads of a pcap capture (Ethernet + IPv4 + UDP headers: 42 bytes).
fn read_pcap(rel: &str) -> Vec<Vec<u8>> {
    let bytes = std::fs::read(common::path(rel)).expect("readable pcap");
    assert_eq!(&bytes[..4], &[0xd4, 0xc3, 0xb2, 0xa1], "little-endian pcap");
    let mut out = Vec::new();
    let mut pos = 24;
    while pos + 16 <= bytes.len() {
        let len = u32::from_le_bytes(bytes[pos + 8..pos + 12].try_into().expect("4 bytes"));
        let start = pos + 16;
        let end = start + len as usize;
        out.push(bytes[start + 42..end].to_vec());
        pos = end;
    }
    out
}

/// Inserts `packets` into a fresh store and checks each slot against its expectation.
/// `batches` are the complete data sets the folder's "deshred" object lists, if any.
fn check(name: &str, packets: &[Vec<u8>], expectations: &[(&Value, Option<&Value>)], seed: u64) {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = open_rw(dir.path());
    let mut reported = Vec::new();
    let (mut inserted, mut duplicates) = (0, 0);
    let mut full = Vec::new();
    let is_data = |p: &Vec<u8>| bstore_ledger::shred::ShredRef::parse(p).is_ok_and(|s| s.is_data());
    let (data, code): (Vec<Vec<u8>>, Vec<Vec<u8>>) = packets.iter().cloned().partition(is_data);
    let packets = &data;
    for chunk in shuffled_chunks(packets, seed, 40) {
        let out = store
            .insert_shreds_with(&chunk, common::insert_options(name))
            .expect("insert");
        assert!(
            out.rejected.is_empty(),
            "{name}: rejected {:?}",
            out.rejected
        );
        inserted += out.inserted;
        duplicates += out.duplicates;
        reported.extend(out.completed_data_sets);
        full.extend(out.slots_full);
    }
    assert_eq!(inserted + duplicates, packets.len(), "{name}");
    let reported_set: BTreeSet<CompletedDataSet> = reported.iter().copied().collect();
    assert_eq!(
        reported_set.len(),
        reported.len(),
        "{name}: a data set reported twice"
    );
    let mut want_dups = 0;
    for (shreds, deshred) in expectations {
        let want = SlotExpectation::from_json(shreds);
        want_dups += want.unique_data;
        let meta = store
            .meta(want.slot)
            .expect("read meta")
            .expect("meta stored");
        want.check_meta(&meta, name);
        let got: Vec<(u32, u32)> = reported_set
            .iter()
            .filter(|s| s.slot == want.slot)
            .map(|s| (s.start, s.end))
            .collect();
        assert_eq!(got, want.complete_sets, "{name}: completed data sets");
        if let Some(deshred) = deshred {
            assert_eq!(got, complete_batches(deshred), "{name}: deshred batches");
        }
        assert_eq!(
            full.contains(&want.slot),
            meta.is_full(),
            "{name}: slots_full"
        );
        if want.slot.0 == 0 {
            assert_eq!(
                meta.is_connected(),
                meta.is_full(),
                "{name}: slot 0 connected"
            );
        }
    }
    assert_eq!(duplicates, packets.len() - want_dups, "{name}: duplicates");
    add_code(&store, name, &code, expectations, seed);
}

/// Inserts the file's coding shreds after its data shreds: nothing refused, no recovery
/// failure, no duplicate proof, and every slot's meta only grows.
fn add_code(
    store: &bstore_ledger::store::Blockstore,
    name: &str,
    code: &[Vec<u8>],
    expectations: &[(&Value, Option<&Value>)],
    seed: u64,
) {
    for chunk in shuffled_chunks(code, seed, 40) {
        let out = store
            .insert_shreds_with(&chunk, common::insert_options(name))
            .expect("insert");
        assert!(
            out.rejected.is_empty(),
            "{name}: code rejected {:?}",
            out.rejected
        );
        assert!(
            out.recovery_failed.is_empty(),
            "{name}: {:?}",
            out.recovery_failed
        );
        assert!(
            out.duplicate_slots.is_empty(),
            "{name}: {:?}",
            out.duplicate_slots
        );
    }
    for (shreds, _) in expectations {
        let want = SlotExpectation::from_json(shreds);
        let meta = store.meta(want.slot).expect("read").expect("meta");
        assert!(
            meta.consumed >= want.consumed && meta.received >= want.received,
            "{name}"
        );
    }
}

#[test]
fn sig_testnet_slot() {
    let e = common::json("sig-testnet-417955322/expected.json");
    let packets = common::read_records("sig-testnet-417955322/shreds.bin");
    check(
        "testnet",
        &packets,
        &[(&e["shreds"], Some(&e["deshred"]))],
        1,
    );
}

#[test]
fn sig_v2_fec_set_with_code() {
    let e = common::json("sig-v2-slot410010000-fec0/expected.json");
    let packets = common::read_records("sig-v2-slot410010000-fec0/shreds.bin");
    check(
        "v2 fec0",
        &packets,
        &[(&e["shreds"], Some(&e["deshred"]))],
        2,
    );
    assert_eq!(
        e["upstream_asserted"]["data_complete_indices"],
        e["shreds"]["data_complete_indices"]
    );
}

#[test]
fn agave_generated_single_slot_files() {
    let e = common::json("sig-agave-generated/expected.json");
    for (i, file) in [
        "agave.blockstore.bench_write_small.shreds.bin",
        "merkle_proof_test_shreds_34_data_34_code.bin",
        "recovery_test_shreds_34_data_34_code.bin",
    ]
    .into_iter()
    .enumerate()
    {
        let f = &e["files"][file];
        let packets = common::read_records(&format!("sig-agave-generated/{file}"));
        check(
            file,
            &packets,
            &[(&f["shreds"], Some(&f["deshred"]))],
            10 + i as u64,
        );
    }
}

/// Slots 10, 11, 12 chain: each is the next slot of the one before, 9 is a placeholder.
#[test]
fn agave_generated_chain_of_three_slots() {
    let e = common::json("sig-agave-generated/expected.json");
    let files = [
        "agave.blockstore.test_get_rooted_block.shreds.bin",
        "agave.blockstore.test_get_rooted_block.more_shreds.bin",
        "agave.blockstore.test_get_rooted_block.unrooted_shreds.bin",
    ];
    let mut packets = Vec::new();
    let mut expectations = Vec::new();
    for file in files {
        packets.extend(common::read_records(&format!("sig-agave-generated/{file}")));
        let f = &e["files"][file];
        expectations.push((&f["shreds"], Some(&f["deshred"])));
    }
    check("rooted block slots", &packets, &expectations, 20);

    // Chaining, checked on a second store filled in one call.
    let dir = tempfile::tempdir().expect("tempdir");
    let store = open_rw(dir.path());
    store
        .insert_shreds_with(&packets, common::legacy_shapes())
        .expect("insert");
    let slots: Vec<Slot> = expectations
        .iter()
        .map(|(s, _)| SlotExpectation::from_json(s).slot)
        .collect();
    for pair in slots.windows(2) {
        let parent = store.meta(pair[0]).expect("read").expect("meta");
        assert_eq!(parent.next_slots, vec![pair[1]]);
    }
    let first = SlotExpectation::from_json(expectations[0].0);
    let placeholder: SlotMeta = store
        .meta(first.parent)
        .expect("read")
        .expect("placeholder");
    assert!(placeholder.is_orphan());
    assert_eq!(placeholder.next_slots, vec![first.slot]);
    assert_eq!(placeholder.received, 0);
    // The chain hangs off an orphan, so nothing is connected.
    for slot in slots {
        assert!(
            !store
                .meta(slot)
                .expect("read")
                .expect("meta")
                .is_connected()
        );
    }
}

#[test]
fn firedancer_localnet_and_fec_sets() {
    let e = common::json("firedancer/expected.json");
    let items = &e["items"];
    let cases = [
        ("localnet-shreds/localnet-slot0-shreds.ar", "deshred"),
        ("localnet-shreds/localnet-v14-slot0-shreds.ar", "deshred"),
        ("localnet-shreds/localnet-v14-slot1-shreds.ar", "deshred"),
        ("localnet-shreds/localnet-slot50-shreds.ar", "deshred"),
        (
            "fec-sets/chained_resigned-FT9QgTVo375TgDAQusTgpsfXqTosCJLfrBpoVdcbnhtS.ar",
            "deshred_without_recovery",
        ),
        (
            "fec-sets/chained-5XDmMEZpXM2GBXNjhgRCti4qLGeFQvx4RnzWeRgfupYk.ar",
            "deshred_without_recovery",
        ),
        (
            "fec-sets/resigned-AmKFVSAQ7DyhiW94pWfDexYDCSn8GB6SG2zbQqLhuufU.ar",
            "deshred_without_recovery",
        ),
    ];
    for (i, (file, deshred)) in cases.into_iter().enumerate() {
        let item = &items[file];
        let packets = common::read_ar(&format!("firedancer/{file}"));
        check(
            file,
            &packets,
            &[(&item["shreds"], Some(&item[deshred]))],
            30 + i as u64,
        );
    }
}

#[test]
fn firedancer_demo_pcap() {
    let e = common::json("firedancer/expected.json");
    let item = &e["items"]["demo-shreds"];
    let packets = read_pcap("firedancer/demo-shreds/demo-shreds.pcap");
    assert_eq!(
        packets.len() as u64,
        item["shreds"]["count"].as_u64().expect("count")
    );
    check(
        "demo pcap",
        &packets,
        &[(&item["shreds"], Some(&item["deshred"]))],
        40,
    );
}
