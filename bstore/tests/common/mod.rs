//! Helpers for the CLI tests: run the real `bstore` binary, find the shared test data.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// The shared real-data folder (`BSTORE_TESTDATA` overrides).
pub fn testdata() -> PathBuf {
    std::env::var_os("BSTORE_TESTDATA").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/testdata"),
        PathBuf::from,
    )
}

/// Runs `bstore ARGS`, asserts success, and returns stdout.
pub fn bstore(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_bstore"))
        .args(args)
        .output()
        .expect("runs bstore");
    assert!(
        out.status.success(),
        "bstore {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

/// Each stdout line as JSON.
pub fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect()
}

/// Reads an expected.json below the test data folder.
pub fn expected(rel: &str) -> Value {
    let text = std::fs::read_to_string(testdata().join(rel)).expect("expected.json");
    serde_json::from_str(&text).expect("valid json")
}
