//! Scenario: `bstore shreds inspect|deshred` on real shred files print the stable JSON
//! fields with the values the sources assert.

use crate::common;

use common::{bstore, expected, json_lines, testdata, testnet_stream_file};

#[test]
fn inspect_prints_each_mainnet_shred_header() {
    let file = testdata().join("sig-mainnet-shreds/mainnet_shreds.bin");
    let lines = json_lines(&bstore(&[
        "shreds",
        "inspect",
        file.to_str().expect("utf-8 path"),
    ]));
    let exp = expected("sig-mainnet-shreds/mainnet_shreds.expected.json");
    let shreds = exp["shreds"].as_array().expect("shreds");
    assert_eq!(lines.len(), shreds.len());
    for (i, (line, want)) in lines.iter().zip(shreds).enumerate() {
        assert_eq!(line["record"], i as u64);
        assert_eq!(line["slot"], want["expected_slot"]);
        assert_eq!(line["index"], want["expected_index"]);
        assert_eq!(line["fec_set_index"], want["expected_fec_set_index"]);
        assert_eq!(line["variant_byte"], want["variant"]);
        assert_eq!(line["version"], want["derived"]["shred_version"]);
        assert_eq!(line["size"], want["derived"]["size"]);
        assert_eq!(line["data_complete"], want["derived"]["data_complete"]);
        assert_eq!(line["last_in_slot"], want["derived"]["last_in_slot"]);
        assert_eq!(line["payload_len"], 1203);
        assert_eq!(line["packet_len"], want["payload_len"]);
        assert!(
            line["variant"]
                .as_str()
                .expect("name")
                .starts_with("merkle_data")
        );
    }
}

#[test]
fn inspect_reports_bad_records_and_continues() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("mixed.bin");
    let good = bstore_ledger::stream::read_stream_file(
        &testdata().join("sig-testnet-417955322/shreds.bin"),
    )
    .expect("testnet shreds");
    let mut bytes = Vec::new();
    bstore_ledger::stream::write_record(&mut bytes, &good[0]);
    bstore_ledger::stream::write_record(&mut bytes, &[0xA5; 10]);
    bstore_ledger::stream::write_record(&mut bytes, &good[1]);
    std::fs::write(&path, bytes).expect("write");
    let lines = json_lines(&bstore(&[
        "shreds",
        "inspect",
        path.to_str().expect("utf-8"),
    ]));
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["index"], 0);
    assert_eq!(lines[1]["record"], 1);
    assert!(
        lines[1]["error"]
            .as_str()
            .expect("error")
            .contains("too short"),
        "{}",
        lines[1]
    );
    assert_eq!(lines[2]["index"], 1);
}

#[test]
fn deshred_testnet_slot_matches_expected_and_verifies_poh() {
    let exp = expected("sig-testnet-417955322/expected.json");
    let file = testdata().join("sig-testnet-417955322/shreds.bin");
    let seed = exp["deshred"]["totals"]["poh_seed"]
        .as_str()
        .expect("parent blockhash");
    let out = bstore(&[
        "shreds",
        "deshred",
        file.to_str().expect("utf-8"),
        "--verify-poh",
        seed,
        "--signatures",
    ]);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 1);
    let l = &lines[0];
    let totals = &exp["deshred"]["totals"];
    assert_eq!(l["slot"], exp["slot"]);
    assert_eq!(l["parent_slot"], exp["shreds"]["parent_slot"][0]);
    assert_eq!(l["data_shreds"], exp["shreds"]["count"]);
    assert_eq!(l["last_index"], 319);
    assert_eq!(l["full"], true);
    let sets: Vec<(u64, u64)> = l["data_sets"]
        .as_array()
        .expect("data_sets")
        .iter()
        .map(|r| (r[0].as_u64().expect("start"), r[1].as_u64().expect("end")))
        .collect();
    let want: Vec<(u64, u64)> = exp["deshred"]["batches"]
        .as_array()
        .expect("batches")
        .iter()
        .map(|b| {
            (
                b["start_index"].as_u64().expect("s"),
                b["end_index"].as_u64().expect("e") + 1,
            )
        })
        .collect();
    assert_eq!(sets, want);
    assert_eq!(l["entries"], totals["entries"]);
    assert_eq!(l["ticks"], totals["ticks"]);
    assert_eq!(l["transactions"], totals["txs"]);
    assert_eq!(l["signatures"], totals["signatures"]);
    assert_eq!(l["num_hashes"], totals["num_hashes"]);
    assert_eq!(l["blockhash"], totals["last_entry_hash"]);
    assert_eq!(l["poh"], "ok");
    let sigs = l["first_signatures"].as_array().expect("first_signatures");
    assert_eq!(sigs.len() as u64, totals["txs"].as_u64().expect("txs"));
    let first_tx = exp["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .find_map(|e| e["txs"].as_array().and_then(|t| t.first()))
        .expect("a transaction");
    assert_eq!(sigs[0], first_tx["signatures"][0]);
}

#[test]
fn deshred_with_wrong_poh_seed_names_the_failing_entry() {
    let file = testdata().join("sig-testnet-417955322/shreds.bin");
    let out = bstore(&[
        "shreds",
        "deshred",
        file.to_str().expect("utf-8"),
        "--verify-poh",
        "11111111111111111111111111111111",
    ]);
    let l = &json_lines(&out)[0];
    let poh = l["poh"].as_str().expect("poh message");
    assert!(poh.contains("entry 0"), "{poh}");
}

#[test]
fn deshred_incomplete_fec_set_reports_no_data_set() {
    let file = testdata().join("sig-mainnet-shreds/recovery_slot284737905_fec483/input_shreds.bin");
    let l = &json_lines(&bstore(&[
        "shreds",
        "deshred",
        file.to_str().expect("utf-8"),
    ]))[0];
    assert_eq!(l["data_sets"], serde_json::json!([]));
    assert_eq!(l["entries"], 0);
    assert_eq!(l["blockhash"], serde_json::Value::Null);
    assert_eq!(l["full"], false);
}

#[test]
fn deshred_refuses_a_huge_num_hashes_within_a_second() {
    let exp = expected("sig-testnet-417955322/expected.json");
    let seed = exp["deshred"]["totals"]["poh_seed"].as_str().expect("seed");
    let dir = tempfile::tempdir().expect("tempdir");
    let file = testnet_stream_file(dir.path(), "tampered.bin", true);
    let file = file.to_str().expect("utf-8");
    let args = ["shreds", "deshred", file, "--verify-poh", seed];
    let (out, elapsed) = common::bstore_within(&args, std::time::Duration::from_secs(10));
    let l = &json_lines(&out)[0];
    let poh = l["poh"].as_str().expect("poh message");
    assert!(poh.contains("entry 0"), "{poh}");
    assert!(poh.contains("exceed the limit of 500000"), "{poh}");
    assert!(
        elapsed < std::time::Duration::from_secs(1),
        "took {elapsed:?}"
    );
    // A lower limit is taken from the command line.
    let args = [&args[..], &["--max-hashes-per-tick", "1000"]].concat();
    let l = &json_lines(&common::bstore_within(&args, std::time::Duration::from_secs(10)).0)[0];
    let poh = l["poh"].as_str().expect("poh message");
    assert!(poh.contains("exceed the limit of 1000"), "{poh}");
}

#[test]
fn deshred_slot_hash_limit_is_configurable() {
    let exp = expected("sig-testnet-417955322/expected.json");
    let seed = exp["deshred"]["totals"]["poh_seed"].as_str().expect("seed");
    let file = testdata().join("sig-testnet-417955322/shreds.bin");
    let file = file.to_str().expect("utf-8");
    let out = bstore(&[
        "shreds",
        "deshred",
        file,
        "--verify-poh",
        seed,
        "--max-slot-hashes",
        "3999999",
    ]);
    let poh = json_lines(&out)[0]["poh"]
        .as_str()
        .expect("poh")
        .to_string();
    assert!(
        poh.contains("hashes in the slot exceed the limit of 3999999"),
        "{poh}"
    );
}
