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
    BadLocation { url: String, reason: String },
    /// The object store refused or failed a request (after the client's retries): the
    /// cluster is unreachable, below quorum, or denies the key.
    #[error("object store {op} {key}: {source}")]
    Store {
        op: &'static str,
        key: String,
        #[source]
        source: object_store::Error,
    },
    /// An object is there but its bytes are not what the layout says.
    #[error("object {key}: {reason}")]
    Corrupt { key: String, reason: String },
    /// An object (or a part of one about to be read) exceeds a read limit.
    #[error("object {key}: {what} of {size} bytes exceeds the limit of {limit} bytes")]
    TooLarge {
        key: String,
        what: &'static str,
        size: u64,
        limit: u64,
    },
    /// The archive's layout object disagrees with what was asked, or is missing where one
    /// is required.
    #[error("archive layout {key}: {reason}")]
    Layout { key: String, reason: String },
    /// Reading a slot from the local ledger failed.
    #[error("ledger slot {slot}: {source}")]
    Ledger {
        slot: Slot,
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
