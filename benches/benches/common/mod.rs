//! What several benches read: the real testnet slot from `../shared/testdata` (or
//! `BSTORE_TESTDATA`), and the recorded Agave ledgers of `fixtures/`.

// Each bench compiles this module on its own and uses part of it.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;

/// The 320 shreds of testnet slot 417955322, in file order.
pub(crate) fn testnet_shreds() -> Vec<Vec<u8>> {
    let dir = std::env::var_os("BSTORE_TESTDATA").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/testdata"),
        PathBuf::from,
    );
    let path = dir.join("sig-testnet-417955322/shreds.bin");
    bstore_ledger::stream::read_stream_file(&path).expect("testnet shreds (set BSTORE_TESTDATA)")
}

/// `fixtures/NAME/ledger.tar.gz` unpacked into a fresh directory: the directory (removed
/// when dropped) and the ledger's path in it.
pub(crate) fn unpack_fixture_ledger(name: &str) -> (tempfile::TempDir, PathBuf) {
    let tar = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures")
        .join(name)
        .join("ledger.tar.gz");
    let dir = tempfile::tempdir().expect("tempdir");
    let status = Command::new("tar")
        .arg("-xzf")
        .arg(&tar)
        .arg("-C")
        .arg(dir.path())
        .status()
        .expect("tar runs");
    assert!(status.success(), "tar -xzf {}", tar.display());
    let ledger = dir.path().join("ledger");
    (dir, ledger)
}
