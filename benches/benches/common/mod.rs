//! What several benches read: the real testnet slot from `../shared/testdata` (or
//! `BSTORE_TESTDATA`).

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
