//! The committed fixtures under `fixtures/` (recorded by the differential tool or from a
//! live validator): their gzip-compressed JSON (the ledgers unpack through
//! `bstore_testkit::fixtures`).

use std::process::Command;

/// Runs `program args`, failing the test with its stderr.
fn run_tool(program: &str, args: &[&str]) -> Vec<u8> {
    let out = Command::new(program).args(args).output().expect("runs");
    assert!(
        out.status.success(),
        "{program} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// `fixtures/DIR/NAME` (gzip-compressed JSON), parsed.
pub(crate) fn gzipped_json<T: serde::de::DeserializeOwned>(dir: &str, name: &str) -> T {
    let path = bstore_testkit::fixtures::fixture_path(dir, name);
    serde_json::from_slice(&run_tool("gzip", &["-dc", path.to_str().expect("path")]))
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}
