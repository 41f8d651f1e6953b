//! Scenario from a user report: one SST file of a ledger deleted. The read commands used to
//! answer as if the ledger were smaller, with exit code 0; now every access mode fails
//! naming the file, and `ledger check` reports it.

use crate::cli_damage_support::{
    assert_nothing_lost, bstore_fails, check_json, db_files, generate,
};

const SLOTS: u64 = 85;

#[test]
fn a_missing_sst_fails_every_read_naming_the_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ledger = dir.path().join("ledger");
    generate(&ledger, SLOTS);
    let healthy = check_json(&ledger);
    assert_eq!(healthy["healthy"], true, "{healthy}");
    let meta_sst = healthy["sst_files"]
        .as_array()
        .expect("sst_files")
        .iter()
        .find(|f| f["column"] == "meta")
        .and_then(|f| f["name"].as_str())
        .expect("generate flushed the meta column to an SST file")
        .to_string();
    std::fs::remove_file(ledger.join("rocksdb").join(&meta_sst)).expect("delete");
    let before = db_files(&ledger);
    let l = ledger.to_str().expect("utf-8");
    let commands: [&[&str]; 7] = [
        &["ledger", "bounds", "--ledger", l],
        &["ledger", "bounds", "--ledger", l, "--access", "read-only"],
        &["ledger", "slot", "--ledger", l, "5"],
        &["replay", "--ledger", l],
        &["replay", "--ledger", l, "--access", "read-write"],
        &["ledger", "purge", "--ledger", l, "3"],
        &["serve", "--ledger", l, "--rpc-addr", "127.0.0.1:0"],
    ];
    for args in commands {
        let err = bstore_fails(args);
        assert!(err.contains(&meta_sst), "{args:?}: {err}");
    }
    assert_nothing_lost(&before, &ledger, "every command");
    let report = check_json(&ledger);
    let damage = report["damage"].as_array().expect("damage");
    assert!(
        damage.iter().any(|d| d["file"] == meta_sst.as_str()),
        "{report}"
    );
}
