//! Scenario: real shreds from other implementations deshred into exactly the data sets,
//! bytes and entry counts their sources assert (../shared/testdata expected.json files).

use crate::common;

use bstore_ledger::entry::{EntriesView, decode_entries};
use bstore_ledger::fetch::group_by_slot;
use bstore_ledger::shred::ShredRef;
use serde_json::Value;

/// Deshreds `packets` (all of one slot) and checks the complete data sets against the
/// `deshred` object of an expected.json: ranges, byte lengths, batch files (when named,
/// relative to `dir`), entry/tick/tx/signature/hash totals and the last entry hash.
fn check(packets: &[Vec<u8>], expected: &Value, dir: &str) -> Vec<Vec<u8>> {
    let shreds: Vec<ShredRef<'_>> = packets
        .iter()
        .map(|p| ShredRef::parse(p).expect("real shred parses"))
        .collect();
    let slots = group_by_slot(shreds);
    assert_eq!(slots.len(), 1, "one slot per file");
    let slot = slots.values().next().expect("one slot");

    let want: Vec<&Value> = expected["batches"]
        .as_array()
        .expect("batches")
        .iter()
        .filter(|b| b["complete"].as_bool() == Some(true))
        .collect();
    let got = slot.data_sets();
    let want_ranges: Vec<_> = want
        .iter()
        .map(|b| {
            let s = b["start_index"].as_u64().expect("start") as u32;
            let e = b["end_index"].as_u64().expect("end") as u32;
            s..e + 1
        })
        .collect();
    assert_eq!(got, want_ranges, "complete data sets");

    let (mut entries, mut ticks, mut txs, mut sigs, mut hashes) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut last_hash = None;
    let mut out = Vec::new();
    for (range, batch) in got.iter().zip(&want) {
        let bytes = slot.deshred(range).expect("complete set deshreds");
        assert_eq!(
            bytes.len() as u64,
            batch["bytes"].as_u64().expect("bytes"),
            "{range:?}"
        );
        if let Some(file) = batch["file"].as_str() {
            let on_disk =
                std::fs::read(common::path(&format!("{dir}/{file}"))).expect("batch file");
            assert_eq!(bytes, on_disk, "deshred of {range:?} equals {file}");
        }
        let owned = decode_entries(&bytes).expect("decodes");
        let view = EntriesView::parse(&bytes).expect("view parses");
        assert_eq!(
            owned.len() as u64,
            batch["entry_count"].as_u64().expect("entry_count")
        );
        assert_eq!(view.len(), owned.len());
        for e in &owned {
            entries += 1;
            hashes += e.num_hashes;
            if e.transactions.is_empty() {
                ticks += 1;
            }
            txs += e.transactions.len() as u64;
            sigs += e
                .transactions
                .iter()
                .map(|t| t.signatures.len() as u64)
                .sum::<u64>();
            last_hash = Some(e.hash.to_string());
        }
        out.push(bytes);
    }
    let totals = &expected["totals"];
    assert_eq!(entries, totals["entries"].as_u64().expect("entries"));
    assert_eq!(ticks, totals["ticks"].as_u64().expect("ticks"));
    assert_eq!(txs, totals["txs"].as_u64().expect("txs"));
    assert_eq!(sigs, totals["signatures"].as_u64().expect("signatures"));
    assert_eq!(hashes, totals["num_hashes"].as_u64().expect("num_hashes"));
    if let Some(h) = totals["last_entry_hash"].as_str() {
        assert_eq!(last_hash.as_deref(), Some(h), "last entry hash");
    }
    out
}

#[test]
fn testnet_slot_417955322_gives_nine_data_sets() {
    let exp = common::json("sig-testnet-417955322/expected.json");
    let packets = common::read_records("sig-testnet-417955322/shreds.bin");
    let sets = check(&packets, &exp["deshred"], "sig-testnet-417955322");
    assert_eq!(sets.len(), 9);
}

#[test]
fn v2_fec_set_is_one_data_set_of_a_slot_not_full() {
    let exp = common::json("sig-v2-slot410010000-fec0/expected.json");
    let packets = common::read_records("sig-v2-slot410010000-fec0/shreds.bin");
    check(&packets, &exp["deshred"], "sig-v2-slot410010000-fec0");
    let shreds: Vec<_> = packets
        .iter()
        .map(|p| ShredRef::parse(p).expect("parses"))
        .collect();
    let slots = group_by_slot(shreds);
    let slot = slots.values().next().expect("slot");
    assert!(!slot.is_full());
    assert_eq!(slot.last_index(), None);
}

#[test]
fn agave_generated_slots_equal_entries_bin() {
    let exp = common::json("sig-agave-generated/expected.json");
    // u64(200) ++ every individually serialized entry == the Vec<Entry> bytes.
    let mut vec_bytes = 200u64.to_le_bytes().to_vec();
    for rec in common::read_records(
        "sig-agave-generated/agave.blockstore.test_get_rooted_block.entries.bin",
    ) {
        vec_bytes.extend_from_slice(&rec);
    }
    for name in [
        "agave.blockstore.test_get_rooted_block.shreds.bin",
        "agave.blockstore.test_get_rooted_block.more_shreds.bin",
        "agave.blockstore.test_get_rooted_block.unrooted_shreds.bin",
    ] {
        let packets = common::read_records(&format!("sig-agave-generated/{name}"));
        let sets = check(
            &packets,
            &exp["files"][name]["deshred"],
            "sig-agave-generated",
        );
        assert_eq!(sets, vec![vec_bytes.clone()], "{name}");
    }
}

#[test]
fn agave_bench_slot_of_32768_ticks_is_one_data_set() {
    let exp = common::json("sig-agave-generated/expected.json");
    let name = "agave.blockstore.bench_write_small.shreds.bin";
    let packets = common::read_records(&format!("sig-agave-generated/{name}"));
    assert_eq!(packets.len(), 1751);
    check(
        &packets,
        &exp["files"][name]["deshred"],
        "sig-agave-generated",
    );
}

#[test]
fn agave_merkle_and_recovery_sets_deshred() {
    let exp = common::json("sig-agave-generated/expected.json");
    for name in [
        "merkle_proof_test_shreds_34_data_34_code.bin",
        "recovery_test_shreds_34_data_34_code.bin",
    ] {
        let packets = common::read_records(&format!("sig-agave-generated/{name}"));
        check(
            &packets,
            &exp["files"][name]["deshred"],
            "sig-agave-generated",
        );
    }
}

#[test]
fn firedancer_localnet_early_merkle_and_legacy_deshred() {
    let exp = common::json("firedancer/expected.json");
    for name in [
        "localnet-slot0-shreds.ar",
        "localnet-v14-slot0-shreds.ar",
        "localnet-v14-slot1-shreds.ar",
        "localnet-slot50-shreds.ar",
    ] {
        let rel = format!("localnet-shreds/{name}");
        let packets = common::read_ar(&format!("firedancer/{rel}"));
        check(
            &packets,
            &exp["items"][rel.as_str()]["deshred"],
            "firedancer/localnet-shreds",
        );
    }
    let packets = common::read_ar("firedancer/localnet-shreds/localnet-slot0-shreds.ar");
    let exp0 = &exp["items"]["localnet-shreds/localnet-slot0-shreds.ar"]["deshred"];
    let sets = check(&packets, exp0, "firedancer/localnet-shreds");
    let batch0 = std::fs::read(common::path(
        "firedancer/localnet-shreds/localnet-slot0-batch0.bin",
    ))
    .expect("batch0");
    assert_eq!(sets, vec![batch0]);
}

#[test]
fn firedancer_fec_sets_incomplete_without_recovery_give_no_data_set() {
    let exp = common::json("firedancer/expected.json");
    let rel = "fec-sets/chained_resigned-FT9QgTVo375TgDAQusTgpsfXqTosCJLfrBpoVdcbnhtS.ar";
    let packets = common::read_ar(&format!("firedancer/{rel}"));
    let sets = check(
        &packets,
        &exp["items"][rel]["deshred_without_recovery"],
        "firedancer",
    );
    assert!(
        sets.is_empty(),
        "no data set is complete without Reed-Solomon recovery"
    );
    for rel in [
        "fec-sets/chained-5XDmMEZpXM2GBXNjhgRCti4qLGeFQvx4RnzWeRgfupYk.ar",
        "fec-sets/resigned-AmKFVSAQ7DyhiW94pWfDexYDCSn8GB6SG2zbQqLhuufU.ar",
    ] {
        let packets = common::read_ar(&format!("firedancer/{rel}"));
        let sets = check(
            &packets,
            &exp["items"][rel]["deshred_without_recovery"],
            "firedancer",
        );
        assert!(!sets.is_empty(), "{rel}");
    }
}

#[test]
fn mainnet_recovery_input_alone_gives_no_data_set() {
    let packets =
        common::read_records("sig-mainnet-shreds/recovery_slot284737905_fec483/input_shreds.bin");
    let shreds: Vec<_> = packets
        .iter()
        .map(|p| ShredRef::parse(p).expect("parses"))
        .collect();
    let slots = group_by_slot(shreds);
    let slot = slots.values().next().expect("slot");
    assert_eq!(slot.len(), 2, "two data shreds received");
    assert!(slot.data_sets().is_empty());
}

#[test]
fn firedancer_demo_pcap_deshreds_to_demo_bin() {
    let exp = common::json("firedancer/expected.json");
    let pcap =
        std::fs::read(common::path("firedancer/demo-shreds/demo-shreds.pcap")).expect("pcap");
    // Classic pcap: 24-byte global header, then 16-byte record headers (incl_len at +8).
    let mut packets = Vec::new();
    let mut pos = 24;
    while pos + 16 <= pcap.len() {
        let incl =
            u32::from_le_bytes(pcap[pos + 8..pos + 12].try_into().expect("4 bytes")) as usize;
        let frame = &pcap[pos + 16..pos + 16 + incl];
        packets.push(frame[42..].to_vec()); // Ethernet 14 + IPv4 20 + UDP 8
        pos += 16 + incl;
    }
    assert_eq!(packets.len(), 512);
    let sets = check(
        &packets,
        &exp["items"]["demo-shreds"]["deshred"],
        "firedancer/demo-shreds",
    );
    let demo =
        std::fs::read(common::path("firedancer/demo-shreds/demo-shreds.bin")).expect("demo bin");
    assert_eq!(sets, vec![demo]);
}
