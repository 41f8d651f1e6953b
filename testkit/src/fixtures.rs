//! The repository's committed ledger fixtures: `fixtures/NAME/ledger.tar.gz`, a ledger slice
//! recorded by the differential tool or from a live validator, beside the answers it is
//! checked against. The tests and benchmarks of every crate unpack them through here.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::TestkitError;

/// `fixtures/NAME/FILE` in the repository this crate was built from.
pub fn fixture_path(name: &str, file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures")
        .join(name)
        .join(file)
}

fn fixture_error(name: &str, reason: String) -> TestkitError {
    TestkitError::Fixture {
        name: name.to_string(),
        reason,
    }
}

/// Unpacks `fixtures/NAME/ledger.tar.gz` into `dir` (with `tar`, which must be on `PATH`);
/// the ledger's path, `dir/ledger`.
pub fn unpack_ledger_into(name: &str, dir: &Path) -> Result<PathBuf, TestkitError> {
    let tar = fixture_path(name, "ledger.tar.gz");
    let failed = |reason: String| fixture_error(name, reason);
    let out = Command::new("tar")
        .arg("-xzf")
        .arg(&tar)
        .arg("-C")
        .arg(dir)
        .output()
        .map_err(|e| failed(format!("running tar: {e}")))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        return Err(failed(format!(
            "tar -xzf {}: {}: {}",
            tar.display(),
            out.status,
            stderr.trim()
        )));
    }
    let ledger = dir.join("ledger");
    if !ledger.is_dir() {
        return Err(failed(format!("{} holds no ledger/", tar.display())));
    }
    Ok(ledger)
}

/// [`unpack_ledger_into`] a fresh temporary directory: the directory (removed when dropped)
/// and the ledger's path in it.
pub fn unpack_ledger(name: &str) -> Result<(tempfile::TempDir, PathBuf), TestkitError> {
    let dir = tempfile::tempdir()
        .map_err(|e| fixture_error(name, format!("a temporary directory: {e}")))?;
    let ledger = unpack_ledger_into(name, dir.path())?;
    Ok((dir, ledger))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_committed_fixture_unpacks_to_a_ledger_and_a_missing_one_is_an_error() {
        let (dir, ledger) = unpack_ledger("agave-history").expect("committed fixture");
        assert_eq!(ledger, dir.path().join("ledger"));
        assert!(ledger.join("rocksdb").is_dir(), "{}", ledger.display());

        let err = unpack_ledger("no-such-fixture").expect_err("missing");
        assert!(
            matches!(&err, TestkitError::Fixture { name, .. } if name == "no-such-fixture"),
            "{err}"
        );
    }
}
