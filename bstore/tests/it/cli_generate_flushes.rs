//! `bstore ledger generate` and `ledger ingest` leave nothing only in the write-ahead log:
//! their data is in SST files when they exit, and `ledger check` finds it healthy.

use crate::cli_damage_support::{check_json, generate};
use crate::common::{bstore, testdata};

#[test]
fn generate_and_ingest_flush_before_they_exit() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ledger = dir.path().join("ledger");
    let summary = generate(&ledger, 4);
    let report = check_json(&ledger);
    assert_eq!(report["healthy"], true, "{report}");
    assert_eq!(
        report["column_entries"]["data_shred"], summary["data_shreds"],
        "{report}"
    );
    let in_ssts = |report: &serde_json::Value, column: &str| {
        report["sst_files"]
            .as_array()
            .expect("sst_files")
            .iter()
            .any(|f| f["column"] == column)
    };
    assert!(
        in_ssts(&report, "data_shred") && in_ssts(&report, "root"),
        "{report}"
    );
    let logged: u64 = report["wal_files"]
        .as_array()
        .expect("wal_files")
        .iter()
        .map(|f| f["bytes"].as_u64().expect("bytes"))
        .sum();
    assert!(
        logged < 4096,
        "{logged} bytes left only in the log: {report}"
    );

    let other = dir.path().join("ingested");
    let file = testdata().join("sig-testnet-417955322/shreds.bin");
    bstore(&[
        "ledger",
        "ingest",
        "--ledger",
        other.to_str().expect("utf-8"),
        file.to_str().expect("utf-8"),
    ]);
    let report = check_json(&other);
    assert_eq!(report["column_entries"]["data_shred"], 320, "{report}");
    assert!(in_ssts(&report, "data_shred"), "{report}");
}
