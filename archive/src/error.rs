//! [`ArchiveError`]: the one error type of the archive crate. Every variant names what a
//! user needs to find the fault: the object key, the slot, the operation.

use bstore_ledger::{LedgerError, Slot};

/// Result of the archive crate.
pub type Result<T, E = ArchiveError> = std::result::Result<T, E>;

/// What went wrong, with its context.
#[derive(Debug, thiserror::Error)]
pub enum ArchiveError {
    /// An `s3://BUCKET/PREFIX` URL or a client option that cannot be used.
    #[error("archive location {url:?}: {reason}")]
    BadLocation {
        /// The URL or option value as given.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The object store refused or failed a request (after the client's retries): the
    /// cluster is unreachable, below quorum, or denies the key.
    #[error("object store {op} {key}: {source}")]
    Store {
        /// The request that failed (`"PUT"`, `"GET"`, `"GET range"`, `"DELETE"`, `"LIST"`).
        op: &'static str,
        /// The object key (or listed prefix) of the request.
        key: String,
        /// The object store client's error.
        #[source]
        source: object_store::Error,
    },
    /// An object is there but its bytes are not what the layout says.
    #[error("object {key}: {reason}")]
    Corrupt {
        /// The object key.
        key: String,
        /// What is wrong: the field, offset or checksum that does not match.
        reason: String,
    },
    /// An object (or a part of one about to be read) exceeds a read limit.
    #[error("object {key}: {what} of {size} bytes exceeds the limit of {limit} bytes")]
    TooLarge {
        /// The object key.
        key: String,
        /// Which object or part is too large (`"block object"`, `"range index summary"`, ...).
        what: &'static str,
        /// Its size in bytes, as stored or as declared.
        size: u64,
        /// The read limit in bytes.
        limit: u64,
    },
    /// The archive's layout object disagrees with what was asked, or is missing where one
    /// is required.
    #[error("archive layout {key}: {reason}")]
    Layout {
        /// The layout object's key.
        key: String,
        /// What disagrees, or why one is needed.
        reason: String,
    },
    /// Reading a slot from the local ledger failed.
    #[error("ledger slot {slot}: {source}")]
    Ledger {
        /// The slot being read.
        slot: Slot,
        /// The ledger's error.
        #[source]
        source: LedgerError,
    },
    /// A ledger read not tied to one slot (roots, bounds).
    #[error("ledger: {0}")]
    LedgerRead(#[source] LedgerError),
    /// An upload task stopped without a result (panicked or was cancelled).
    #[error("upload task: {0}")]
    Task(String),
}

impl ArchiveError {
    /// A store failure of `op` on `key`.
    pub(crate) fn store(
        op: &'static str,
        key: &object_store::path::Path,
        source: object_store::Error,
    ) -> Self {
        Self::Store {
            op,
            key: key.to_string(),
            source,
        }
    }

    /// A corrupt object `key`.
    pub(crate) fn corrupt(key: &object_store::path::Path, reason: impl Into<String>) -> Self {
        Self::Corrupt {
            key: key.to_string(),
            reason: reason.into(),
        }
    }

    /// True when the store said the object does not exist.
    pub fn is_not_found(&self) -> bool {
        matches!(
            self,
            Self::Store {
                source: object_store::Error::NotFound { .. },
                ..
            }
        )
    }
}
