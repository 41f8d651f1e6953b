//! Scenario from a user report: a damaged record in the write-ahead log of a ledger whose
//! data was never flushed. Every command fails naming the log instead of silently dropping
//! the records after it; dropping takes an explicit `--wal-recovery-mode`; `ledger repair`
//! backs up every file, then keeps every record but the damaged one.

use crate::cli_damage_support::{assert_nothing_lost, bstore_fails, check_json, db_files};
use crate::common::{bstore, json_lines, testdata};

use bstore_ledger::Slot;
use bstore_ledger::store::{AccessMode, Blockstore};

const ROOTS: usize = 85;

/// How many roots `ledger roots --format json` listed.
fn roots(json: &serde_json::Value) -> usize {
    json["roots"].as_array().expect("roots").len()
}

#[test]
fn a_corrupt_wal_record_fails_by_default_and_repair_keeps_the_rest() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ledger = dir.path().join("ledger");
    {
        let store = Blockstore::open(&ledger, AccessMode::ReadWrite).expect("create");
        let packets = bstore_ledger::stream::read_stream_file(
            &testdata().join("sig-testnet-417955322/shreds.bin"),
        )
        .expect("testnet shreds");
        store.insert_shreds(&packets).expect("insert");
        for root in 1..=ROOTS {
            store.set_roots([Slot(root as u64)]).expect("root");
        }
    }
    let db = ledger.join("rocksdb");
    let log = db_files(&ledger)
        .into_keys()
        .rfind(|n| n.ends_with(".log"))
        .expect("a write-ahead log");
    let mut bytes = std::fs::read(db.join(&log)).expect("read");
    // Inside the shreds' record, before the roots written after it.
    let at = bytes.len() / 3;
    for b in &mut bytes[at..at + 16] {
        *b ^= 0x5a;
    }
    std::fs::write(db.join(&log), &bytes).expect("corrupt");
    let before = db_files(&ledger);
    let l = ledger.to_str().expect("utf-8");
    let stream = testdata().join("sig-testnet-417955322/shreds.bin");
    let commands: [&[&str]; 6] = [
        &["ledger", "bounds", "--ledger", l],
        &["ledger", "bounds", "--ledger", l, "--access", "read-only"],
        &[
            "ledger",
            "ingest",
            "--ledger",
            l,
            stream.to_str().expect("utf-8"),
        ],
        &["ledger", "purge", "--ledger", l, "3"],
        &["replay", "--ledger", l],
        &["replay", "--ledger", l, "--access", "read-write"],
    ];
    for args in commands {
        let err = bstore_fails(args);
        assert!(err.contains(&log), "{args:?}: {err}");
    }
    assert_nothing_lost(&before, &ledger, "every command");
    let report = check_json(&ledger);
    assert_eq!(report["healthy"], false, "{report}");

    // Explicitly dropping what follows the damage, read-only: nothing changes on disk.
    let explicit = json_lines(&bstore(&[
        "ledger",
        "roots",
        "--ledger",
        l,
        "--access",
        "read-only",
        "--wal-recovery-mode",
        "point_in_time",
        "--format",
        "json",
    ]))
    .remove(0);
    assert_eq!(roots(&explicit), 0, "{explicit}");
    assert_nothing_lost(&before, &ledger, "explicit point in time");

    let backup = dir.path().join("backup");
    let out = bstore(&[
        "ledger",
        "repair",
        "--ledger",
        l,
        "--backup",
        backup.to_str().expect("utf-8"),
        "--format",
        "json",
    ]);
    let repaired: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(repaired["after"]["healthy"], true, "{repaired}");
    for (name, bytes) in &before {
        let copy = std::fs::read(backup.join(name)).expect("backed up");
        assert!(&copy == bytes, "{name} backed up as it was");
    }
    let after = json_lines(&bstore(&[
        "ledger", "roots", "--ledger", l, "--format", "json",
    ]));
    assert_eq!(
        roots(&after[0]),
        ROOTS,
        "the records after the damage: {repaired}"
    );
}
