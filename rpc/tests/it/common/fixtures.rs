//! The committed fixtures under `fixtures/` (recorded by the differential tool or from a
//! live validator): an unpacked ledger and gzip-compressed JSON.

use std::path::{Path, PathBuf};
use std::process::Command;

/// `fixtures/DIR/NAME` in the repository.
fn fixture(dir: &str, name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures")
        .join(dir)
        .join(name)
}

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

/// `fixtures/DIR/ledger.tar.gz` unpacked into a fresh directory (its `ledger/` inside).
pub(crate) fn unpack_ledger(dir: &str) -> tempfile::TempDir {
    let out = tempfile::tempdir().expect("tempdir");
    let tar = fixture(dir, "ledger.tar.gz");
    let to = out.path().to_str().expect("path");
    run_tool("tar", &["-xzf", tar.to_str().expect("path"), "-C", to]);
    out
}

/// `fixtures/DIR/NAME` (gzip-compressed JSON), parsed.
pub(crate) fn gzipped_json<T: serde::de::DeserializeOwned>(dir: &str, name: &str) -> T {
    let path = fixture(dir, name);
    serde_json::from_slice(&run_tool("gzip", &["-dc", path.to_str().expect("path")]))
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}
