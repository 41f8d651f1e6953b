//! Scenario: `bstore bench fetch --ledger DIR` times the newest full slots of an existing
//! ledger, as a secondary or read-only, and leaves the ledger's files untouched.

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;

use common::{bstore, json_lines};

/// Every file under `dir` with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(dir).expect("readable") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            out.extend(snapshot(&path));
        } else {
            let bytes = std::fs::read(&path).expect("readable file");
            out.insert(path.display().to_string(), bytes);
        }
    }
    out
}

#[test]
fn bench_fetch_on_an_existing_ledger_times_it_and_writes_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ledger = dir.path().to_str().expect("utf-8");
    bstore(&[
        "ledger",
        "generate",
        "--ledger",
        ledger,
        "--slots",
        "8",
        "--shreds-per-slot",
        "128",
    ]);
    let before = snapshot(dir.path());
    for access in ["secondary", "read-only"] {
        let out = json_lines(&bstore(&[
            "bench", "fetch", "--ledger", ledger, "--slots", "5", "--rounds", "2", "--access",
            access, "--format", "json",
        ]))
        .remove(0);
        assert_eq!(out["ledger"], ledger);
        assert!(
            out["slot_data_bytes"].as_f64().expect("bytes") > 10_000.0,
            "{out}"
        );
        for path in ["floor", "views", "serial"] {
            assert!(
                out[format!("{path}_us")].as_f64().expect("time") > 0.0,
                "{out}"
            );
        }
    }
    assert_eq!(
        snapshot(dir.path()),
        before,
        "the ledger's files are unchanged"
    );
}
