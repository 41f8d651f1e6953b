//! `check`: every file and checksum of a ledger database, read-only
//! (`docs/damage-and-repair.md#check`). It reports all the damage it finds instead of
//! stopping at the first, and never writes to the ledger.

use std::path::{Path, PathBuf};

use super::AccessMode;
use super::open_checks::{self, CURRENT, LiveFile, ROCKSDB_DIR};
use super::open_options::OpenOptions;
use super::rocks::{Paranoid, RocksEngine};
use super::wal_mode::WalRecoveryMode;
use crate::error::{LedgerError, Result};

/// One damaged file (or column, when RocksDB's error does not say which file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Damage {
    /// The damaged file's name in the database directory, or the column family when RocksDB's error
    /// does not name a file.
    pub file: String,
    /// What is wrong with it, as the check or RocksDB reported it.
    pub reason: String,
}

/// One live SST file as RocksDB's metadata lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SstFile {
    /// The column family it belongs to.
    pub column: String,
    /// The file name in the database directory (`000123.sst`).
    pub name: String,
    /// The size the metadata lists.
    pub bytes: u64,
}

/// Entries read back, checksums verified, from one column family.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ColumnCheck {
    /// The column family's name.
    pub name: String,
    /// Number of entries read back with their checksums verified.
    pub entries: u64,
}

/// What [`check`] found.
#[derive(Debug, Clone)]
pub struct CheckReport {
    /// The database directory checked.
    pub path: PathBuf,
    /// The WAL recovery mode the database was opened with.
    pub wal_recovery: WalRecoveryMode,
    /// Files in the database directory.
    pub files: usize,
    /// Live SST files in RocksDB's metadata (none when the database did not open).
    pub sst_files: Vec<SstFile>,
    /// Write-ahead logs with their sizes.
    pub wal_files: Vec<(String, u64)>,
    /// SST files in the database directory that the MANIFEST does not list, with their
    /// sizes: left by a flush or compaction that never finished (a full disk, a crash).
    /// Nothing reads them; the next read-write open deletes them. Not damage.
    pub unlisted_files: Vec<(String, u64)>,
    /// Every column family read in full.
    pub columns: Vec<ColumnCheck>,
    /// Everything damaged; empty for a healthy database.
    pub damage: Vec<Damage>,
}

impl CheckReport {
    /// No damage found.
    pub fn is_healthy(&self) -> bool {
        self.damage.is_empty()
    }
}

/// The live SST files the MANIFEST lists, read without replaying a log and without failing
/// on a damaged file (the probe's scratch directory is removed afterwards).
fn list_live_files(db: &Path) -> Result<Vec<LiveFile>> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let scratch = std::env::temp_dir().join(format!("bstore-check-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&scratch)
        .map_err(|e| open_checks::io_error("cannot create", &scratch, e))?;
    let files = RocksEngine::manifest_live_files(db, &scratch, Paranoid::No);
    // Best effort: a leftover empty directory in the system temp dir is harmless.
    let _ = std::fs::remove_dir_all(&scratch);
    files
}

/// Checks the database of `ledger`: `CURRENT` and the MANIFEST it names exist; RocksDB opens
/// it read-only, replaying every write-ahead log under `wal_recovery` (default
/// `absolute_consistency`: any damaged record counts); every live SST file exists with its
/// listed size; every entry of every column family reads back with its block checksum
/// verified. `Err` only when there is no database directory at all.
pub fn check(ledger: &Path, wal_recovery: Option<WalRecoveryMode>) -> Result<CheckReport> {
    let db = ledger.join(ROCKSDB_DIR);
    let names = open_checks::file_names(&db)?;
    if names.is_empty() {
        return Err(LedgerError::NoLedger {
            path: ledger.to_path_buf(),
            reason: format!("{} is missing or empty", db.display()),
        });
    }
    let wal_recovery = wal_recovery.unwrap_or(WalRecoveryMode::AbsoluteConsistency);
    let mut report = CheckReport {
        path: db.clone(),
        wal_recovery,
        files: names.len(),
        sst_files: Vec::new(),
        wal_files: open_checks::wal_files(&db),
        unlisted_files: Vec::new(),
        columns: Vec::new(),
        damage: Vec::new(),
    };
    let damage = |file: &str, reason: String| Damage {
        file: file.to_string(),
        reason,
    };
    let Ok(current) = std::fs::read_to_string(db.join(CURRENT)) else {
        report
            .damage
            .push(damage(CURRENT, "missing or unreadable".to_string()));
        return Ok(report);
    };
    let manifest = current.trim();
    if manifest.is_empty() || !db.join(manifest).is_file() {
        report.damage.push(damage(
            CURRENT,
            format!("names the MANIFEST {manifest:?}, which is missing"),
        ));
        return Ok(report);
    }
    let listed = list_live_files(&db);
    match &listed {
        Ok(live) => {
            report.sst_files = live
                .iter()
                .map(|f| SstFile {
                    column: f.column.clone(),
                    name: f.name.clone(),
                    bytes: f.size,
                })
                .collect();
            report.unlisted_files = open_checks::unlisted_tables(&db, &names, live);
            for (file, reason) in open_checks::live_file_problems(&db, live) {
                report.damage.push(damage(&file, reason));
            }
        }
        Err(e) => report.damage.push(damage("MANIFEST", e.to_string())),
    }
    let options = OpenOptions::existing(AccessMode::ReadOnly).with_wal_recovery(Some(wal_recovery));
    let engine = match RocksEngine::open_unverified(ledger, &options) {
        Ok(engine) => engine,
        // A damaged live file is already reported by name; the open fails on it too.
        Err(_) if !report.damage.is_empty() => return Ok(report),
        Err(e) => {
            let file = match &e {
                LedgerError::Damaged { file, .. } => file.clone(),
                _ => "<database>".to_string(),
            };
            report.damage.push(damage(&file, e.to_string()));
            return Ok(report);
        }
    };
    for name in RocksEngine::column_names(&db)? {
        match engine.scan_verified(&name) {
            Ok(entries) => report.columns.push(ColumnCheck { name, entries }),
            Err(e) => report
                .damage
                .push(damage(&format!("column {name}"), e.to_string())),
        }
    }
    Ok(report)
}
