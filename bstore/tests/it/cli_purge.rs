//! Scenario: `bstore ledger purge` removes a slot range from a generated ledger and gives the
//! disk space back; slots outside the range read as before; `ledger slot` of a purged slot
//! fails naming it. `ledger ingest --limit-ledger-size` keeps the newest rooted slots.

use crate::common;

use common::{bstore, json_lines};

fn generate(ledger: &str, slots: &str) {
    bstore(&[
        "ledger",
        "generate",
        "--ledger",
        ledger,
        "--slots",
        slots,
        "--shreds-per-slot",
        "128",
        "--with-code",
    ]);
}

#[test]
fn purge_removes_the_range_and_gives_space_back() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ledger = dir.path().to_str().expect("utf-8");
    generate(ledger, "30");
    let before = json_lines(&bstore(&["ledger", "slot", "--ledger", ledger, "25"])).remove(0);

    let out = json_lines(&bstore(&["ledger", "purge", "--ledger", ledger, "1", "20"])).remove(0);
    assert_eq!(out["slots_with_meta"], 20);
    let (b, a) = (
        out["bytes_before"].as_u64().expect("n"),
        out["bytes_after"].as_u64().expect("n"),
    );
    assert!(a < b, "compaction gave space back: {b} -> {a}");

    let after = json_lines(&bstore(&["ledger", "slot", "--ledger", ledger, "25"])).remove(0);
    assert_eq!(before, after, "a slot outside the range is untouched");
    let exe = env!("CARGO_BIN_EXE_bstore");
    let gone = std::process::Command::new(exe)
        .args(["ledger", "slot", "--ledger", ledger, "5"])
        .output()
        .expect("runs");
    assert!(!gone.status.success());
    assert!(String::from_utf8_lossy(&gone.stderr).contains("slot 5 is not in the ledger"));
}

#[test]
fn purge_refuses_a_reversed_range_and_a_missing_ledger() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ledger = dir.path().to_str().expect("utf-8");
    let exe = env!("CARGO_BIN_EXE_bstore");
    for args in [["9", "3"], ["1", "2"]] {
        let out = std::process::Command::new(exe)
            .args(["ledger", "purge", "--ledger", ledger, args[0], args[1]])
            .output()
            .expect("runs");
        assert!(!out.status.success(), "{args:?}");
    }
}

#[test]
fn a_short_soak_keeps_every_slot_within_the_limit() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("soak");
    let text = bstore(&[
        "bench",
        "soak",
        "--slots",
        "300",
        "--limit-slots",
        "60",
        "--sample-every",
        "50",
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    let summary = json_lines(&text).remove(0);
    assert_eq!(summary["replayed"], 300);
    assert_eq!(summary["read_errors"], 0);
    assert!(
        summary["purged_slots"].as_u64().expect("n") > 150,
        "{summary}"
    );
    assert!(
        summary["slots_checked_whole"].as_u64().expect("n") > 20,
        "{summary}"
    );
    for file in ["soak.csv", "disk.svg", "rss.svg", "read_p99.svg"] {
        assert!(out.join(file).is_file(), "{file}");
    }
}
