//! Scenario: a ledger built by `bstore ledger ingest` / `generate` answers `bstore ledger
//! slot` with the same JSON object the file-based deshred gives, through the store's fetch.

use crate::common;

use common::{bstore, expected, json_lines, testdata};
use serde_json::Value;

#[test]
fn ingest_then_slot_equals_file_deshred_for_the_testnet_slot() {
    let exp = expected("sig-testnet-417955322/expected.json");
    let dir = tempfile::tempdir().expect("tempdir");
    let ledger = dir.path().to_str().expect("utf-8");
    let file = testdata().join("sig-testnet-417955322/shreds.bin");
    let file = file.to_str().expect("utf-8");
    let seed = exp["deshred"]["totals"]["poh_seed"].as_str().expect("seed");

    let summary = &json_lines(&bstore(&[
        "ledger", "ingest", "--ledger", ledger, "--batch", "7", file,
    ]))[0];
    assert_eq!(summary["inserted"], 320);
    assert_eq!(summary["rejected"], 0);
    assert_eq!(summary["completed_data_sets"], 9);
    assert_eq!(summary["slots_full"], serde_json::json!([exp["slot"]]));
    // Ingesting again: every shred is a duplicate, nothing is rejected or completed.
    let again = &json_lines(&bstore(&["ledger", "ingest", "--ledger", ledger, file]))[0];
    assert_eq!(again["duplicates"], 320);
    assert_eq!(again["inserted"], 0);
    assert_eq!(again["completed_data_sets"], 0);

    let slot = exp["slot"].to_string();
    let args = ["--verify-poh", seed, "--signatures"];
    let mut from_store = json_lines(&bstore(
        &[
            &["ledger", "slot", "--ledger", ledger, &slot][..],
            &args[..],
        ]
        .concat(),
    ))
    .remove(0);
    let from_file = json_lines(&bstore(
        &[&["shreds", "deshred", file][..], &args[..]].concat(),
    ))
    .remove(0);
    assert_eq!(from_store["dead"], false);
    assert_eq!(from_store["rooted"], false);
    let obj = from_store.as_object_mut().expect("object");
    obj.remove("dead");
    obj.remove("rooted");
    assert_eq!(from_store, from_file);
}

#[test]
fn generated_ledger_is_full_rooted_and_poh_chained() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ledger = dir.path().to_str().expect("utf-8");
    let out = &json_lines(&bstore(&[
        "ledger",
        "generate",
        "--ledger",
        ledger,
        "--slots",
        "3",
        "--shreds-per-slot",
        "64",
        "--seed",
        "5",
    ]))[0];
    assert_eq!(out["slots"], 3);
    let mut parent_hash: Value = out["genesis_parent_blockhash"].clone();
    for slot in 1..=3u64 {
        let s = slot.to_string();
        let seed = parent_hash.as_str().expect("hash").to_string();
        let line = &json_lines(&bstore(&[
            "ledger",
            "slot",
            "--ledger",
            ledger,
            &s,
            "--verify-poh",
            &seed,
        ]))[0];
        assert_eq!(line["full"], true, "{line}");
        assert_eq!(line["rooted"], true);
        assert_eq!(line["parent_slot"], slot - 1);
        assert_eq!(line["ticks"], 64);
        assert_eq!(line["poh"], "ok", "{line}");
        let txs = line["transactions"].as_u64().expect("txs");
        let shreds = line["data_shreds"].as_u64().expect("shreds");
        assert!(
            txs >= shreds,
            "mainnet-like density: {txs} txs in {shreds} shreds"
        );
        parent_hash = line["blockhash"].clone();
    }
}

#[test]
fn bench_fetch_reports_every_path_against_the_floor() {
    let out = &json_lines(&bstore(&[
        "bench",
        "fetch",
        "--shreds-per-slot",
        "64",
        "--slots",
        "2",
        "--rounds",
        "2",
        "--format",
        "json",
    ]))[0];
    for key in [
        "serial_us",
        "views_us",
        "floor_us",
        "serial_p99_us",
        "views_mb_s",
        "peak_rss_bytes",
    ] {
        assert!(out[key].as_f64().is_some_and(|v| v > 0.0), "{key} in {out}");
    }
    assert!(out.get("pool_us").is_some());
}

/// `--leader` checks every shred's signature: the real testnet slot goes in under its
/// leader's key and is refused whole under another key, with the cause counted by name.
#[test]
fn ingest_with_leader_key_accepts_the_real_leader_and_refuses_another() {
    let file = testdata().join("sig-testnet-417955322/shreds.bin");
    let file = file.to_str().expect("utf-8");
    let real = "4Nh8T1d4YBZHEuQNRmFbLXPT5HbWicqPxGeKZ5SdAr4i";
    let other = "11111111111111111111111111111112";
    let dir = tempfile::tempdir().expect("tempdir");
    let ledger = dir.path().join("a");
    let ledger = ledger.to_str().expect("utf-8");
    let ok = &json_lines(&bstore(&[
        "ledger", "ingest", "--ledger", ledger, "--leader", real, file,
    ]))[0];
    assert_eq!(ok["inserted"], 320);
    assert_eq!(ok["rejected"], 0);
    let ledger = dir.path().join("b");
    let ledger = ledger.to_str().expect("utf-8");
    let bad = &json_lines(&bstore(&[
        "ledger", "ingest", "--ledger", ledger, "--leader", other, file,
    ]))[0];
    assert_eq!(bad["inserted"], 0);
    assert_eq!(bad["rejected"], 320);
    assert_eq!(bad["rejected_reasons"]["invalid_signature"], 320);
}

/// Agave 4.x's shape rules are the default: slots shredded by an older Agave (34 data
/// shreds, the last set not full) are refused with the rule named, and go in whole with
/// `--legacy-shapes`.
#[test]
fn ingest_applies_the_4x_shape_rules_unless_legacy_shapes() {
    let file =
        testdata().join("sig-agave-generated/agave.blockstore.test_get_rooted_block.shreds.bin");
    let file = file.to_str().expect("utf-8");
    let dir = tempfile::tempdir().expect("tempdir");
    let ledger = dir.path().join("a");
    let ledger = ledger.to_str().expect("utf-8");
    let strict = &json_lines(&bstore(&["ledger", "ingest", "--ledger", ledger, file]))[0];
    let rejected = strict["rejected"].as_u64().expect("rejected");
    assert!(rejected > 0, "{strict}");
    let reasons = strict["rejected_reasons"].as_object().expect("reasons");
    assert!(
        reasons
            .keys()
            .all(|k| k.ends_with("_not_fixed") || k.ends_with("_inside_set")),
        "{strict}"
    );
    let ledger = dir.path().join("b");
    let ledger = ledger.to_str().expect("utf-8");
    let legacy = &json_lines(&bstore(&[
        "ledger",
        "ingest",
        "--ledger",
        ledger,
        "--legacy-shapes",
        file,
    ]))[0];
    assert_eq!(legacy["rejected"], 0, "{legacy}");
    assert_eq!(legacy["slots_full"], serde_json::json!([10]), "{legacy}");
}
