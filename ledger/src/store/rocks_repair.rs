//! `repair`: backs up every file of a damaged ledger database, then repairs it
//! (`docs/damage-and-repair.md#repair`). Stop every process using the ledger first.
//!
//! Invariant: nothing in the database directory changes before every one of its files has
//! been copied (and synced) into the backup directory, which must be new or empty.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use super::AccessMode;
use super::open_checks::{self, CURRENT, ROCKSDB_DIR, io_error};
use super::open_options::OpenOptions;
use super::rocks::RocksEngine;
use super::rocks_check::{CheckReport, check};
use super::wal_mode::WalRecoveryMode;
use crate::error::{LedgerError, Result};

/// What [`repair`] did.
#[derive(Debug, Clone)]
pub struct RepairReport {
    /// Where the original files are (`None`: the database was healthy, nothing was done).
    pub backup: Option<PathBuf>,
    /// The files copied into the backup.
    pub backed_up: Vec<String>,
    /// The MANIFEST a rewritten `CURRENT` names, when `CURRENT` was missing.
    pub restored_current: Option<String>,
    /// Whether the write-ahead logs were replayed skipping damaged records and flushed
    /// (the database opened that way and was then healthy).
    pub wal_salvaged: bool,
    /// Whether RocksDB's own repair ran.
    pub rocksdb_repair: bool,
    /// The check before the repair.
    pub before: CheckReport,
    /// The check after the repair.
    pub after: CheckReport,
}

/// Repairs the database of `ledger` after copying every file into `backup`. A healthy
/// database is left alone. Steps, each only while damage remains: a missing `CURRENT` is
/// restored to name the newest MANIFEST (nothing is lost when that MANIFEST is intact); the
/// write-ahead logs are replayed read-write skipping damaged records and flushed (only the
/// damaged write batches are lost); RocksDB's repair rebuilds the MANIFEST from the files.
/// The report ends with a fresh [`check`].
pub fn repair(ledger: &Path, backup: &Path) -> Result<RepairReport> {
    let db = ledger.join(ROCKSDB_DIR);
    let before = check(ledger, Some(WalRecoveryMode::AbsoluteConsistency))?;
    if before.is_healthy() {
        return Ok(RepairReport {
            backup: None,
            backed_up: Vec::new(),
            restored_current: None,
            wal_salvaged: false,
            rocksdb_repair: false,
            after: before.clone(),
            before,
        });
    }
    let backed_up = back_up(&db, backup)?;
    let mut restored_current = None;
    if !db.join(CURRENT).is_file()
        && let Some(manifest) = newest_manifest(&db)?
    {
        write_current(&db, &manifest)?;
        restored_current = Some(manifest);
    }
    let mut after = check(ledger, Some(WalRecoveryMode::AbsoluteConsistency))?;
    let mut wal_salvaged = false;
    if !after.is_healthy() && salvage_wal(ledger) {
        wal_salvaged = true;
        after = check(ledger, Some(WalRecoveryMode::AbsoluteConsistency))?;
    }
    let rocksdb_repair = !after.is_healthy();
    if rocksdb_repair {
        RocksEngine::repair_database(&db)?;
        after = check(ledger, Some(WalRecoveryMode::AbsoluteConsistency))?;
    }
    Ok(RepairReport {
        backup: Some(backup.to_path_buf()),
        backed_up,
        restored_current,
        wal_salvaged,
        rocksdb_repair,
        before,
        after,
    })
}

/// Opens the database read-write replaying the logs with `skip_any_corrupted_record`, and
/// flushes so the replayed records are in SST files; `false` when it does not open or
/// flush (RocksDB's repair comes next).
fn salvage_wal(ledger: &Path) -> bool {
    let options = OpenOptions::existing(AccessMode::ReadWrite)
        .with_wal_recovery(Some(WalRecoveryMode::SkipAnyCorruptedRecord));
    RocksEngine::open_with(ledger, &options).is_ok_and(|engine| engine.flush().is_ok())
}

/// Copies every file of `db` into `backup` (new or empty, outside `db`) and syncs it.
fn back_up(db: &Path, backup: &Path) -> Result<Vec<String>> {
    let refuse = |reason: String| LedgerError::WouldOverwrite {
        path: backup.to_path_buf(),
        reason,
    };
    let db_abs = std::fs::canonicalize(db).map_err(|e| io_error("cannot resolve", db, e))?;
    if let Some(parent) = backup.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| io_error("cannot create", parent, e))?;
        let parent_abs =
            std::fs::canonicalize(parent).map_err(|e| io_error("cannot resolve", parent, e))?;
        if parent_abs.starts_with(&db_abs) {
            return Err(refuse(
                "the backup must be outside the database directory".into(),
            ));
        }
    }
    match std::fs::read_dir(backup) {
        Ok(mut entries) => {
            if entries.next().is_some() {
                return Err(refuse("the backup directory is not empty".into()));
            }
        }
        Err(e) if e.kind() == ErrorKind::NotFound => {
            std::fs::create_dir_all(backup).map_err(|e| io_error("cannot create", backup, e))?;
        }
        Err(e) => return Err(io_error("cannot list", backup, e)),
    }
    let names = open_checks::file_names(db)?;
    for name in &names {
        let to = backup.join(name);
        std::fs::copy(db.join(name), &to).map_err(|e| io_error("cannot back up to", &to, e))?;
        std::fs::File::open(&to)
            .and_then(|f| f.sync_all())
            .map_err(|e| io_error("cannot sync", &to, e))?;
    }
    Ok(names)
}

/// The highest-numbered `MANIFEST-NNNNNN` in `db`.
fn newest_manifest(db: &Path) -> Result<Option<String>> {
    Ok(open_checks::file_names(db)?
        .into_iter()
        .filter_map(|n| {
            let number = n.strip_prefix("MANIFEST-")?.parse::<u64>().ok()?;
            Some((number, n))
        })
        .max()
        .map(|(_, n)| n))
}

/// Writes `CURRENT` naming `manifest`, through a temporary file renamed into place.
fn write_current(db: &Path, manifest: &str) -> Result<()> {
    let tmp = db.join("CURRENT.bstore-tmp");
    std::fs::write(&tmp, format!("{manifest}\n")).map_err(|e| io_error("cannot write", &tmp, e))?;
    let current = db.join(CURRENT);
    std::fs::rename(&tmp, &current).map_err(|e| io_error("cannot write", &current, e))
}
