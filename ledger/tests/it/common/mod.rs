//! Helpers shared by the integration tests: where the real test data lives and how to read
//! its two container formats. Every test reads `../shared/testdata` (override with
//! `BSTORE_TESTDATA`); a missing folder is a test failure, not a skip.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The shared real-data folder.
pub(crate) fn testdata() -> PathBuf {
    if let Some(dir) = std::env::var_os("BSTORE_TESTDATA") {
        return PathBuf::from(dir);
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/testdata");
    assert!(
        dir.is_dir(),
        "test data not found at {} (set BSTORE_TESTDATA)",
        dir.display()
    );
    dir
}

/// Firedancer's early localnet fixtures use a pre-release Merkle layout (the root stored in
/// the payload): their proofs do not evaluate to one root per set, so insert's root check
/// refuses them, as Agave's would (`store_merkle_checks::early_merkle_layout_is_refused_by_default`).
/// Importing them takes `MerkleCheck::Skip`. Every fixture was made by a pre-4.x validator
/// (legacy and unchained Merkle shreds, sets other than 32:32), so all take
/// [`legacy_shapes`]'s `ShapeRules::Legacy`.
pub(crate) fn insert_options(name: &str) -> bstore_ledger::store::InsertOptions {
    let early = ["localnet-slot0-shreds.ar", "localnet-v14-slot0-shreds.ar"];
    bstore_ledger::store::InsertOptions {
        shape: bstore_ledger::store::ShapeRules::Legacy,
        merkle: if early.iter().any(|f| name.ends_with(f)) {
            bstore_ledger::store::MerkleCheck::Skip
        } else {
            bstore_ledger::store::MerkleCheck::Verify
        },
        ..Default::default()
    }
}

/// Default checks without Agave 4.x's shape rules: for shreds older validators made.
pub(crate) fn legacy_shapes() -> bstore_ledger::store::InsertOptions {
    bstore_ledger::store::InsertOptions {
        shape: bstore_ledger::store::ShapeRules::Legacy,
        ..Default::default()
    }
}

/// A file below the test data folder.
pub(crate) fn path(rel: &str) -> PathBuf {
    testdata().join(rel)
}

/// Reads a u64-LE length-prefixed record file (`docs/formats-shreds.md#shred-stream-files`).
pub(crate) fn read_records(rel: &str) -> Vec<Vec<u8>> {
    bstore_ledger::stream::read_stream_file(&path(rel)).expect("readable record file")
}

/// Reads the members of a Unix `ar` archive (one shred per member), in archive order.
pub(crate) fn read_ar(rel: &str) -> Vec<Vec<u8>> {
    let bytes = std::fs::read(path(rel)).expect("readable ar file");
    assert!(
        bytes.starts_with(b"!<arch>\n"),
        "{rel} is not an ar archive"
    );
    let mut out = Vec::new();
    let mut pos = 8;
    while pos + 60 <= bytes.len() {
        let header = &bytes[pos..pos + 60];
        let size: usize = std::str::from_utf8(&header[48..58])
            .expect("ascii size")
            .trim()
            .parse()
            .expect("decimal size");
        let start = pos + 60;
        out.push(bytes[start..start + size].to_vec());
        pos = start + size + (size % 2);
    }
    out
}

/// Parses a JSON file below the test data folder.
pub(crate) fn json(rel: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(path(rel)).expect("readable json");
    serde_json::from_str(&text).expect("valid json")
}

/// How many rows the column family `family` holds (a full walk).
pub(crate) fn count_rows<E: bstore_ledger::store::KvEngine>(
    store: &bstore_ledger::store::Blockstore<E>,
    family: &'static str,
) -> usize {
    let mut n = 0;
    store
        .for_each_family_row(family, |_, _| {
            n += 1;
            std::ops::ControlFlow::Continue(())
        })
        .expect("walk");
    n
}
