//! `FormatError`: the one error type of this crate. Every variant names where the bad bytes
//! are (slot and shred index when a header could be read, byte offset, record, FEC set) and
//! the typed defect.

use std::path::PathBuf;

use crate::block::MarkerDefect;
use crate::entry::{EntryDefect, PohDefect};
use crate::shred::{RecoveryDefect, ShredDefect};
use crate::types::{ShredIndex, Slot};

/// Result alias for this crate.
pub type Result<T, E = FormatError> = std::result::Result<T, E>;

/// Everything that can be wrong with bytes in one of the wire formats.
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// A shred packet or stored payload failed validation. `slot` / `index` are set when the
    /// common header could be read.
    #[error("invalid shred (slot {}, index {}): {defect}", opt(slot), opt(index))]
    InvalidShred {
        /// The slot of the shred's common header, when it could be read.
        slot: Option<Slot>,
        /// The shred index of the common header, when it could be read.
        index: Option<ShredIndex>,
        /// What is wrong.
        defect: ShredDefect,
    },

    /// Bytes that should hold a bincode `Vec<Entry>` (or a transaction) do not.
    #[error("invalid entry data at byte {offset}: {defect}")]
    InvalidEntries {
        /// Byte offset of the defect within the decoded buffer.
        offset: usize,
        /// What is wrong.
        defect: EntryDefect,
    },

    /// A data set with a zero entry count (a block marker, `docs/block-components.md`) does
    /// not parse as a marker.
    #[error("invalid block marker at byte {offset}: {defect}")]
    InvalidBlockMarker {
        /// Byte offset of the defect within the data set.
        offset: usize,
        /// What is wrong.
        defect: MarkerDefect,
    },

    /// The data set is the 8-byte zero entry count with which a leader aborts its block.
    #[error("block aborted: the leader sent an empty entry batch")]
    BlockAborted,

    /// PoH or tick verification failed at entry `entry` (0-based within the checked chain).
    #[error("PoH verification failed at entry {entry}: {defect}")]
    Poh {
        /// Position of the failing entry in the checked chain.
        entry: usize,
        /// What is wrong.
        defect: PohDefect,
    },

    /// Erasure recovery of one FEC set was refused; nothing of the set was recovered.
    /// (`slot` 0 / `fec_set_index` 0 when no shred was given.)
    #[error("slot {slot}, FEC set {fec_set_index}: recovery refused: {defect}")]
    Recovery {
        /// The set's slot.
        slot: Slot,
        /// The set's first data shred index.
        fec_set_index: u32,
        /// Why recovery was refused.
        defect: RecoveryDefect,
    },

    /// The shredder was asked for something it cannot produce.
    #[error("shredder: {0}")]
    Shredder(String),

    /// A file could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },

    /// A shred stream file (`docs/formats-shreds.md#shred-stream-files`) is malformed at
    /// `record` (0-based), byte `offset`.
    #[error("{}: record {record} at byte {offset}: {reason}", path.display())]
    StreamFile {
        /// The file.
        path: PathBuf,
        /// 0-based record number.
        record: u64,
        /// Byte offset of the record's length prefix.
        offset: u64,
        /// What is wrong.
        reason: String,
    },
}

impl FormatError {
    /// A stable one-word name of the variant, for metrics tags, JSON output and grouping
    /// (never derived from the message text).
    pub fn kind(&self) -> &'static str {
        match self {
            Self::InvalidShred { .. } => "invalid_shred",
            Self::InvalidEntries { .. } => "invalid_entries",
            Self::InvalidBlockMarker { .. } => "invalid_block_marker",
            Self::BlockAborted => "block_aborted",
            Self::Poh { .. } => "poh",
            Self::Recovery { .. } => "recovery",
            Self::Shredder(_) => "shredder",
            Self::Io { .. } => "io",
            Self::StreamFile { .. } => "stream_file",
        }
    }

    /// The most specific stable name: the defect's kind for shred and recovery errors
    /// (`"invalid_signature"`, ...), else [`Self::kind`].
    pub fn cause_kind(&self) -> &'static str {
        match self {
            Self::InvalidShred { defect, .. } => defect.kind(),
            Self::Recovery { defect, .. } => defect.kind(),
            Self::InvalidBlockMarker { defect, .. } => defect.kind(),
            other => other.kind(),
        }
    }
}

fn opt<T: std::fmt::Display>(v: &Option<T>) -> String {
    v.as_ref()
        .map_or_else(|| "?".to_string(), ToString::to_string)
}
