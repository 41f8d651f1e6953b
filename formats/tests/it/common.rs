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

/// A file below the test data folder.
pub(crate) fn path(rel: &str) -> PathBuf {
    testdata().join(rel)
}

/// Reads a u64-LE length-prefixed record file (`docs/formats-shreds.md#shred-stream-files`).
pub(crate) fn read_records(rel: &str) -> Vec<Vec<u8>> {
    bstore_formats::stream::read_stream_file(&path(rel)).expect("readable record file")
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
