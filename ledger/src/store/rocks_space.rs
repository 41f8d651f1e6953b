//! Disk space and the RocksDB engine (`docs/damage-and-repair.md#a-full-disk`): the options
//! that keep a read-write open from writing table files, and the purge's ways of giving
//! space back. A child module of `rocks.rs`, the only place that names `rocksdb::` types.
//!
//! Invariants:
//! - A read-write open writes no SST file: the write-ahead logs are replayed into memory
//!   and kept until a later flush (`avoid_flush_during_recovery`). An open that fails on a
//!   full disk therefore leaves no partly written or unlisted table file behind, and an
//!   open needs only the room of a new MANIFEST, OPTIONS file and log. (RocksDB still
//!   flushes a column family whose replayed writes overflow its write buffer; in normal
//!   operation a family flushes before its unflushed writes reach that size.)
//! - Closing writes no SST file either (`avoid_flush_during_shutdown`): the logs hold every
//!   write that is not in a table file yet, and they are replayed at the next open.
//! - Once the logs together pass [`MAX_TOTAL_WAL_BYTES`], RocksDB flushes the column
//!   families that keep the oldest log alive, so one rarely written column cannot pin
//!   gigabytes of logs.
//! - Every file writer (the write-ahead log, flushes, compactions) stages up to
//!   [`FILE_WRITER_BUFFER_BYTES`] (256 KiB; RocksDB's default is 1 MiB) before a `write`:
//!   a fresh process's one-slot insert is ~15% faster (fewer page faults as the buffer
//!   grows, BENCHMARKS.md). A log record larger than the buffer (a generated slot with code
//!   shreds is ~600 KiB) reaches the file in several `write`s, and a full disk during a
//!   later one leaves the first parts in the log; the engine cuts that half-written record
//!   off when it closes (`rocks_tail.rs`), so the next read-write open (in
//!   `absolute_consistency`) replays every write that returned and nothing of the failed
//!   one. RocksDB itself trims a failed `write`'s partial bytes when it closes the log.

use rocksdb::{BottommostLevelCompaction, CompactOptions, Options};

use super::{DB_WIDE, RocksEngine, storage};
use crate::error::{LedgerError, Result};

/// Bound on the write-ahead logs' total size (RocksDB's default is four times the sum of
/// every column family's write buffers, several GiB with bstore's 24 families).
pub(crate) const MAX_TOTAL_WAL_BYTES: u64 = 256 << 20;

/// The most a RocksDB file writer buffers before writing (module invariants). The
/// full-disk scenarios (`bstore/tests/it/cli_full_disk_*.rs`) tear records at this size.
pub(crate) const FILE_WRITER_BUFFER_BYTES: u64 = 256 << 10;

/// The database-wide options a read-write open adds (module invariants).
pub(super) fn read_write_options(base: &mut Options) -> Result<Options> {
    let mut opts = base
        .get_options_from_string(
            "avoid_flush_during_recovery=true;avoid_flush_during_shutdown=true",
        )
        .map_err(|e| LedgerError::Storage {
            column: DB_WIDE,
            source: Box::new(e),
        })?;
    opts.set_max_total_wal_size(MAX_TOTAL_WAL_BYTES);
    opts.set_writable_file_max_buffer_size(FILE_WRITER_BUFFER_BYTES);
    Ok(opts)
}

/// A manual compaction that rewrites the bottommost level too: range tombstones over rows
/// that already sit in the last level free nothing otherwise (RocksDB skips that level by
/// default when no compaction filter is set).
pub(super) fn compaction_options() -> CompactOptions {
    let mut opts = CompactOptions::default();
    opts.set_bottommost_level_compaction(BottommostLevelCompaction::ForceOptimized);
    opts
}

impl RocksEngine {
    /// Deletes the SST files of column `cf` whose every key lies in `first..=last` (both
    /// ends inclusive, as RocksDB compares them), without writing a new file: the only way
    /// to free space that needs none. RocksDB keeps level-0 files and files that reach
    /// outside the range; a compaction rewrites those.
    pub(crate) fn delete_files_in_range(
        &self,
        cf: &'static str,
        first: &[u8],
        last: &[u8],
    ) -> Result<()> {
        let Some(handle) = self.cf(cf) else {
            return Ok(());
        };
        self.db
            .delete_file_in_range_cf(handle, first, last)
            .map_err(|e| storage(cf, e))
    }
}
