//! After a failed write: cutting the half-written record off the write-ahead log once
//! RocksDB has closed it (`docs/damage-and-repair.md#a-full-disk`). A child module of
//! `rocks.rs`; the log format itself is `wal_tail.rs`.
//!
//! A write batch larger than the file writer's buffer reaches the log in several `write`s.
//! When the disk fills during a later one, the earlier ones stay in the log: the log ends
//! inside a record that RocksDB reported as failed, and the next read-write open (in
//! `absolute_consistency`) refuses it as damage. The guard cuts that record off.
//!
//! Invariants:
//! - Only logs this process's read-write open created are ever cut (numbers at least
//!   [`TailGuard::first_log`], the newest log right after the open): RocksDB writes nothing
//!   but this process's batches into them.
//! - Only after a write of this process returned an error, and only after RocksDB closed
//!   the database (the guard is dropped after the `DB`): a record left incomplete in such a
//!   log can only be a write that failed, since every write that returned `Ok` reached the
//!   file whole (a power loss would have ended the process too). `wal_tail::scan` cuts
//!   nothing that is not exactly such a record.
//! - Best effort, in `Drop`: a log the guard cannot read or cut is left as it was, and the
//!   next read-write open reports it as before (`ledger repair` or a recovery mode).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::store::wal_tail::{self, LogTail};

/// Cuts this process's torn logs when dropped after a failed write (module invariants).
#[derive(Debug, Default)]
pub(super) struct TailGuard {
    /// The database directory; `None` for opens that never write.
    dir: Option<PathBuf>,
    /// The newest log number right after the read-write open.
    first_log: u64,
    /// A write of this process returned an error.
    failed: AtomicBool,
}

impl TailGuard {
    /// A guard for a read-write open of the database at `dir`, made right after the open.
    pub(super) fn after_open(dir: &Path) -> Self {
        let first_log = logs(dir).into_iter().map(|(n, _)| n).max().unwrap_or(0);
        Self {
            dir: Some(dir.to_path_buf()),
            first_log,
            failed: AtomicBool::new(false),
        }
    }

    /// Records that a write returned an error.
    pub(super) fn write_failed(&self) {
        self.failed.store(true, Ordering::Release);
    }

    /// Cuts every torn log this process created; what was found, log by log.
    fn cut(&self) -> Vec<(PathBuf, std::io::Result<LogTail>)> {
        let Some(dir) = &self.dir else {
            return Vec::new();
        };
        if !self.failed.load(Ordering::Acquire) {
            return Vec::new();
        }
        logs(dir)
            .into_iter()
            .filter(|(number, _)| *number >= self.first_log)
            .map(|(_, path)| {
                let tail = wal_tail::cut_torn_tail(&path);
                (path, tail)
            })
            .collect()
    }
}

impl Drop for TailGuard {
    fn drop(&mut self) {
        // Best effort (module invariants): what could not be cut stays for the next open,
        // and says so. A cut is logged too: an operator should know the log was changed.
        for (path, tail) in self.cut() {
            let name = path.display();
            match tail {
                Ok(LogTail::Complete { .. }) => {}
                Ok(LogTail::Torn { keep, len }) => log::warn!(
                    "{name}: cut the last {} bytes (from offset {keep}), the part of a write \
                     that failed which reached the log before the failure",
                    len - keep
                ),
                Ok(LogTail::Unexpected { offset, cause }) => log::warn!(
                    "{name}: left as it is after a failed write (at offset {offset}: {cause}); \
                     the next read-write open may refuse it"
                ),
                Err(e) => log::warn!(
                    "{name}: could not check or cut its end after a failed write ({e}); the \
                     next read-write open may refuse it"
                ),
            }
        }
    }
}

/// Why an open refused a log that ends inside a record no write completed, for each such log
/// in `dir` (read only; empty when none). Added to RocksDB's corruption error, which does
/// not name the log.
pub(super) fn torn_log_notes(dir: &Path) -> Vec<String> {
    let mut logs = logs(dir);
    logs.sort();
    logs.into_iter()
        .filter_map(|(_, path)| {
            let file = std::fs::File::open(&path).ok()?;
            let reader = std::io::BufReader::with_capacity(wal_tail::BLOCK_BYTES, file);
            let LogTail::Torn { keep, len } = wal_tail::scan(reader).ok()? else {
                return None;
            };
            let name = path.file_name()?.to_string_lossy().into_owned();
            Some(format!(
                "{name} ends inside a record no write completed (its last {} bytes, from \
                 offset {keep}: a write that failed, or a process killed while writing); \
                 WAL recovery mode tolerate_corrupted_tail_records drops only those bytes",
                len - keep
            ))
        })
        .collect()
}

/// The write-ahead logs in `dir` (`<number>.log`), with their numbers.
fn logs(dir: &Path) -> Vec<(u64, PathBuf)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter_map(|path| {
            let name = path.file_name()?.to_str()?;
            let number = name.strip_suffix(".log")?.parse::<u64>().ok()?;
            Some((number, path))
        })
        .collect()
}

#[cfg(test)]
#[path = "rocks_tail_tests.rs"]
mod tests;
