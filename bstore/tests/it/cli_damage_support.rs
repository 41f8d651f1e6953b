//! Helpers of the `cli_damage_*` scenarios: run `bstore` expecting a failure, the bytes of
//! every database file, a generated ledger.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::common::{bstore, bstore_output_within, json_lines};
use serde_json::Value;

/// A failing command returns at once; one still running after this is a server that
/// started on a damaged ledger.
const BUDGET: Duration = Duration::from_secs(30);

/// Runs `bstore ARGS`, asserts it fails within the budget (a command still running after
/// it is a server that started on a damaged ledger), and returns its stderr.
pub(crate) fn bstore_fails(args: &[&str]) -> String {
    let (out, _) = bstore_output_within(args, BUDGET);
    assert!(!out.status.success(), "bstore {args:?} succeeded");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Every file of `ledger/rocksdb` with its bytes, RocksDB's info logs (`LOG*`) aside.
pub(crate) fn db_files(ledger: &Path) -> BTreeMap<String, Vec<u8>> {
    let db = ledger.join("rocksdb");
    std::fs::read_dir(&db)
        .expect("list the database")
        .map(|e| e.expect("entry"))
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with("LOG"))
        .map(|n| {
            let bytes = std::fs::read(db.join(&n)).expect("read");
            (n, bytes)
        })
        .collect()
}

/// Every file of `before` is still in `ledger/rocksdb` with the same bytes.
pub(crate) fn assert_nothing_lost(before: &BTreeMap<String, Vec<u8>>, ledger: &Path, what: &str) {
    let after = db_files(ledger);
    for (name, bytes) in before {
        match after.get(name) {
            None => panic!("{what}: {name} was deleted"),
            Some(now) => assert!(now == bytes, "{what}: {name} changed"),
        }
    }
}

/// `bstore ledger generate` of `slots` slots of 32 data shreds from slot 1.
pub(crate) fn generate(ledger: &Path, slots: u64) -> Value {
    let out = bstore(&[
        "ledger",
        "generate",
        "--ledger",
        ledger.to_str().expect("utf-8"),
        "--slots",
        &slots.to_string(),
        "--shreds-per-slot",
        "32",
    ]);
    json_lines(&out).remove(0)
}

/// `bstore ledger check --format json`, which must exit as `healthy` says.
pub(crate) fn check_json(ledger: &Path) -> Value {
    let l = ledger.to_str().expect("utf-8");
    let args = ["ledger", "check", "--ledger", l, "--format", "json"];
    let out = Command::new(env!("CARGO_BIN_EXE_bstore"))
        .args(args)
        .output()
        .expect("runs bstore");
    let report: Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|_| panic!("JSON: {out:?}"));
    assert_eq!(
        out.status.success(),
        report["healthy"] == true,
        "exit status follows the report: {report}"
    );
    report
}

/// `bstore ledger bounds --format json` (a secondary) of `ledger`.
pub(crate) fn bounds(ledger: &Path) -> Value {
    let l = ledger.to_str().expect("utf-8");
    json_lines(&bstore(&[
        "ledger", "bounds", "--ledger", l, "--format", "json",
    ]))
    .remove(0)
}
