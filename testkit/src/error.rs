//! `TestkitError`: why a harness run stopped.

use bstore_ledger::{LedgerError, Slot};
use bstore_replay::ReplayError;

/// Everything that can end a pipeline run early.
#[derive(Debug, thiserror::Error)]
pub enum TestkitError {
    /// Replay hit a storage failure (no slot at fault).
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// Generating or inserting slot `slot` failed.
    #[error("slot {slot}: {source}")]
    Ledger {
        /// The slot being generated or inserted.
        slot: Slot,
        /// The ledger's error.
        source: LedgerError,
    },
    /// An HTTP client step failed: which, and the socket's error.
    #[error("http: {what}: {source}")]
    Http {
        /// The step (connect, write the request, read a header, ...).
        what: &'static str,
        /// The socket's error.
        source: std::io::Error,
    },
    /// A server's answer this client does not read (a bad head, a size over the bounds, a
    /// body cut short): why.
    #[error("http: {0}")]
    HttpAnswer(String),
    /// A committed fixture could not be unpacked: which, and why.
    #[error("fixture {name}: {reason}")]
    Fixture {
        /// The fixture's directory under `fixtures/`.
        name: String,
        /// What failed.
        reason: String,
    },
    /// A thread or service of the run went away: which, and what happened.
    #[error("pipeline: {0}")]
    Stopped(&'static str),
}
