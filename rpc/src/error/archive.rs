//! How a failed call to the archive tier reaches [`RpcError::Archive`](super::RpcError::Archive):
//! its kind, which picks the JSON-RPC code, and the archive's own message. An archive
//! implementation (`bstore_rpc::archive::BlockArchive`) returns these; they live with the
//! errors so that `RpcError` can hold one without the error layer knowing the archive.

use super::code;

/// The kinds of archive failure the server tells apart. The archive holds only finalized
/// blocks, and a block it does not have is `Ok(None)`, never a fault: each kind here is a
/// failure of the archive itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArchiveFaultKind {
    /// Nothing usable at the configured location (no archive there), or an object the
    /// archive's own index names is missing.
    NotFound,
    /// The object store did not answer or refused the request (network, credentials,
    /// quorum, timeouts), or its location cannot be used; worth a retry once it is back.
    Unreachable,
    /// An object is there, but its bytes or its size are not what the archive's layout says.
    Corrupt,
    /// The archive client failed outside the object store (a task stopped, a local read).
    Internal,
}

impl ArchiveFaultKind {
    /// The JSON-RPC code of a failed archive call of this kind: an internal error for every
    /// kind today (a client cannot repair any of them, and none may read as "no such
    /// block"). The match is exhaustive so that a new kind has to choose its code here.
    pub fn code(self) -> i64 {
        match self {
            Self::NotFound | Self::Unreachable | Self::Corrupt | Self::Internal => {
                code::INTERNAL_ERROR
            }
        }
    }

    /// A short name for logs.
    pub fn name(self) -> &'static str {
        match self {
            Self::NotFound => "not found",
            Self::Unreachable => "unreachable",
            Self::Corrupt => "corrupt",
            Self::Internal => "internal",
        }
    }
}

/// A failed archive call: its kind, which decides the answer, and the archive's own message
/// (object key, operation, cause), which is for the operator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArchiveFault {
    /// The kind of failure, which decides the JSON-RPC answer.
    pub kind: ArchiveFaultKind,
    /// The archive's own message: object key, operation and cause, for the operator.
    pub detail: String,
}

impl ArchiveFault {
    /// A fault of `kind` with the archive's message `detail`.
    pub fn new(kind: ArchiveFaultKind, detail: impl Into<String>) -> Self {
        Self {
            kind,
            detail: detail.into(),
        }
    }
}

impl std::fmt::Display for ArchiveFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.detail)
    }
}
