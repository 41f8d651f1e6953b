//! The RocksDB engine: the only file that names `rocksdb::` types.
//!
//! It offers typed access per [`Column`]: point gets (owned or pinned), one batched
//! multi-get over sorted keys returning pinned slices, key-range iteration, atomic write
//! batches, and catching a secondary up with its primary. Everything above it sees
//! [`AccessMode`], [`PinnedBytes`] and `LedgerError`, never RocksDB.

use std::marker::PhantomData;
use std::ops::Deref;
use std::path::{Path, PathBuf};

use rocksdb::{
    ColumnFamily, ColumnFamilyDescriptor, DB, DBCompressionType, DBPinnableSlice, DBRawIterator,
    Options, ReadOptions, WriteBatch,
};

use super::column::{Column, Compression};
use super::columns;
use crate::error::{LedgerError, Result};

/// Sub-directory of the ledger that holds the RocksDB database.
const ROCKSDB_DIR: &str = "rocksdb";
/// Column name used in errors that concern the whole database.
const DB_WIDE: &str = "<database>";

/// How a blockstore is opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AccessMode {
    /// The one writer: creates the database and any missing known column family.
    ReadWrite,
    /// A read-only view of the database as it was when opened (may run beside a writer).
    ReadOnly,
    /// A RocksDB secondary instance: follows a live writer after each
    /// `Blockstore::catch_up`. RocksDB keeps the secondary's own files in `secondary_path`.
    Secondary { secondary_path: PathBuf },
}

impl AccessMode {
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Self::ReadWrite => "read-write",
            Self::ReadOnly => "read-only",
            Self::Secondary { .. } => "as a secondary",
        }
    }
}

/// A value pinned inside RocksDB's block cache or memtable: no copy is made. Holds a borrow
/// of the blockstore.
pub struct PinnedBytes<'a>(DBPinnableSlice<'a>);

impl Deref for PinnedBytes<'_> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl AsRef<[u8]> for PinnedBytes<'_> {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl std::fmt::Debug for PinnedBytes<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PinnedBytes({} bytes)", self.0.len())
    }
}

/// Iteration direction of a key range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Direction {
    Forward,
    Reverse,
}

fn storage(column: &'static str, e: impl std::fmt::Display) -> LedgerError {
    LedgerError::Storage {
        column,
        message: e.to_string(),
    }
}

fn cf_options(compression: Compression) -> Options {
    let mut opts = Options::default();
    if compression == Compression::None {
        opts.set_compression_type(DBCompressionType::None);
    }
    opts
}

/// An open RocksDB database. `Send + Sync`: RocksDB serialises concurrent access itself.
pub(crate) struct Engine {
    db: DB,
    mode: AccessMode,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Engine({:?}, {})", self.db.path(), self.mode.name())
    }
}

impl Engine {
    /// Opens `<ledger>/rocksdb`. Every column family on disk is opened (RocksDB requires
    /// it; unknown ones with default options); in read-write mode the known ones that are
    /// missing are created.
    pub(crate) fn open(ledger: &Path, mode: AccessMode) -> Result<Self> {
        let path = ledger.join(ROCKSDB_DIR);
        let existing = match DB::list_cf(&Options::default(), &path) {
            Ok(names) => names,
            // No database yet: only read-write may create one.
            Err(_) if mode == AccessMode::ReadWrite => Vec::new(),
            Err(e) => return Err(storage(DB_WIDE, format!("{}: {e}", path.display()))),
        };
        let mut descriptors: Vec<ColumnFamilyDescriptor> = Vec::new();
        for (name, compression) in columns::ALL {
            if mode == AccessMode::ReadWrite || existing.iter().any(|e| e == name) {
                descriptors.push(ColumnFamilyDescriptor::new(name, cf_options(compression)));
            }
        }
        for name in &existing {
            if !columns::ALL.iter().any(|(known, _)| known == name) {
                descriptors.push(ColumnFamilyDescriptor::new(name, Options::default()));
            }
        }
        let mut db_opts = Options::default();
        let db = match &mode {
            AccessMode::ReadWrite => {
                db_opts.create_if_missing(true);
                db_opts.create_missing_column_families(true);
                DB::open_cf_descriptors(&db_opts, &path, descriptors)
            }
            AccessMode::ReadOnly => {
                DB::open_cf_descriptors_read_only(&db_opts, &path, descriptors, false)
            }
            AccessMode::Secondary { secondary_path } => {
                // RocksDB requires a secondary to keep every file open.
                db_opts.set_max_open_files(-1);
                DB::open_cf_descriptors_as_secondary(
                    &db_opts,
                    path.as_path(),
                    secondary_path.as_path(),
                    descriptors,
                )
            }
        }
        .map_err(|e| storage(DB_WIDE, format!("{}: {e}", path.display())))?;
        Ok(Self { db, mode })
    }

    pub(crate) fn mode(&self) -> &AccessMode {
        &self.mode
    }

    /// The handle of `C`; `None` when a read-only or secondary instance opened a database
    /// that lacks the column (it then reads as empty).
    fn cf<C: Column>(&self) -> Option<&ColumnFamily> {
        self.db.cf_handle(C::NAME)
    }

    /// Errors unless the instance may write.
    fn ensure_writable(&self) -> Result<()> {
        match self.mode {
            AccessMode::ReadWrite => Ok(()),
            _ => Err(LedgerError::NotWritable {
                mode: self.mode.name(),
            }),
        }
    }

    /// Replays the primary's new writes into a secondary; a no-op for other modes.
    pub(crate) fn catch_up(&self) -> Result<()> {
        match self.mode {
            AccessMode::Secondary { .. } => self
                .db
                .try_catch_up_with_primary()
                .map_err(|e| storage(DB_WIDE, e)),
            _ => Ok(()),
        }
    }

    /// The value at `key`, pinned (no copy).
    pub(crate) fn get_pinned<C: Column>(&self, key: C::Key) -> Result<Option<PinnedBytes<'_>>> {
        let Some(cf) = self.cf::<C>() else {
            return Ok(None);
        };
        let value = self
            .db
            .get_pinned_cf(cf, C::encode_key(key))
            .map_err(|e| storage(C::NAME, e))?;
        Ok(value.map(PinnedBytes))
    }

    /// The decoded value at `key`.
    pub(crate) fn get<C: Column>(&self, key: C::Key) -> Result<Option<C::Value>> {
        match self.get_pinned::<C>(key)? {
            Some(bytes) => C::decode_value(key, &bytes).map(Some),
            None => Ok(None),
        }
    }

    /// One batched multi-get. `keys` must be sorted ascending (RocksDB is told so and skips
    /// sorting); values come back pinned, in key order.
    pub(crate) fn multi_get_pinned<C: Column>(
        &self,
        keys: &[C::KeyBytes],
    ) -> Result<Vec<Option<PinnedBytes<'_>>>> {
        let Some(cf) = self.cf::<C>() else {
            return Ok(keys.iter().map(|_| None).collect());
        };
        debug_assert!(keys.windows(2).all(|w| w[0].as_ref() < w[1].as_ref()));
        self.db
            .batched_multi_get_cf(cf, keys.iter().map(AsRef::as_ref), true)
            .into_iter()
            .map(|r| {
                r.map(|v| v.map(PinnedBytes))
                    .map_err(|e| storage(C::NAME, e))
            })
            .collect()
    }

    /// Keys of `C` in `lower..upper` (upper `None`: to the end), decoded with `decode`.
    pub(crate) fn range<C: Column, T>(
        &self,
        lower: C::KeyBytes,
        upper: Option<C::KeyBytes>,
        direction: Direction,
        decode: fn(&[u8], &[u8]) -> Result<T>,
    ) -> RangeIter<'_, C, T> {
        let Some(cf) = self.cf::<C>() else {
            return RangeIter {
                raw: None,
                direction,
                started: false,
                decode,
                _column: PhantomData,
            };
        };
        let mut opts = ReadOptions::default();
        opts.set_iterate_lower_bound(lower.as_ref());
        if let Some(upper) = upper {
            opts.set_iterate_upper_bound(upper.as_ref());
        }
        let raw = self.db.raw_iterator_cf_opt(cf, opts);
        RangeIter {
            raw: Some(raw),
            direction,
            started: false,
            decode,
            _column: PhantomData,
        }
    }

    /// A write batch for this database; `NotWritable` unless opened read-write.
    pub(crate) fn batch(&self) -> Result<Batch<'_>> {
        self.ensure_writable()?;
        Ok(Batch {
            engine: self,
            inner: WriteBatch::default(),
        })
    }

    /// Applies `batch` atomically. Written to the WAL without fsync: a killed process
    /// loses nothing that returned; a power loss may lose the latest batches (never part of
    /// one).
    pub(crate) fn write(&self, batch: Batch<'_>) -> Result<()> {
        self.db.write(batch.inner).map_err(|e| storage(DB_WIDE, e))
    }
}

/// Puts collected for one atomic write.
pub(crate) struct Batch<'e> {
    engine: &'e Engine,
    inner: WriteBatch,
}

impl Batch<'_> {
    /// Puts an encoded value.
    pub(crate) fn put<C: Column>(&mut self, key: C::Key, value: &C::Value) -> Result<()> {
        self.put_bytes::<C>(key, &C::encode_value(value))
    }

    /// Puts raw value bytes (a shred payload) without an intermediate copy; RocksDB copies
    /// them into the batch.
    pub(crate) fn put_bytes<C: Column>(&mut self, key: C::Key, value: &[u8]) -> Result<()> {
        let cf = self
            .engine
            .cf::<C>()
            .ok_or_else(|| storage(C::NAME, "column family is not open (read-only instance)"))?;
        self.inner.put_cf(cf, C::encode_key(key), value);
        Ok(())
    }

    /// Deletes the value at `key`.
    pub(crate) fn delete<C: Column>(&mut self, key: C::Key) -> Result<()> {
        let cf = self
            .engine
            .cf::<C>()
            .ok_or_else(|| storage(C::NAME, "column family is not open (read-only instance)"))?;
        self.inner.delete_cf(cf, C::encode_key(key));
        Ok(())
    }
}

/// Iterator over a key range of column `C`, yielding `decode(key, value)`. The first
/// storage error ends it.
pub(crate) struct RangeIter<'a, C, T> {
    raw: Option<DBRawIterator<'a>>,
    direction: Direction,
    started: bool,
    decode: fn(&[u8], &[u8]) -> Result<T>,
    _column: PhantomData<C>,
}

impl<C: Column, T> Iterator for RangeIter<'_, C, T> {
    type Item = Result<T>;

    fn next(&mut self) -> Option<Result<T>> {
        let raw = self.raw.as_mut()?;
        match (self.started, self.direction) {
            (false, Direction::Forward) => raw.seek_to_first(),
            (false, Direction::Reverse) => raw.seek_to_last(),
            (true, Direction::Forward) => raw.next(),
            (true, Direction::Reverse) => raw.prev(),
        }
        self.started = true;
        if !raw.valid() {
            let status = raw.status();
            self.raw = None;
            return status.err().map(|e| Err(storage(C::NAME, e)));
        }
        let item = match (raw.key(), raw.value()) {
            (Some(k), Some(v)) => (self.decode)(k, v),
            _ => Err(storage(C::NAME, "iterator positioned without a key")),
        };
        if item.is_err() {
            self.raw = None;
        }
        Some(item)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Creates `<ledger>/rocksdb` holding only the default column family and `extra` (as
    /// Agave's columns this crate does not know would be), with one value in `extra`.
    pub(crate) fn create_db_with_extra_cf(ledger: &Path, extra: &str) {
        let mut opts = Options::default();
        opts.create_if_missing(true);
        opts.create_missing_column_families(true);
        let db = DB::open_cf(&opts, ledger.join(ROCKSDB_DIR), [extra]).expect("create");
        let cf = db.cf_handle(extra).expect("extra column");
        db.put_cf(cf, b"k", b"v").expect("put");
    }

    #[test]
    fn read_write_open_keeps_unknown_columns_and_adds_known_ones() {
        let dir = tempfile::tempdir().expect("tempdir");
        create_db_with_extra_cf(dir.path(), "index");
        drop(Engine::open(dir.path(), AccessMode::ReadWrite).expect("open"));
        let mut names =
            DB::list_cf(&Options::default(), dir.path().join(ROCKSDB_DIR)).expect("list");
        names.sort();
        let mut want: Vec<String> = columns::ALL.iter().map(|(n, _)| n.to_string()).collect();
        want.extend(["default".to_string(), "index".to_string()]);
        want.sort();
        assert_eq!(names, want);
        let engine = Engine::open(dir.path(), AccessMode::ReadOnly).expect("read-only");
        let cf = engine.db.cf_handle("index").expect("unknown column opened");
        assert_eq!(
            engine.db.get_cf(cf, b"k").expect("get").as_deref(),
            Some(&b"v"[..])
        );
    }
}
