//! Scenario: FEC sets captured from mainnet and produced by Agave's and Firedancer's
//! shredders are recovered with Reed–Solomon; the recovered shreds equal the upstream
//! expectations byte for byte, and the slots deshred into the data sets upstream asserts.

use crate::common;

use std::collections::BTreeMap;

use bstore_ledger::Pubkey;
use bstore_ledger::entry::decode_entries;
use bstore_ledger::fetch::group_by_slot;
use bstore_ledger::shred::{
    RecoverOptions, ShredRef, merkle_root, recover_fec_set, recover_fec_set_with, verify_signature,
};
use serde_json::Value;

const MAINNET: &str = "sig-mainnet-shreds/recovery_slot284737905_fec483";
const FD_RESIGNED: &str =
    "fec-sets/chained_resigned-FT9QgTVo375TgDAQusTgpsfXqTosCJLfrBpoVdcbnhtS.ar";

fn parse_all(packets: &[Vec<u8>]) -> Vec<ShredRef<'_>> {
    packets
        .iter()
        .map(|p| ShredRef::parse(p).expect("real shred parses"))
        .collect()
}

/// Shreds grouped by FEC set.
fn by_set<'a>(shreds: &[ShredRef<'a>]) -> BTreeMap<u32, Vec<ShredRef<'a>>> {
    let mut sets: BTreeMap<u32, Vec<ShredRef<'a>>> = BTreeMap::new();
    for s in shreds {
        sets.entry(s.fec_set_index()).or_default().push(*s);
    }
    sets
}

#[test]
fn mainnet_set_recovers_the_shreds_upstream_expects() {
    let input = common::read_records(&format!("{MAINNET}/input_shreds.bin"));
    let expected = common::read_records(&format!("{MAINNET}/expected_recovered_shreds.bin"));
    let shreds = parse_all(&input);
    let got = recover_fec_set(&shreds).expect("7:21 set with 11 shreds recovers");
    let (want_data, want_code): (Vec<_>, Vec<_>) = expected
        .iter()
        .cloned()
        .partition(|p| ShredRef::parse(p).expect("parses").is_data());
    assert_eq!(got.data.len(), 5);
    assert_eq!(got.code.len(), 12);
    assert_eq!(
        got.data, want_data,
        "recovered data shreds are byte-identical"
    );
    assert_eq!(
        got.code, want_code,
        "recovered code shreds are byte-identical"
    );

    // With the recovered shreds the slot holds one complete data set, equal to the batch.
    let mut all = input.clone();
    all.extend(got.data.iter().cloned());
    let slots = group_by_slot(parse_all(&all));
    let slot = slots.values().next().expect("one slot");
    assert!((483..490).all(|i| slot.get(i).is_some()), "483..=489 held");
    assert!(slot.get(489).is_some_and(|s| s.data_complete()));
    let bytes = slot.deshred(&(483..490)).expect("deshreds");
    let batch = std::fs::read(common::path(&format!(
        "{MAINNET}/batches/batch_00483_00489.bin"
    )))
    .expect("batch file");
    assert_eq!(bytes, batch);
    assert_eq!(decode_entries(&bytes).expect("decodes").len(), 11);
}

#[test]
fn mainnet_recovered_shards_match_the_reed_solomon_vectors() {
    // The upstream erasure vectors: every shard after reconstruction (1039 bytes each).
    let input = common::read_records(&format!("{MAINNET}/input_shreds.bin"));
    let shards = common::read_records(&format!("{MAINNET}/expected_recovered_shards.bin"));
    assert_eq!(shards.len(), 28);
    let got = recover_fec_set(&parse_all(&input)).expect("recovers");
    let mut all = input.clone();
    all.extend(got.data);
    all.extend(got.code);
    let shreds = parse_all(&all);
    assert_eq!(shreds.len(), 28);
    for s in &shreds {
        let shard = bstore_ledger::shred::erasure_shard(s).expect("Merkle shard");
        assert_eq!(shard, &shards[s.erasure_position()][..], "{}", s.index());
    }
}

#[test]
fn firedancer_chained_resigned_slot_deshreds_after_recovery() {
    let exp = common::json("firedancer/expected.json");
    let item = &exp["items"][FD_RESIGNED];
    let leader: Pubkey = item["shreds"]["leader"]
        .as_str()
        .expect("leader")
        .parse()
        .expect("base58 key");
    let packets = common::read_ar(&format!("firedancer/{FD_RESIGNED}"));
    let shreds = parse_all(&packets);
    let options = RecoverOptions {
        leader: Some(leader),
        ..RecoverOptions::default()
    };
    let mut recovered = Vec::new();
    for (fec, set) in by_set(&shreds) {
        // The fixture has duplicates (some differ in their retransmitter signature only).
        let got = recover_fec_set_with(&set, &options).expect("set recovers");
        let root = merkle_root(&set[0]).expect("root");
        for payload in got.data.iter().chain(&got.code) {
            let s = ShredRef::parse(payload).expect("recovered shred parses");
            assert_eq!(s.fec_set_index(), fec);
            assert_eq!(merkle_root(&s).expect("root"), root, "proof rebuilt");
            verify_signature(&s, &leader).expect("leader signature carried over");
        }
        recovered.extend(got.data);
    }
    let missing = item["shreds"]["missing_data_indices"]
        .as_array()
        .expect("missing")
        .len();
    // 479 (the last data shred of the resigned set) was never received either.
    assert_eq!(recovered.len(), missing + 1);

    let mut all = packets.clone();
    all.extend(recovered);
    check_deshred(&all, &item["deshred_after_reed_solomon_recovery"]);
}

/// Complete data sets, their byte lengths and entry / transaction counts equal `expected`.
fn check_deshred(packets: &[Vec<u8>], expected: &Value) {
    let slots = group_by_slot(parse_all(packets));
    let slot = slots.values().next().expect("one slot");
    let want: Vec<_> = expected["batches"]
        .as_array()
        .expect("batches")
        .iter()
        .map(|b| {
            let s = b["start_index"].as_u64().expect("start") as u32;
            let e = b["end_index"].as_u64().expect("end") as u32;
            (s..e + 1, b)
        })
        .collect();
    for (range, _) in &want {
        assert!(
            range.clone().all(|i| slot.get(i).is_some()),
            "{range:?} held"
        );
        let last = slot.get(range.end - 1).expect("last shred");
        assert!(last.data_complete(), "{range:?} ends a data set");
    }
    // The first set starts where the fixture starts, which is not a known boundary; every
    // later one is found by the store's own rule.
    let ranges: Vec<_> = want.iter().skip(1).map(|(r, _)| r.clone()).collect();
    assert_eq!(slot.data_sets(), ranges, "every data set is complete");
    let (mut entries, mut txs) = (0u64, 0u64);
    for (range, batch) in &want {
        let bytes = slot.deshred(range).expect("deshreds");
        assert_eq!(bytes.len() as u64, batch["bytes"].as_u64().expect("bytes"));
        let decoded = decode_entries(&bytes).expect("decodes");
        assert_eq!(
            decoded.len() as u64,
            batch["entry_count"].as_u64().expect("n")
        );
        entries += decoded.len() as u64;
        txs += decoded
            .iter()
            .map(|e| e.transactions.len() as u64)
            .sum::<u64>();
    }
    assert_eq!(entries, expected["totals"]["entries"].as_u64().expect("e"));
    assert_eq!(txs, expected["totals"]["txs"].as_u64().expect("t"));
}

/// Drops `drop` (erasure positions) from a complete set and recovers them.
fn drop_and_recover(packets: &[Vec<u8>], drop: &dyn Fn(usize, usize) -> bool) {
    let shreds = parse_all(packets);
    for (_, set) in by_set(&shreds) {
        let num_data = set.iter().find_map(|s| s.num_data()).expect("a code shred") as usize;
        let kept: Vec<ShredRef<'_>> = set
            .iter()
            .filter(|s| !drop(s.erasure_position(), num_data))
            .copied()
            .collect();
        let got = recover_fec_set(&kept).expect("recovers");
        let mut want_data: Vec<&[u8]> = set
            .iter()
            .filter(|s| s.is_data() && drop(s.erasure_position(), num_data))
            .map(|s| s.payload())
            .collect();
        want_data.sort_by_key(|p| ShredRef::parse(p).map(|s| s.index()).ok());
        let got_data: Vec<&[u8]> = got.data.iter().map(Vec::as_slice).collect();
        assert_eq!(got_data, want_data);
        let dropped_code = set
            .iter()
            .filter(|s| !s.is_data() && drop(s.erasure_position(), num_data))
            .count();
        let expect_code = if want_data.is_empty() {
            0
        } else {
            dropped_code
        };
        assert_eq!(got.code.len(), expect_code);
    }
}

#[test]
fn agave_34_data_34_code_sets_recover_byte_identical() {
    for file in [
        "sig-agave-generated/recovery_test_shreds_34_data_34_code.bin",
        "sig-agave-generated/merkle_proof_test_shreds_34_data_34_code.bin",
    ] {
        let packets = common::read_records(file);
        // Every data shred lost: only the 34 code shreds remain.
        drop_and_recover(&packets, &|pos, num_data| pos < num_data);
        // Every other shred lost (17 data, 17 code).
        drop_and_recover(&packets, &|pos, _| pos % 2 == 1);
        // The last 34 erasure positions lost (half the data, all code).
        drop_and_recover(&packets, &|pos, _| (17..51).contains(&pos));
    }
}

#[test]
fn firedancer_variable_size_chained_sets_recover_byte_identical() {
    let packets = common::read_ar(
        "firedancer/fec-sets/chained-5XDmMEZpXM2GBXNjhgRCti4qLGeFQvx4RnzWeRgfupYk.ar",
    );
    // Sets of 5:20, 10:23, 15:26 and 4:19: lose every data shred.
    drop_and_recover(&packets, &|pos, num_data| pos < num_data);
    drop_and_recover(&packets, &|pos, _| pos % 3 == 1);
}

#[test]
fn too_few_shreds_is_refused_with_a_reason() {
    let input = common::read_records(&format!("{MAINNET}/input_shreds.bin"));
    let shreds = parse_all(&input);
    // 11 present, 7 needed: keep only 6.
    let err = recover_fec_set(&shreds[..6]).expect_err("6 < 7 shreds");
    let text = err.to_string();
    assert!(text.contains("slot 284737905"), "{text}");
    assert!(text.contains("FEC set 483"), "{text}");
    assert!(
        text.contains("6 distinct shreds present, 7 needed"),
        "{text}"
    );
    // Data shreds alone say nothing about num_data.
    let data: Vec<_> = shreds.iter().filter(|s| s.is_data()).copied().collect();
    let err = recover_fec_set(&data).expect_err("no code shred");
    assert!(err.to_string().contains("no code shred"), "{err}");
}
