//! `bstore replay` only reads unless told `--access read-write`: it runs beside a writer
//! that holds the ledger open (as beside a live validator), and a mistyped `--ledger` fails
//! and creates nothing, in every access mode.

use crate::cli_damage_support::{bstore_fails, generate};
use crate::common::bstore;

use bstore_ledger::store::{AccessMode, Blockstore};

#[test]
fn replay_reads_beside_an_open_writer_by_default() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ledger = dir.path().join("ledger");
    let summary = generate(&ledger, 3);
    let seed = summary["genesis_parent_blockhash"]
        .as_str()
        .expect("seed")
        .to_string();
    let writer = Blockstore::open(&ledger, AccessMode::ReadWrite).expect("writer");
    let l = ledger.to_str().expect("utf-8");
    for access in [None, Some("secondary"), Some("read-only")] {
        let mut args = vec!["replay", "--ledger", l, "--format", "json"];
        args.extend(["--parent-blockhash", seed.as_str()]);
        args.extend(access.map(|a| ["--access", a]).into_iter().flatten());
        let out = bstore(&args);
        assert!(out.contains("\"replayed\":3"), "{access:?}: {out}");
    }
    // Read-write is refused while the writer holds the ledger.
    let err = bstore_fails(&["replay", "--ledger", l, "--access", "read-write"]);
    assert!(err.contains("lock"), "{err}");
    drop(writer);
}

#[test]
fn replay_on_a_mistyped_path_fails_and_creates_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let typo = dir.path().join("ledgr");
    let t = typo.to_str().expect("utf-8");
    for access in ["secondary", "read-only", "read-write"] {
        let err = bstore_fails(&["replay", "--ledger", t, "--access", access]);
        assert!(err.contains("no ledger at"), "{access}: {err}");
        assert!(!typo.exists(), "{access}: created {}", typo.display());
    }
    let err = bstore_fails(&["replay", "--ledger", t]);
    assert!(err.contains("no ledger at"), "{err}");
    assert!(!typo.exists());
}
