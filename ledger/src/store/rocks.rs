//! The RocksDB engine: the only file that names `rocksdb::` types. It implements the
//! storage seam of `kv.rs` over one database at `<ledger>/rocksdb`: point gets and one
//! batched multi-get over sorted keys returning pinned slices, key-range cursors, atomic
//! write batches, and catching a secondary up with its primary.

use std::ops::Deref;
use std::path::Path;

use rocksdb::{
    ColumnFamily, ColumnFamilyDescriptor, DB, DBCompressionType, DBPinnableSlice, DBRawIterator,
    DBRecoveryMode, ErrorKind, Options, ReadOptions, WriteBatch,
};

use super::column::{Column, Compression};
use super::columns;
use super::kv::{AccessMode, Direction, KvBatch, KvCursor, KvEngine, KvRead, KvScan, KvWrite};
use super::open_checks::{self, DirState, LiveFile, ROCKSDB_DIR};
use super::open_options::OpenOptions;
use super::wal_mode::WalRecoveryMode;
use crate::error::{LedgerError, Result};

#[path = "rocks_space.rs"]
mod space;
#[path = "rocks_tail.rs"]
mod tail;

/// Column name used in errors that concern the whole database.
const DB_WIDE: &str = "<database>";

/// The info log's size bound: `LOG_FILES_KEPT` files of `LOG_FILE_BYTES`.
const LOG_FILE_BYTES: usize = 8 << 20;
const LOG_FILES_KEPT: usize = 3;
/// How far a bounded forward scan of `data_shred` reads ahead on a block-cache miss (a
/// slot's shreds are one contiguous key range; RocksDB trims the read at the scan's upper
/// bound and at blocks already cached). Set explicitly, RocksDB reads ahead into its own
/// buffer only on a miss; left to RocksDB's implicit readahead it asked the kernel to read
/// ahead (`readahead(2)`) each time the scan crossed its window, cached blocks or not
/// (`docs/on-disk-layout.md`). 256 KiB is RocksDB's own ceiling for the implicit one.
const SCAN_READAHEAD_BYTES: usize = 256 << 10;

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

/// `LedgerError::Storage` keeping RocksDB's error as the typed source.
fn storage(column: &'static str, e: rocksdb::Error) -> LedgerError {
    LedgerError::Storage {
        column,
        source: Box::new(e),
    }
}

/// A failed open: RocksDB's corruption errors become `LedgerError::Damaged` naming the
/// files it read (it does not name a damaged write-ahead log itself), and each log that
/// ends inside an incomplete record (`rocks_tail.rs`); others stay `Open`.
fn open_failure(path: &Path, mode: &AccessMode, e: rocksdb::Error) -> LedgerError {
    if e.kind() == ErrorKind::Corruption {
        let mut reason = format!("RocksDB refused to open it {}: {e}", mode.name());
        for note in tail::torn_log_notes(path) {
            reason.push_str("; ");
            reason.push_str(&note);
        }
        return LedgerError::Damaged {
            path: path.to_path_buf(),
            file: open_checks::files_read_at_open(path),
            reason,
        };
    }
    LedgerError::Open {
        path: path.to_path_buf(),
        mode: mode.name(),
        source: Box::new(e),
    }
}

fn rocks_wal_mode(mode: WalRecoveryMode) -> DBRecoveryMode {
    match mode {
        WalRecoveryMode::TolerateCorruptedTailRecords => {
            DBRecoveryMode::TolerateCorruptedTailRecords
        }
        WalRecoveryMode::AbsoluteConsistency => DBRecoveryMode::AbsoluteConsistency,
        WalRecoveryMode::PointInTime => DBRecoveryMode::PointInTime,
        WalRecoveryMode::SkipAnyCorruptedRecord => DBRecoveryMode::SkipAnyCorruptedRecord,
    }
}

fn missing_column(column: &'static str) -> LedgerError {
    LedgerError::ColumnNotOpen { column }
}

fn cf_options(compression: Compression) -> Options {
    let mut opts = Options::default();
    if compression == Compression::None {
        opts.set_compression_type(DBCompressionType::None);
    }
    opts
}

/// Whether a MANIFEST probe fails on a damaged live file or only lists it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Paranoid {
    Yes,
    No,
}

/// An open RocksDB database. `Send + Sync`: RocksDB serialises concurrent access itself.
pub struct RocksEngine {
    db: DB,
    mode: AccessMode,
    /// Declared after `db`, so dropped after RocksDB closed its logs (`rocks_tail.rs`).
    tail: tail::TailGuard,
}

impl std::fmt::Debug for RocksEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RocksEngine({:?}, {})", self.db.path(), self.mode.name())
    }
}

impl RocksEngine {
    /// The column families of the existing database at `db` (an error when they cannot be
    /// listed: never read as "no database").
    pub(crate) fn column_names(db: &Path) -> Result<Vec<String>> {
        DB::list_cf(&Options::default(), db).map_err(|e| LedgerError::Open {
            path: db.to_path_buf(),
            mode: "to list its column families",
            source: Box::new(e),
        })
    }

    /// Opens `<ledger>/rocksdb` in `mode`; read-write creates a database only in a
    /// missing or empty directory (see [`RocksEngine::open_with`]).
    pub fn open(ledger: &Path, mode: AccessMode) -> Result<Self> {
        Self::open_with(ledger, &OpenOptions::for_mode(mode))
    }

    /// Opens `<ledger>/rocksdb`. Every column family on disk is opened (RocksDB requires
    /// it; unknown ones with default options); in read-write mode the known ones that are
    /// missing are created. A database is created only as `open_checks.rs` allows, and
    /// every live SST file is checked against RocksDB's metadata after the open.
    pub fn open_with(ledger: &Path, options: &OpenOptions) -> Result<Self> {
        let engine = Self::open_unverified(ledger, options)?;
        engine.verify_live_files(&ledger.join(ROCKSDB_DIR))?;
        Ok(engine)
    }

    /// [`RocksEngine::open_with`] without the live-file check (`ledger check` reports every
    /// damaged file instead of the first).
    pub(crate) fn open_unverified(ledger: &Path, options: &OpenOptions) -> Result<Self> {
        let mode = options.mode.clone();
        let path = ledger.join(ROCKSDB_DIR);
        let state = open_checks::inspect(ledger, options)?;
        let existing = match state {
            DirState::Database => Self::column_names(&path)?,
            DirState::CreateNew => Vec::new(),
        };
        let open_error = |e: rocksdb::Error| open_failure(&path, &mode, e);
        let mut descriptors: Vec<ColumnFamilyDescriptor> = Vec::new();
        // Every declared family in read-write mode (the missing ones are created empty:
        // Agave opens a ledger read-only or as a secondary only when every column it knows
        // exists), the ones on disk otherwise; other families on disk with default options.
        for family in &columns::FAMILIES {
            if mode == AccessMode::ReadWrite || existing.iter().any(|e| e == family.name) {
                descriptors.push(ColumnFamilyDescriptor::new(
                    family.name,
                    cf_options(family.compression),
                ));
            }
        }
        for name in &existing {
            if columns::family(name).is_none() {
                descriptors.push(ColumnFamilyDescriptor::new(name, Options::default()));
            }
        }
        let mut db_opts = Options::default();
        // RocksDB's info log grows with every flush and compaction (a long run with
        // retention purges often): keep at most 3 files of 8 MiB.
        db_opts.set_max_log_file_size(LOG_FILE_BYTES);
        db_opts.set_keep_log_file_num(LOG_FILES_KEPT);
        db_opts.set_paranoid_checks(true);
        db_opts.set_wal_recovery_mode(rocks_wal_mode(options.wal_recovery_mode()));
        let db = match &mode {
            AccessMode::ReadWrite => {
                let mut db_opts = space::read_write_options(&mut db_opts)?;
                db_opts.create_if_missing(state == DirState::CreateNew);
                db_opts.create_missing_column_families(true);
                DB::open_cf_descriptors(&db_opts, &path, descriptors)
            }
            AccessMode::ReadOnly => {
                DB::open_cf_descriptors_read_only(&db_opts, &path, descriptors, false)
            }
            AccessMode::Secondary { secondary_path } => {
                // RocksDB requires a secondary to keep every file open.
                db_opts.set_max_open_files(-1);
                // Each catch-up loads the table handlers of what changed; with more than one
                // opening thread RocksDB starts that many threads on every call, which cost
                // ~20 ms of CPU per catch-up even with nothing new (docs/live-validator.md).
                db_opts.set_max_file_opening_threads(1);
                DB::open_cf_descriptors_as_secondary(
                    &db_opts,
                    path.as_path(),
                    secondary_path.as_path(),
                    descriptors,
                )
            }
        }
        .map_err(open_error)?;
        let tail = match mode {
            AccessMode::ReadWrite => tail::TailGuard::after_open(&path),
            _ => tail::TailGuard::default(),
        };
        Ok(Self { db, mode, tail })
    }

    /// Every live SST file exists with its listed size. A secondary cannot tell: it
    /// recovers to the newest state whose files all exist, so a missing file reads as an
    /// older, smaller ledger. It is checked through a read-only probe of the MANIFEST
    /// instead, which may race a live primary's compaction: a failing probe is retried once.
    fn verify_live_files(&self, path: &Path) -> Result<()> {
        let AccessMode::Secondary { secondary_path } = &self.mode else {
            return open_checks::verify_live_files(path, &self.live_files()?);
        };
        let scratch = secondary_path.join("bstore-manifest-probe");
        std::fs::create_dir_all(&scratch)
            .map_err(|e| open_checks::io_error("cannot create", &scratch, e))?;
        let probe = || -> Result<()> {
            let files = Self::manifest_live_files(path, &scratch, Paranoid::Yes)?;
            open_checks::verify_live_files(path, &files)
        };
        probe().or_else(|_| probe())
    }

    /// The live SST files the MANIFEST of `path` lists, through a read-only open that reads
    /// no write-ahead log (its log directory is the empty `scratch`). `Paranoid::Yes` fails
    /// naming any live file that is missing or has the wrong size; `No` lists them all.
    pub(crate) fn manifest_live_files(
        path: &Path,
        scratch: &Path,
        paranoid: Paranoid,
    ) -> Result<Vec<LiveFile>> {
        let descriptors: Vec<ColumnFamilyDescriptor> = Self::column_names(path)?
            .into_iter()
            .map(|name| ColumnFamilyDescriptor::new(name, Options::default()))
            .collect();
        let mut opts = Options::default();
        opts.set_paranoid_checks(paranoid == Paranoid::Yes);
        opts.set_wal_dir(scratch);
        opts.set_db_log_dir(scratch);
        // Table files are opened on demand: the probe only needs the metadata.
        opts.set_max_open_files(16);
        let probe = DB::open_cf_descriptors_read_only(&opts, path, descriptors, false)
            .map_err(|e| open_failure(path, &AccessMode::ReadOnly, e))?;
        let engine = Self {
            db: probe,
            mode: AccessMode::ReadOnly,
            tail: tail::TailGuard::default(),
        };
        engine.live_files()
    }

    /// The live SST files in RocksDB's metadata.
    pub(crate) fn live_files(&self) -> Result<Vec<LiveFile>> {
        let files = self.db.live_files().map_err(|e| storage(DB_WIDE, e))?;
        Ok(files
            .into_iter()
            .map(|f| LiveFile {
                column: f.column_family_name,
                name: f.name.trim_start_matches('/').to_string(),
                size: f.size as u64,
            })
            .collect())
    }

    /// Writes every column family's memtable to SST files, so nothing is left only in the
    /// write-ahead log. A no-op unless read-write.
    pub fn flush(&self) -> Result<()> {
        if self.mode != AccessMode::ReadWrite {
            return Ok(());
        }
        let names = Self::column_names(self.db.path())?;
        for name in &names {
            if let Some(handle) = self.db.cf_handle(name) {
                self.db.flush_cf(handle).map_err(|e| storage(DB_WIDE, e))?;
            }
        }
        Ok(())
    }

    /// Reads every entry of column family `name` with block checksums verified and without
    /// filling the cache; the number of entries, or the first error (which names the file
    /// when RocksDB knows it).
    pub(crate) fn scan_verified(&self, name: &str) -> Result<u64> {
        let Some(handle) = self.db.cf_handle(name) else {
            return Ok(0);
        };
        let mut opts = ReadOptions::default();
        opts.set_verify_checksums(true);
        opts.fill_cache(false);
        let mut raw = self.db.raw_iterator_cf_opt(handle, opts);
        raw.seek_to_first();
        let mut entries = 0u64;
        while raw.valid() {
            entries += 1;
            raw.next();
        }
        raw.status().map_err(|e| storage(DB_WIDE, e))?;
        Ok(entries)
    }

    /// RocksDB's repair of the database directory `db` (it rebuilds the MANIFEST from the
    /// SST files, turns the write-ahead logs into SST files, and moves what it cannot use
    /// into `db/lost`). The caller has backed up the files first.
    pub(crate) fn repair_database(db: &Path) -> Result<()> {
        let mut opts = Options::default();
        opts.set_max_log_file_size(LOG_FILE_BYTES);
        opts.set_keep_log_file_num(LOG_FILES_KEPT);
        DB::repair(&opts, db).map_err(|e| LedgerError::Open {
            path: db.to_path_buf(),
            mode: "for repair",
            source: Box::new(e),
        })
    }

    /// The handle of `name`; `None` when a read-only or secondary instance opened a
    /// database that lacks the column (it then reads as empty).
    fn cf(&self, name: &'static str) -> Option<&ColumnFamily> {
        self.db.cf_handle(name)
    }
}

impl KvRead for RocksEngine {
    type Pinned<'a> = PinnedBytes<'a>;

    fn get_pinned(&self, cf: &'static str, key: &[u8]) -> Result<Option<PinnedBytes<'_>>> {
        let Some(handle) = self.cf(cf) else {
            return Ok(None);
        };
        let value = self
            .db
            .get_pinned_cf(handle, key)
            .map_err(|e| storage(cf, e))?;
        Ok(value.map(PinnedBytes))
    }

    /// RocksDB is told the keys are sorted and skips sorting them.
    fn multi_get_pinned<K: AsRef<[u8]>>(
        &self,
        cf: &'static str,
        keys: &[K],
    ) -> Result<Vec<Option<PinnedBytes<'_>>>> {
        let Some(handle) = self.cf(cf) else {
            return Ok(keys.iter().map(|_| None).collect());
        };
        self.db
            .batched_multi_get_cf(handle, keys.iter().map(AsRef::as_ref), true)
            .into_iter()
            .map(|r| r.map(|v| v.map(PinnedBytes)).map_err(|e| storage(cf, e)))
            .collect()
    }
}

/// A RocksDB raw iterator inside its bounds.
pub struct RocksCursor<'a> {
    /// `None`: the column is not open (the cursor is empty).
    raw: Option<DBRawIterator<'a>>,
    column: &'static str,
    direction: Direction,
    state: CursorState,
}

/// Where a [`RocksCursor`] is in its walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CursorState {
    /// Not positioned: the first `advance` goes to the first entry of the range.
    Fresh,
    /// On an entry already returned: `advance` steps past it.
    Walking,
    /// Positioned by `seek` on an entry not yet returned: `advance` returns it.
    Sought,
    /// At the end of the range or after an error: `advance` returns `None`.
    Ended,
}

impl std::fmt::Debug for RocksCursor<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RocksCursor({})", self.column)
    }
}

impl KvCursor for RocksCursor<'_> {
    fn advance(&mut self) -> Option<Result<(&[u8], &[u8])>> {
        let raw = self.raw.as_mut()?;
        match (self.state, self.direction) {
            (CursorState::Ended, _) => return None,
            (CursorState::Sought, _) => {}
            (CursorState::Fresh, Direction::Forward) => raw.seek_to_first(),
            (CursorState::Fresh, Direction::Reverse) => raw.seek_to_last(),
            (CursorState::Walking, Direction::Forward) => raw.next(),
            (CursorState::Walking, Direction::Reverse) => raw.prev(),
        }
        if !raw.valid() {
            self.state = CursorState::Ended;
            return raw.status().err().map(|e| Err(storage(self.column, e)));
        }
        self.state = CursorState::Walking;
        let column = self.column;
        let raw = self.raw.as_ref()?;
        Some(match (raw.key(), raw.value()) {
            (Some(k), Some(v)) => Ok((k, v)),
            _ => Err(LedgerError::CursorUnpositioned { column }),
        })
    }

    fn seek(&mut self, target: &[u8]) {
        let Some(raw) = self.raw.as_mut() else {
            return;
        };
        // RocksDB clamps the target to the iterator's bounds (`DBIter::SetSavedKeyTo*`).
        match self.direction {
            Direction::Forward => raw.seek(target),
            Direction::Reverse => raw.seek_for_prev(target),
        }
        self.state = CursorState::Sought;
    }
}

impl KvScan for RocksEngine {
    type Cursor<'a> = RocksCursor<'a>;

    fn cursor(
        &self,
        cf: &'static str,
        lower: &[u8],
        upper: Option<&[u8]>,
        direction: Direction,
    ) -> RocksCursor<'_> {
        let raw = self.cf(cf).map(|handle| {
            let mut opts = ReadOptions::default();
            opts.set_iterate_lower_bound(lower);
            if let Some(upper) = upper {
                opts.set_iterate_upper_bound(upper);
                if direction == Direction::Forward && cf == columns::DataShred::NAME {
                    opts.set_readahead_size(SCAN_READAHEAD_BYTES);
                }
            }
            self.db.raw_iterator_cf_opt(handle, opts)
        });
        RocksCursor {
            raw,
            column: cf,
            direction,
            state: CursorState::Fresh,
        }
    }
}

/// Puts collected for one atomic write.
pub struct RocksBatch<'e> {
    engine: &'e RocksEngine,
    inner: WriteBatch,
}

impl std::fmt::Debug for RocksBatch<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RocksBatch({} writes)", self.inner.len())
    }
}

impl KvBatch for RocksBatch<'_> {
    fn put(&mut self, cf: &'static str, key: &[u8], value: &[u8]) -> Result<()> {
        let handle = self.engine.cf(cf).ok_or_else(|| missing_column(cf))?;
        self.inner.put_cf(handle, key, value);
        Ok(())
    }

    fn delete(&mut self, cf: &'static str, key: &[u8]) -> Result<()> {
        let handle = self.engine.cf(cf).ok_or_else(|| missing_column(cf))?;
        self.inner.delete_cf(handle, key);
        Ok(())
    }

    fn delete_range(&mut self, cf: &'static str, lower: &[u8], upper: &[u8]) -> Result<()> {
        let handle = self.engine.cf(cf).ok_or_else(|| missing_column(cf))?;
        self.inner.delete_range_cf(handle, lower, upper);
        Ok(())
    }
}

impl KvWrite for RocksEngine {
    type Batch<'a> = RocksBatch<'a>;

    fn batch(&self) -> Result<RocksBatch<'_>> {
        self.batch_with_capacity(0)
    }

    fn batch_with_capacity(&self, bytes: usize) -> Result<RocksBatch<'_>> {
        match self.mode {
            AccessMode::ReadWrite => Ok(RocksBatch {
                engine: self,
                // Capacity 0 is `WriteBatch::default()`'s (the 12-byte header only).
                inner: WriteBatch::with_capacity_bytes(bytes),
            }),
            _ => Err(LedgerError::NotWritable {
                mode: self.mode.name(),
            }),
        }
    }

    /// Written to the WAL without fsync: a killed process loses nothing that returned; a
    /// power loss may lose the latest batches (never part of one). See the README's
    /// durability section for the setting a validator runs with.
    ///
    /// A failed write may leave part of its record in the log; the engine cuts it off when
    /// it closes (`rocks_tail.rs`).
    fn write(&self, batch: RocksBatch<'_>) -> Result<()> {
        self.db.write(batch.inner).map_err(|e| {
            self.tail.write_failed();
            storage(DB_WIDE, e)
        })
    }
}

impl KvEngine for RocksEngine {
    fn mode(&self) -> &AccessMode {
        &self.mode
    }

    fn catch_up(&self) -> Result<()> {
        match self.mode {
            AccessMode::Secondary { .. } => self
                .db
                .try_catch_up_with_primary()
                .map_err(|e| storage(DB_WIDE, e)),
            _ => Ok(()),
        }
    }

    fn compact_range(&self, cf: &'static str, lower: &[u8], upper: &[u8]) -> Result<()> {
        if let Some(handle) = self.cf(cf) {
            let opts = space::compaction_options();
            self.db
                .compact_range_cf_opt(handle, Some(lower), Some(upper), &opts);
        }
        Ok(())
    }

    fn estimate_num_keys(&self, cf: &'static str) -> Result<u64> {
        let Some(handle) = self.cf(cf) else {
            return Ok(0);
        };
        self.db
            .property_int_value_cf(handle, "rocksdb.estimate-num-keys")
            .map(Option::unwrap_or_default)
            .map_err(|e| storage(cf, e))
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
        create_db_with_extra_cf(dir.path(), "transaction_status");
        drop(RocksEngine::open(dir.path(), AccessMode::ReadWrite).expect("open"));
        let mut names =
            DB::list_cf(&Options::default(), dir.path().join(ROCKSDB_DIR)).expect("list");
        names.sort();
        let mut want: Vec<String> = columns::FAMILIES
            .iter()
            .map(|f| f.name.to_string())
            .collect();
        want.push("default".to_string());
        want.sort();
        assert_eq!(names, want);
        let engine = RocksEngine::open(dir.path(), AccessMode::ReadOnly).expect("read-only");
        let cf = engine
            .db
            .cf_handle("transaction_status")
            .expect("unknown column opened");
        assert_eq!(
            engine.db.get_cf(cf, b"k").expect("get").as_deref(),
            Some(&b"v"[..])
        );
    }

    /// The database-wide options of a read-write open are the ones RocksDB runs with (as
    /// its OPTIONS file records them), the file writers' buffer bound among them.
    #[test]
    fn read_write_open_runs_with_the_space_and_writer_options() {
        let dir = tempfile::tempdir().expect("tempdir");
        drop(RocksEngine::open(dir.path(), AccessMode::ReadWrite).expect("open"));
        let options_file = std::fs::read_dir(dir.path().join(ROCKSDB_DIR))
            .expect("list")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("OPTIONS-"))
            })
            .max()
            .expect("an OPTIONS file");
        let text = std::fs::read_to_string(options_file).expect("read");
        for want in [
            format!(
                "writable_file_max_buffer_size={}",
                space::FILE_WRITER_BUFFER_BYTES
            ),
            format!("max_total_wal_size={}", space::MAX_TOTAL_WAL_BYTES),
            "avoid_flush_during_recovery=true".to_string(),
            "avoid_flush_during_shutdown=true".to_string(),
        ] {
            assert!(
                text.lines().any(|l| l.trim() == want),
                "{want} not in the OPTIONS file"
            );
        }
    }

    #[test]
    fn read_write_is_refused_on_a_column_family_bstore_does_not_know() {
        use crate::store::Blockstore;
        let dir = tempfile::tempdir().expect("tempdir");
        create_db_with_extra_cf(dir.path(), "future_column");
        let before = DB::list_cf(&Options::default(), dir.path().join(ROCKSDB_DIR)).expect("list");
        let err = Blockstore::open(dir.path(), AccessMode::ReadWrite).expect_err("refused");
        assert!(matches!(err, LedgerError::UnknownFormat { .. }), "{err}");
        assert!(err.to_string().contains("future_column"), "{err}");
        let after = DB::list_cf(&Options::default(), dir.path().join(ROCKSDB_DIR)).expect("list");
        assert_eq!(before, after, "nothing was created before refusing");
        Blockstore::open(dir.path(), AccessMode::ReadOnly).expect("read-only still opens");
    }

    #[test]
    fn read_write_is_refused_on_a_row_format_bstore_does_not_know() {
        use crate::store::Blockstore;
        use crate::store::Column;
        use crate::store::columns::{Index, Meta};
        use crate::types::Slot;
        let dir = tempfile::tempdir().expect("tempdir");
        {
            let store = Blockstore::open(dir.path(), AccessMode::ReadWrite).expect("open");
            let meta = crate::store::SlotMeta::new(Slot(5), Some(Slot(4)));
            let mut batch = store.engine.batch().expect("batch");
            batch.put::<Meta>(Slot(5), &meta).expect("put");
            store.engine.write(batch).expect("write");
        }
        Blockstore::open(dir.path(), AccessMode::ReadWrite).expect("known formats open");
        {
            // A newer validator's `index` row: bytes neither V1 nor V2.
            let engine = RocksEngine::open(dir.path(), AccessMode::ReadWrite).expect("open");
            let mut batch = engine.batch().expect("batch");
            let key = Index::encode_key(Slot(5));
            batch.put(Index::NAME, &key, &[3u8; 100]).expect("put");
            engine.write(batch).expect("write");
        }
        let err = Blockstore::open(dir.path(), AccessMode::ReadWrite).expect_err("refused");
        assert!(err.to_string().contains("index"), "{err}");
        Blockstore::open(dir.path(), AccessMode::ReadOnly).expect("read-only still opens");
    }
}
