//! Scenario from a user report: `CURRENT` deleted from a ledger's database. Every command
//! fails naming the file (twice in a row: the first failure must not leave a new empty
//! database for the second to open), no file is deleted or changed, `ledger check` reports
//! it, and `ledger repair` backs up every file and restores the ledger.

use crate::cli_damage_support::{
    assert_nothing_lost, bounds, bstore_fails, check_json, db_files, generate,
};
use crate::common::{bstore, testnet_stream_file};

const SLOTS: u64 = 40;

#[test]
fn every_command_fails_on_a_deleted_current_and_repair_restores_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ledger = dir.path().join("ledger");
    generate(&ledger, SLOTS);
    let healthy_bounds = bounds(&ledger);
    let stream = testnet_stream_file(dir.path(), "shreds.bin", false);
    std::fs::remove_file(ledger.join("rocksdb/CURRENT")).expect("delete CURRENT");
    let before = db_files(&ledger);
    let l = ledger.to_str().expect("utf-8");
    let s = stream.to_str().expect("utf-8");
    let commands: [&[&str]; 13] = [
        &["ledger", "ingest", "--ledger", l, s],
        &[
            "ledger",
            "generate",
            "--ledger",
            l,
            "--slots",
            "2",
            "--shreds-per-slot",
            "32",
        ],
        &["ledger", "bounds", "--ledger", l],
        &["ledger", "bounds", "--ledger", l, "--access", "read-only"],
        &["ledger", "roots", "--ledger", l],
        &["ledger", "slot", "--ledger", l, "5"],
        &["ledger", "purge", "--ledger", l, "3"],
        &["ledger", "check", "--ledger", l],
        &["replay", "--ledger", l],
        &["replay", "--ledger", l, "--access", "read-write"],
        &["replay", "--ledger", l, "--access", "read-only"],
        &["serve", "--ledger", l, "--rpc-addr", "127.0.0.1:0"],
        &[
            "serve",
            "--ledger",
            l,
            "--access",
            "primary",
            "--rpc-addr",
            "127.0.0.1:0",
        ],
    ];
    for _ in 0..2 {
        for args in commands {
            let err = bstore_fails(args);
            assert!(err.contains("CURRENT"), "{args:?}: {err}");
        }
    }
    assert!(!ledger.join("rocksdb/CURRENT").exists(), "no new CURRENT");
    assert_nothing_lost(&before, &ledger, "every command");
    assert_eq!(
        db_files(&ledger).len(),
        before.len(),
        "no new database file"
    );

    let report = check_json(&ledger);
    assert_eq!(report["damage"][0]["file"], "CURRENT", "{report}");

    let backup = dir.path().join("backup");
    let out = bstore(&[
        "ledger",
        "repair",
        "--ledger",
        l,
        "--backup",
        backup.to_str().expect("utf-8"),
    ]);
    assert!(out.contains("restored CURRENT"), "{out}");
    for (name, bytes) in &before {
        let copy = std::fs::read(backup.join(name)).expect("backed up");
        assert!(&copy == bytes, "{name} backed up as it was");
    }
    assert_eq!(check_json(&ledger)["healthy"], true);
    assert_eq!(bounds(&ledger), healthy_bounds, "every slot is back");
}
