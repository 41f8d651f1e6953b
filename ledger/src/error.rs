//! `LedgerError`: the one error type of this crate. Every variant carries what an operator
//! needs to find the bad bytes: slot, shred index, range, column, offset, cause.

use std::path::PathBuf;

use crate::fetch::DataDefect;
use crate::store::InsertDefect;
use bstore_formats::FormatError;

use crate::types::{ShredIndex, Slot};

/// The underlying error of an engine or a thread pool, kept as a typed source (a caller
/// may downcast it; its text is never parsed).
pub type BoxedSource = Box<dyn std::error::Error + Send + Sync + 'static>;

/// Result alias for this crate.
pub type Result<T, E = LedgerError> = std::result::Result<T, E>;

/// Everything that can go wrong in the ledger layer.
#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    /// Bytes in one of the wire formats (a shred, entries, a transaction, PoH, erasure
    /// recovery, a shred stream file) are wrong.
    #[error(transparent)]
    Format(#[from] FormatError),

    /// A shred inside a completed data set is not in the store.
    #[error("slot {slot}: shred {index} is missing inside a completed data set")]
    MissingShred { slot: Slot, index: ShredIndex },

    /// The shreds of the completed range `start..end` do not deshred or decode.
    #[error("slot {slot}, shreds {start}..{end}: invalid shred data: {cause}")]
    InvalidShredData {
        slot: Slot,
        start: u32,
        end: u32,
        cause: DataDefect,
    },

    /// The data set `start..end` is the 8-byte zero entry count with which a leader aborts
    /// its block (`docs/block-components.md`); Agave marks the slot dead with this reason.
    #[error(
        "Block in slot {slot} was aborted as leader sent an empty entry batch (shreds {start}..{end})"
    )]
    BlockAborted { slot: Slot, start: u32, end: u32 },

    /// The slot is marked dead and the caller did not allow dead slots.
    #[error("slot {slot} is dead")]
    DeadSlot { slot: Slot },

    /// The slot was purged (retention or `ledger purge`), before or during the read: no part
    /// of it is returned.
    #[error("slot {slot} was cleaned up (purged from the ledger)")]
    SlotCleanedUp { slot: Slot },

    /// The storage engine failed on a read or write of `column`.
    #[error("storage error (column {column}): {source}")]
    Storage {
        column: &'static str,
        source: BoxedSource,
    },

    /// The database at `path` could not be opened in `mode`.
    #[error("cannot open the ledger database {} {mode}: {source}", path.display())]
    Open {
        path: PathBuf,
        mode: &'static str,
        source: BoxedSource,
    },

    /// Read-write was refused: the ledger holds a column family, or a row of a column bstore
    /// writes, in a format bstore does not know (a newer validator's ledger). Read-only and
    /// secondary opens still work.
    #[error("refusing to open {} read-write: {reason}", path.display())]
    UnknownFormat { path: PathBuf, reason: String },

    /// A write named a column family the open database does not have (a read-only or
    /// secondary instance of a ledger that lacks it).
    #[error("column {column} is not open in this database")]
    ColumnNotOpen { column: &'static str },

    /// A range cursor reported a position without a key or value (an engine fault).
    #[error("storage error (column {column}): cursor positioned without a key")]
    CursorUnpositioned { column: &'static str },

    /// A fetch thread pool could not be built.
    #[error("cannot build the fetch pool {name}: {source}")]
    PoolBuild { name: String, source: BoxedSource },

    /// A worker thread panicked; its work is lost, nothing it did was committed.
    #[error("thread {thread} panicked")]
    ThreadPanicked { thread: String },

    /// A value read from a column does not decode.
    #[error("corrupt value in column {column} at key {key}: {reason}")]
    CorruptValue {
        column: &'static str,
        key: String,
        reason: String,
    },

    /// A key read from a column does not decode (wrong length, index out of range).
    #[error("corrupt key in column {column}: {key}: {reason}")]
    CorruptKey {
        column: &'static str,
        /// The raw key bytes in hex.
        key: String,
        reason: String,
    },

    /// A well-formed shred that contradicts what the store already holds for its slot
    /// (`docs/on-disk-layout.md#inserting-shreds`); it was not stored.
    #[error("slot {slot}, shred {index} rejected: {defect}")]
    ShredRejected {
        slot: Slot,
        index: ShredIndex,
        defect: InsertDefect,
    },

    /// A write was attempted on a blockstore opened read-only or as a secondary.
    #[error("blockstore is open {mode}: writes are not allowed")]
    NotWritable { mode: &'static str },

    /// An encoded [`BlockRecord`](crate::history::BlockRecord) (an archive object) does not
    /// decode.
    #[error("invalid block record: {reason}")]
    InvalidBlockRecord { reason: String },

    /// There is no ledger database at `path` and the open may not create one (read-only,
    /// secondary, or a read-write open of a command that only uses existing ledgers).
    #[error("no ledger at {}: {reason}", path.display())]
    NoLedger { path: PathBuf, reason: String },

    /// A new database was refused: `path` already holds files that look like a ledger, so
    /// creating one there could delete them (RocksDB removes files its new database does
    /// not list).
    #[error("refusing to create a ledger database in {}: {reason}", path.display())]
    WouldOverwrite { path: PathBuf, reason: String },

    /// A file of the database is missing, has the wrong size, or fails its checksum; `file`
    /// names it (or the files that may hold the fault, for a write-ahead log RocksDB does
    /// not name). Nothing was changed on disk.
    #[error(
        "the ledger database {} is damaged: {file}: {reason} (nothing was changed; \
         `bstore ledger check` lists the damage, `bstore ledger repair` backs up and repairs)",
        path.display()
    )]
    Damaged {
        path: PathBuf,
        file: String,
        reason: String,
    },

    /// A write-ahead-log recovery mode name that is not one of Agave's four.
    #[error(
        "unknown WAL recovery mode {given:?} (expected tolerate_corrupted_tail_records, \
         absolute_consistency, point_in_time or skip_any_corrupted_record)"
    )]
    UnknownWalRecoveryMode { given: String },

    /// A file operation outside RocksDB (listing the database directory, copying a file
    /// into a backup) failed.
    #[error("{action} {}: {source}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
}

impl LedgerError {
    /// A stable one-word name of the variant, for metrics tags, JSON output and grouping
    /// (never derived from the message text).
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Format(e) => e.kind(),
            Self::MissingShred { .. } => "missing_shred",
            Self::InvalidShredData { .. } => "invalid_shred_data",
            Self::BlockAborted { .. } => "block_aborted",
            Self::DeadSlot { .. } => "dead_slot",
            Self::SlotCleanedUp { .. } => "slot_cleaned_up",
            Self::Storage { .. } => "storage",
            Self::Open { .. } => "open",
            Self::UnknownFormat { .. } => "unknown_format",
            Self::ColumnNotOpen { .. } => "column_not_open",
            Self::CursorUnpositioned { .. } => "cursor_unpositioned",
            Self::PoolBuild { .. } => "pool_build",
            Self::ThreadPanicked { .. } => "thread_panicked",
            Self::CorruptValue { .. } => "corrupt_value",
            Self::CorruptKey { .. } => "corrupt_key",
            Self::ShredRejected { .. } => "shred_rejected",
            Self::NotWritable { .. } => "not_writable",
            Self::InvalidBlockRecord { .. } => "invalid_block_record",
            Self::NoLedger { .. } => "no_ledger",
            Self::WouldOverwrite { .. } => "would_overwrite",
            Self::Damaged { .. } => "damaged",
            Self::UnknownWalRecoveryMode { .. } => "unknown_wal_recovery_mode",
            Self::Io { .. } => "io",
        }
    }
}

impl LedgerError {
    /// The most specific stable name: the defect's kind for shred errors
    /// (`"merkle_root_mismatch"`, `"invalid_signature"`, ...), else [`Self::kind`].
    pub fn cause_kind(&self) -> &'static str {
        match self {
            Self::Format(e) => e.cause_kind(),
            Self::ShredRejected { defect, .. } => defect.kind(),
            Self::InvalidShredData {
                cause: DataDefect::Marker { defect, .. },
                ..
            } => defect.kind(),
            other => other.kind(),
        }
    }
}
