//! Checks around a RocksDB open that keep damage from reading as a smaller, healthy ledger
//! (`docs/damage-and-repair.md`).
//!
//! Invariants:
//! - A database is created only where no database file exists: the ledger directory is
//!   missing, or neither it nor its `rocksdb/` holds a RocksDB file. RocksDB deletes every
//!   file its new database does not list, so creating over a damaged database (for instance
//!   one whose `CURRENT` was deleted) would destroy it.
//! - Every open that does not create needs `rocksdb/CURRENT`; its absence is an error
//!   naming the directory and the missing file, never "no database yet".
//! - After an open, every live SST file in RocksDB's metadata exists with its listed size
//!   (a secondary instance does not notice a missing file on its own).

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use super::open_options::OpenOptions;
use crate::error::{LedgerError, Result};

/// Sub-directory of the ledger that holds the RocksDB database.
pub(crate) const ROCKSDB_DIR: &str = "rocksdb";
/// The file naming the database's current MANIFEST; RocksDB cannot open without it.
pub(crate) const CURRENT: &str = "CURRENT";
/// How many file names an error lists before it says "and N more".
const NAMES_SHOWN: usize = 5;

/// What the ledger directory holds, as far as opening is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DirState {
    /// `rocksdb/CURRENT` exists: open the database.
    Database,
    /// No database file anywhere, and the options allow creating one.
    CreateNew,
}

/// One live SST file as RocksDB's metadata lists it.
#[derive(Debug, Clone)]
pub(crate) struct LiveFile {
    pub column: String,
    /// The name relative to the database directory (`000123.sst`).
    pub name: String,
    pub size: u64,
}

/// Decides whether `ledger` holds a database to open or may get a new one (module
/// invariants); anything else is an error naming the path and what is missing.
pub(crate) fn inspect(ledger: &Path, options: &OpenOptions) -> Result<DirState> {
    let db = ledger.join(ROCKSDB_DIR);
    if db.join(CURRENT).is_file() {
        return Ok(DirState::Database);
    }
    let in_db = file_names(&db)?;
    if !in_db.is_empty() {
        let reason = format!(
            "{} holds {} ({}) but no {CURRENT} file: it was deleted, or the database was \
             never completely created (`bstore ledger check` reports, `bstore ledger repair` \
             backs up and restores it)",
            db.display(),
            count(in_db.len(), "file"),
            shown(&in_db)
        );
        return Err(if options.may_create() {
            LedgerError::WouldOverwrite { path: db, reason }
        } else {
            LedgerError::Damaged {
                path: db,
                file: CURRENT.to_string(),
                reason: format!("missing; the directory holds {}", shown(&in_db)),
            }
        });
    }
    let in_ledger: Vec<String> = file_names(ledger)?
        .into_iter()
        .filter(|n| looks_like_rocksdb_file(n))
        .collect();
    if !in_ledger.is_empty() {
        let reason = format!(
            "{} itself holds RocksDB files ({}) and has no {ROCKSDB_DIR}/{CURRENT}: pass the \
             ledger directory (the parent of the database directory)",
            ledger.display(),
            shown(&in_ledger)
        );
        return Err(if options.may_create() {
            LedgerError::WouldOverwrite {
                path: ledger.to_path_buf(),
                reason,
            }
        } else {
            LedgerError::NoLedger {
                path: ledger.to_path_buf(),
                reason,
            }
        });
    }
    if options.may_create() {
        return Ok(DirState::CreateNew);
    }
    let reason = if ledger.is_dir() {
        format!("{} has no {CURRENT} file", db.display())
    } else {
        "the directory does not exist".to_string()
    };
    Err(LedgerError::NoLedger {
        path: ledger.to_path_buf(),
        reason,
    })
}

/// Every live file exists with its listed size; the error names the first one that does
/// not and counts the others.
pub(crate) fn verify_live_files(db: &Path, files: &[LiveFile]) -> Result<()> {
    let problems = live_file_problems(db, files);
    let Some((file, reason)) = problems.first() else {
        return Ok(());
    };
    let more = match problems.len() - 1 {
        0 => String::new(),
        1 => " (and 1 more damaged file)".to_string(),
        n => format!(" (and {n} more damaged files)"),
    };
    Err(LedgerError::Damaged {
        path: db.to_path_buf(),
        file: file.clone(),
        reason: format!("{reason}{more}"),
    })
}

/// `(file, what is wrong)` for every live file that is missing or has the wrong size.
pub(crate) fn live_file_problems(db: &Path, files: &[LiveFile]) -> Vec<(String, String)> {
    let mut problems = Vec::new();
    for f in files {
        let listed = format!(
            "an SST file of column {} that the MANIFEST lists with {} bytes",
            f.column, f.size
        );
        match std::fs::metadata(db.join(&f.name)) {
            Ok(meta) if meta.len() == f.size => {}
            Ok(meta) => problems.push((
                f.name.clone(),
                format!("is {} bytes; it is {listed}", meta.len()),
            )),
            Err(e) if e.kind() == ErrorKind::NotFound => {
                problems.push((f.name.clone(), format!("missing; it is {listed}")))
            }
            Err(e) => problems.push((
                f.name.clone(),
                format!("cannot be read ({e}); it is {listed}"),
            )),
        }
    }
    problems
}

/// The write-ahead logs (`NNNNNN.log`) of the database with their sizes, by name.
pub(crate) fn wal_files(db: &Path) -> Vec<(String, u64)> {
    let mut logs: Vec<(String, u64)> = file_names(db)
        .unwrap_or_default()
        .into_iter()
        .filter(|n| is_numbered(n, ".log"))
        .map(|n| {
            let size = std::fs::metadata(db.join(&n)).map_or(0, |m| m.len());
            (n, size)
        })
        .collect();
    logs.sort();
    logs
}

/// The SST files among `names` (the database directory's files) that `live` (the
/// MANIFEST's list) does not hold, with their sizes.
pub(crate) fn unlisted_tables(
    db: &Path,
    names: &[String],
    live: &[LiveFile],
) -> Vec<(String, u64)> {
    names
        .iter()
        .filter(|n| is_numbered(n, ".sst") && !live.iter().any(|f| &f.name == *n))
        .map(|n| {
            let size = std::fs::metadata(db.join(n)).map_or(0, |m| m.len());
            (n.clone(), size)
        })
        .collect()
}

/// The files RocksDB reads when it opens besides the SSTs (the MANIFEST named by
/// `CURRENT` and the write-ahead logs), for an error RocksDB gives without a file name.
pub(crate) fn files_read_at_open(db: &Path) -> String {
    let mut names = Vec::new();
    if let Ok(current) = std::fs::read_to_string(db.join(CURRENT)) {
        names.push(current.trim().to_string());
    }
    for (name, size) in wal_files(db) {
        names.push(format!("{name} ({size} bytes)"));
    }
    if names.is_empty() {
        return "the file RocksDB names, if any".to_string();
    }
    format!(
        "the file RocksDB names, or else one of the files it replays at open: {}",
        names.join(", ")
    )
}

/// The names of the regular files directly in `dir`, sorted; empty when `dir` is missing.
pub(crate) fn file_names(dir: &Path) -> Result<Vec<String>> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => return Err(io_error("cannot list", dir, source)),
    };
    let mut names = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|source| io_error("cannot list", dir, source))?;
        if entry.file_type().is_ok_and(|t| t.is_file()) {
            names.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    names.sort();
    Ok(names)
}

pub(crate) fn io_error(action: &'static str, path: &Path, source: std::io::Error) -> LedgerError {
    LedgerError::Io {
        action,
        path: PathBuf::from(path),
        source,
    }
}

/// A name RocksDB gives the files of a database.
fn looks_like_rocksdb_file(name: &str) -> bool {
    name == CURRENT
        || name == "IDENTITY"
        || name.starts_with("MANIFEST-")
        || name.starts_with("OPTIONS-")
        || is_numbered(name, ".sst")
        || is_numbered(name, ".log")
}

/// `NNNNNN<suffix>` with a non-empty run of digits.
fn is_numbered(name: &str, suffix: &str) -> bool {
    name.strip_suffix(suffix)
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

fn shown(names: &[String]) -> String {
    let mut text = names
        .iter()
        .take(NAMES_SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > NAMES_SHOWN {
        text.push_str(&format!(", and {} more", names.len() - NAMES_SHOWN));
    }
    text
}

fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::AccessMode;

    fn touch(path: &Path) {
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, b"x").expect("write");
    }

    #[test]
    fn creating_is_allowed_only_where_no_database_file_exists() {
        let dir = tempfile::tempdir().expect("tempdir");
        let create = OpenOptions::create_if_missing();
        assert_eq!(
            inspect(&dir.path().join("new"), &create).expect("missing dir"),
            DirState::CreateNew
        );
        touch(&dir.path().join("shreds.bin"));
        assert_eq!(
            inspect(dir.path(), &create).expect("unrelated file"),
            DirState::CreateNew
        );
        touch(&dir.path().join(ROCKSDB_DIR).join("000012.sst"));
        let err = inspect(dir.path(), &create).expect_err("files without CURRENT");
        assert!(matches!(err, LedgerError::WouldOverwrite { .. }), "{err}");
        assert!(err.to_string().contains("CURRENT"), "{err}");
    }

    #[test]
    fn a_database_directory_given_as_the_ledger_is_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        touch(&dir.path().join("MANIFEST-000005"));
        let err = inspect(dir.path(), &OpenOptions::create_if_missing()).expect_err("refused");
        assert!(err.to_string().contains("MANIFEST-000005"), "{err}");
    }

    #[test]
    fn opening_without_create_needs_current() {
        let dir = tempfile::tempdir().expect("tempdir");
        let existing = OpenOptions::existing(AccessMode::ReadWrite);
        let err = inspect(&dir.path().join("typo"), &existing).expect_err("missing");
        assert!(matches!(err, LedgerError::NoLedger { .. }), "{err}");
        assert!(!dir.path().join("typo").exists(), "nothing created");
        touch(&dir.path().join(ROCKSDB_DIR).join("000004.log"));
        let err = inspect(dir.path(), &existing).expect_err("damaged");
        assert!(matches!(err, LedgerError::Damaged { ref file, .. } if file == CURRENT));
        touch(&dir.path().join(ROCKSDB_DIR).join(CURRENT));
        assert_eq!(
            inspect(dir.path(), &existing).expect("opens"),
            DirState::Database
        );
    }

    #[test]
    fn live_files_must_exist_with_their_listed_size() {
        let dir = tempfile::tempdir().expect("tempdir");
        touch(&dir.path().join("000007.sst"));
        let file = |name: &str, size| LiveFile {
            column: "data_shred".into(),
            name: name.into(),
            size,
        };
        verify_live_files(dir.path(), &[file("000007.sst", 1)]).expect("healthy");
        let err = verify_live_files(dir.path(), &[file("000007.sst", 2), file("000009.sst", 5)])
            .expect_err("damaged");
        let text = err.to_string();
        assert!(
            text.contains("000007.sst") && text.contains("1 more"),
            "{text}"
        );
    }
}
