//! The storage seam: the few operations the blockstore needs from a key-value engine, as
//! small traits over raw bytes (tikv's `engine_traits` is the model). Everything above this
//! file — insert, chaining, presence, the fetch — is written against [`KvEngine`] and works
//! unchanged on RocksDB (`RocksEngine`, feature `storage`) and on the in-memory
//! [`MemEngine`](super::MemEngine) used by model tests and the model-based fuzz target.
//!
//! Contract every engine keeps (the insert and fetch rules rely on it):
//! - Column families are named by `&'static str` (a `Column::NAME`); a column the engine
//!   does not have reads as empty and refuses writes with `LedgerError::ColumnNotOpen`.
//! - A batch is applied atomically: a reader sees none or all of it, before or after a crash.
//!   Its operations apply in the order they were added. A batch holding a `delete_range`
//!   whose upper key is below its lower key is refused whole by `write` (RocksDB's rule);
//!   `lower == upper` deletes nothing.
//! - `multi_get` returns one slot per key, in key order; keys are sorted ascending.
//! - A cursor walks keys in byte order (forward) or reverse byte order within
//!   `lower..upper` (upper exclusive, `None` = to the end), and sees one consistent view
//!   for its whole life, across seeks. A storage error ends the walk; an ended cursor keeps
//!   returning `None` until it is sought again. `seek` never leaves the bounds: a forward
//!   cursor's next entry is the first key at or after the target, a reverse cursor's the
//!   last key at or before it, among the keys in `lower..upper`.
//! - `catch_up` is a no-op except on a secondary; `compact_range` never changes what is
//!   read; `batch` is refused with `LedgerError::NotWritable` unless opened read-write.
//!
//! `ledger/tests/it/engine_conformance/` checks every rule on every engine
//! (`docs/storage-seam.md#engine-conformance`).

use std::fmt::Debug;
use std::ops::Deref;
use std::path::PathBuf;

use crate::error::Result;

/// How a blockstore is opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AccessMode {
    /// The one writer: creates the database and any missing known column family.
    ReadWrite,
    /// A read-only view of the database as it was when opened (may run beside a writer).
    ReadOnly,
    /// A RocksDB secondary instance: follows a live writer after each
    /// `Blockstore::catch_up`. RocksDB keeps the secondary's own files in `secondary_path`.
    Secondary {
        /// Directory where RocksDB keeps the secondary's own log and manifest files (not the
        /// primary's).
        secondary_path: PathBuf,
    },
}

impl AccessMode {
    /// The mode as said in messages ("read-only", ...).
    pub fn name(&self) -> &'static str {
        match self {
            Self::ReadWrite => "read-write",
            Self::ReadOnly => "read-only",
            Self::Secondary { .. } => "as a secondary",
        }
    }
}

/// Iteration direction of a key range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Ascending key order, from `lower`.
    Forward,
    /// Descending key order, from just below `upper` (or the last key).
    Reverse,
}

/// Point and batched reads.
pub trait KvRead {
    /// A value handed out without a copy where the engine can (RocksDB pins it in its block
    /// cache or memtable); it borrows the engine.
    type Pinned<'a>: Deref<Target = [u8]> + AsRef<[u8]> + Debug
    where
        Self: 'a;

    /// The value of `key` in column `cf`.
    fn get_pinned(&self, cf: &'static str, key: &[u8]) -> Result<Option<Self::Pinned<'_>>>;

    /// One batched read of `keys` (sorted ascending), values in key order.
    fn multi_get_pinned<K: AsRef<[u8]>>(
        &self,
        cf: &'static str,
        keys: &[K],
    ) -> Result<Vec<Option<Self::Pinned<'_>>>>;
}

/// A positioned walk over a key range. Not an `Iterator`: the key and value borrow the
/// cursor until the next call (no copy per entry).
pub trait KvCursor {
    /// Moves to the next entry (the first one on the first call) and returns it; `None` at
    /// the end. A storage error ends the walk.
    fn advance(&mut self) -> Option<Result<(&[u8], &[u8])>>;

    /// Repositions the cursor: the next [`Self::advance`] returns the first entry at or
    /// after `target` (forward) or the last one at or before it (reverse), within the
    /// cursor's bounds. Restarts an ended walk. One cursor sought many times costs far
    /// less than as many cursors (RocksDB builds its merged iterator once).
    fn seek(&mut self, target: &[u8]);
}

/// Ordered key-range scans.
pub trait KvScan {
    /// The cursor [`Self::cursor`] returns; it borrows the engine.
    type Cursor<'a>: KvCursor
    where
        Self: 'a;

    /// A cursor over `lower..upper` of column `cf` (`upper` exclusive, `None` = to the end).
    fn cursor(
        &self,
        cf: &'static str,
        lower: &[u8],
        upper: Option<&[u8]>,
        direction: Direction,
    ) -> Self::Cursor<'_>;
}

/// Writes collected for one atomic apply.
pub trait KvBatch {
    /// Puts `value` at `key` of column `cf` (the batch copies both).
    fn put(&mut self, cf: &'static str, key: &[u8], value: &[u8]) -> Result<()>;
    /// Deletes `key` of column `cf`.
    fn delete(&mut self, cf: &'static str, key: &[u8]) -> Result<()>;
    /// Deletes every key of column `cf` in `lower..upper` (upper exclusive).
    fn delete_range(&mut self, cf: &'static str, lower: &[u8], upper: &[u8]) -> Result<()>;
}

/// Atomic batched writes.
pub trait KvWrite {
    /// The batch [`Self::batch`] returns; it borrows the engine and applies all or nothing.
    type Batch<'a>: KvBatch
    where
        Self: 'a;

    /// An empty batch; `LedgerError::NotWritable` unless the engine may write.
    fn batch(&self) -> Result<Self::Batch<'_>>;

    /// [`Self::batch`] with room reserved for about `bytes` of rows, for engines that can
    /// (a large batch is then not regrown and copied as it fills).
    fn batch_with_capacity(&self, bytes: usize) -> Result<Self::Batch<'_>> {
        let _ = bytes;
        self.batch()
    }

    /// Applies `batch` atomically.
    fn write(&self, batch: Self::Batch<'_>) -> Result<()>;
}

/// A whole engine: reads, scans and writes, shared across threads.
pub trait KvEngine: KvRead + KvScan + KvWrite + Send + Sync + Debug {
    /// How the engine was opened.
    fn mode(&self) -> &AccessMode;

    /// A follower replays what its primary wrote since the last call; a no-op otherwise.
    fn catch_up(&self) -> Result<()>;

    /// Rewrites the files holding `lower..upper` of column `cf` so the space of deleted
    /// keys comes back (RocksDB); a no-op for engines without files.
    fn compact_range(&self, cf: &'static str, lower: &[u8], upper: &[u8]) -> Result<()>;

    /// About how many keys column `cf` holds (RocksDB's estimate; exact in memory).
    fn estimate_num_keys(&self, cf: &'static str) -> Result<u64>;
}
