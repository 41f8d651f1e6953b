//! What several benches read: the real testnet slot from `../shared/testdata` (or
//! `BSTORE_TESTDATA`). The recorded Agave ledgers of `fixtures/` unpack through
//! `bstore_testkit::fixtures`.

// Each bench compiles this module on its own and uses part of it.
#![allow(dead_code)]

use std::path::PathBuf;

/// The 320 shreds of testnet slot 417955322, in file order.
pub(crate) fn testnet_shreds() -> Vec<Vec<u8>> {
    let dir = std::env::var_os("BSTORE_TESTDATA").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/testdata"),
        PathBuf::from,
    );
    let path = dir.join("sig-testnet-417955322/shreds.bin");
    bstore_ledger::stream::read_stream_file(&path).expect("testnet shreds (set BSTORE_TESTDATA)")
}
