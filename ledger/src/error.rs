//! `LedgerError`: the one error type of this crate. Every variant carries what an operator
//! needs to find the bad bytes: slot, shred index, range, column, offset, cause.

use std::path::PathBuf;

use crate::defect::{DataDefect, InsertDefect};
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
    MissingShred {
        /// The slot whose completed data set has the hole.
        slot: Slot,
        /// Index of the absent data shred.
        index: ShredIndex,
    },

    /// The shreds of the completed range `start..end` do not deshred or decode.
    #[error("slot {slot}, shreds {start}..{end}: invalid shred data: {cause}")]
    InvalidShredData {
        /// The slot being read.
        slot: Slot,
        /// Index of the first data shred of the completed range.
        start: u32,
        /// One past the index of the range's last data shred.
        end: u32,
        /// What is wrong with the range's bytes (deshred, entry decode or block marker).
        cause: DataDefect,
    },

    /// The data set `start..end` is the 8-byte zero entry count with which a leader aborts
    /// its block (`docs/block-components.md`); Agave marks the slot dead with this reason.
    #[error(
        "Block in slot {slot} was aborted as leader sent an empty entry batch (shreds {start}..{end})"
    )]
    BlockAborted {
        /// The aborted slot.
        slot: Slot,
        /// Index of the first data shred of the empty data set.
        start: u32,
        /// One past the index of the empty data set's last data shred.
        end: u32,
    },

    /// The slot is marked dead and the caller did not allow dead slots.
    #[error("slot {slot} is dead")]
    DeadSlot {
        /// The dead slot that was asked for.
        slot: Slot,
    },

    /// The slot was purged (retention or `ledger purge`), before or during the read: no part
    /// of it is returned.
    #[error("slot {slot} was cleaned up (purged from the ledger)")]
    SlotCleanedUp {
        /// The slot that is no longer in the ledger.
        slot: Slot,
    },

    /// The storage engine failed on a read or write of `column`.
    #[error("storage error (column {column}): {source}")]
    Storage {
        /// Name of the column family being read or written.
        column: &'static str,
        /// The engine's own error.
        source: BoxedSource,
    },

    /// The database at `path` could not be opened in `mode`.
    #[error("cannot open the ledger database {} {mode}: {source}", path.display())]
    Open {
        /// The database directory.
        path: PathBuf,
        /// How it was being opened (`"read-write"`, `"read-only"`, `"as a secondary"`), or
        /// which step of the open failed.
        mode: &'static str,
        /// The engine's own error.
        source: BoxedSource,
    },

    /// Read-write was refused: the ledger holds a column family, or a row of a column bstore
    /// writes, in a format bstore does not know (a newer validator's ledger). Read-only and
    /// secondary opens still work.
    #[error("refusing to open {} read-write: {reason}", path.display())]
    UnknownFormat {
        /// The database directory.
        path: PathBuf,
        /// Which column family or row is unknown, and why it blocks a read-write open.
        reason: String,
    },

    /// A write named a column family the open database does not have (a read-only or
    /// secondary instance of a ledger that lacks it).
    #[error("column {column} is not open in this database")]
    ColumnNotOpen {
        /// Name of the column family the write named.
        column: &'static str,
    },

    /// A range cursor reported a position without a key or value (an engine fault).
    #[error("storage error (column {column}): cursor positioned without a key")]
    CursorUnpositioned {
        /// Name of the column family the cursor walked.
        column: &'static str,
    },

    /// A fetch thread pool could not be built.
    #[error("cannot build the fetch pool {name}: {source}")]
    PoolBuild {
        /// The pool's name (also the prefix of its thread names).
        name: String,
        /// Why the pool's threads could not be started.
        source: BoxedSource,
    },

    /// A value read from a column does not decode.
    #[error("corrupt value in column {column} at key {key}: {reason}")]
    CorruptValue {
        /// Name of the column family the value was read from.
        column: &'static str,
        /// The key the value was stored under, as the column prints it (slot, index...).
        key: String,
        /// What does not decode (length, field, out-of-range value).
        reason: String,
    },

    /// A key read from a column does not decode (wrong length, index out of range).
    #[error("corrupt key in column {column}: {key}: {reason}")]
    CorruptKey {
        /// Name of the column family the key was read from.
        column: &'static str,
        /// The raw key bytes in hex.
        key: String,
        /// Why the key does not decode (its length, or the field out of range).
        reason: String,
    },

    /// A well-formed shred that contradicts what the store already holds for its slot
    /// (`docs/on-disk-layout.md#inserting-shreds`); it was not stored.
    #[error("slot {slot}, shred {index} rejected: {defect}")]
    ShredRejected {
        /// The slot of the rejected shred.
        slot: Slot,
        /// Index of the rejected shred within its slot.
        index: ShredIndex,
        /// Which rule of insert the shred breaks.
        defect: InsertDefect,
    },

    /// A write was attempted on a blockstore opened read-only or as a secondary.
    #[error("blockstore is open {mode}: writes are not allowed")]
    NotWritable {
        /// How the blockstore is open (`"read-only"` or `"as a secondary"`).
        mode: &'static str,
    },

    /// An encoded [`BlockRecord`](crate::history::BlockRecord) (an archive object) does not
    /// decode.
    #[error("invalid block record: {reason}")]
    InvalidBlockRecord {
        /// What does not decode: the field and the byte offset or length at fault.
        reason: String,
    },

    /// There is no ledger database at `path` and the open may not create one (read-only,
    /// secondary, or a read-write open of a command that only uses existing ledgers).
    #[error("no ledger at {}: {reason}", path.display())]
    NoLedger {
        /// The directory that holds no ledger.
        path: PathBuf,
        /// Why it is not a ledger, or why this open may not create one.
        reason: String,
    },

    /// A new database was refused: `path` already holds files that look like a ledger, so
    /// creating one there could delete them (RocksDB removes files its new database does
    /// not list).
    #[error("refusing to create a ledger database in {}: {reason}", path.display())]
    WouldOverwrite {
        /// The directory that would be written: the database, or a repair's backup.
        path: PathBuf,
        /// What was found there (the files, and what they say about the database), or why
        /// the backup place is refused.
        reason: String,
    },

    /// A file of the database is missing, has the wrong size, or fails its checksum; `file`
    /// names it (or the files that may hold the fault, for a write-ahead log RocksDB does
    /// not name). Nothing was changed on disk.
    #[error(
        "the ledger database {} is damaged: {file}: {reason} (nothing was changed; \
         `bstore ledger check` lists the damage, `bstore ledger repair` backs up and repairs)",
        path.display()
    )]
    Damaged {
        /// The database directory.
        path: PathBuf,
        /// The damaged file (relative to `path`), or the list of files that may hold the fault.
        file: String,
        /// What is wrong with it (missing, size, checksum), as RocksDB or bstore's own check found
        /// it.
        reason: String,
    },

    /// A write-ahead-log recovery mode name that is not one of Agave's four.
    #[error(
        "unknown WAL recovery mode {given:?} (expected tolerate_corrupted_tail_records, \
         absolute_consistency, point_in_time or skip_any_corrupted_record)"
    )]
    UnknownWalRecoveryMode {
        /// The name that was given.
        given: String,
    },

    /// A file operation outside RocksDB (listing the database directory, copying a file
    /// into a backup) failed.
    #[error("{action} {}: {source}", path.display())]
    Io {
        /// What was being done (`"cannot list"`, `"cannot read"`, ...), printed before the path.
        action: &'static str,
        /// The file or directory the operation was on.
        path: PathBuf,
        /// The operating system's error.
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
