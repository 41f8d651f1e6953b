//! `RpcError`: the one error type of this crate. Request errors carry the JSON-RPC code and
//! the exact message Agave's RPC gives for the same condition (clients match on both);
//! server errors (bind, open) are for the operator.

pub(crate) mod archive;

use std::net::SocketAddr;

use bstore_ledger::{LedgerError, Slot};
use serde_json::{Value, json};

use archive::ArchiveFault;

/// JSON-RPC 2.0 standard codes.
pub mod code {
    /// The body is not valid JSON.
    pub const PARSE_ERROR: i64 = -32700;
    /// The JSON is not a valid request object, or the batch is empty, too large or the body too
    /// slow or too long.
    pub const INVALID_REQUEST: i64 = -32600;
    /// The method is not one this server answers.
    pub const METHOD_NOT_FOUND: i64 = -32601;
    /// The params are missing, of the wrong type or out of range.
    pub const INVALID_PARAMS: i64 = -32602;
    /// The server failed (ledger, archive or a worker), not the request.
    pub const INTERNAL_ERROR: i64 = -32603;
    /// The slot is older than anything the ledger still holds. This and the codes below are
    /// Solana's server errors (Agave `rpc-client-api/src/custom_error.rs`).
    pub const BLOCK_CLEANED_UP: i64 = -32001;
    /// The block is not (yet) available at the requested commitment.
    pub const BLOCK_NOT_AVAILABLE: i64 = -32004;
    /// The node cannot take the request now (every worker is busy or the response budget is
    /// full), or its view of a live ledger has stopped following the writer.
    pub const NODE_UNHEALTHY: i64 = -32005;
    /// The slot was skipped: it lies between two roots but is not one.
    pub const SLOT_SKIPPED: i64 = -32007;
    /// The slot is neither in the ledger nor in the archive tier.
    pub const LONG_TERM_STORAGE_SLOT_SKIPPED: i64 = -32009;
    /// The transaction's version is above the client's `maxSupportedTransactionVersion`.
    pub const UNSUPPORTED_TRANSACTION_VERSION: i64 = -32015;
    /// The node's slot at the commitment is below the request's `minContextSlot`.
    pub const MIN_CONTEXT_SLOT_NOT_REACHED: i64 = -32016;
}

/// Everything that can go wrong in the RPC layer.
#[derive(Debug, thiserror::Error)]
pub enum RpcError {
    /// The body is not JSON, or not JSON-RPC request objects (`params::request`). Sent
    /// without `data`, as Agave's.
    #[error("Parse error")]
    Parse {
        /// Why (for logs and tests; not sent).
        reason: String,
    },

    /// A JSON object that is not a valid JSON-RPC 2.0 request (`params::request`). Sent
    /// without `data`, as Agave's.
    #[error("Invalid request")]
    InvalidRequest,

    /// A call without a `jsonrpc` member: Agave's RPC takes only 2.0 calls.
    #[error("Unsupported JSON-RPC protocol version")]
    UnsupportedVersion,

    /// A batch longer than the configured limit.
    #[error("Invalid request")]
    BatchTooLarge {
        /// Requests in the batch.
        len: usize,
        /// The configured limit.
        max: usize,
    },

    /// The body did not arrive within the body read timeout.
    #[error("Invalid request")]
    BodyTimeout {
        /// The body read timeout that ran out.
        after: std::time::Duration,
    },

    /// The body could not be read for another reason than its length: a malformed chunked
    /// encoding, or the connection failing mid-body.
    #[error("Invalid request")]
    BodyUnreadable {
        /// What the HTTP layer reported.
        reason: String,
    },

    /// The method is not one this server answers.
    #[error("Method not found")]
    MethodNotFound {
        /// The method name as the request gave it (for logs and tests; not sent, as Agave
        /// sends none).
        method: String,
    },

    /// Wrong number or type of params, or a config value out of range. The message is
    /// Agave's where Agave has a specific one.
    #[error("{message}")]
    InvalidParams {
        /// The message sent to the client.
        message: String,
    },

    /// Params of the wrong count, or given to a method that takes none: Agave's message,
    /// with what was got as `data`.
    #[error("{message}")]
    InvalidParamsDetail {
        /// The message sent to the client.
        message: String,
        /// Sent as the error's `data` (a JSON string).
        detail: String,
    },

    /// The slot is not (yet) a full, available block at the requested commitment.
    #[error("Block not available for slot {slot}")]
    BlockNotAvailable {
        /// The slot asked for.
        slot: Slot,
    },

    /// The slot lies between two roots but is not rooted: it was skipped.
    #[error("Slot {slot} was skipped, or missing due to ledger jump to recent snapshot")]
    SlotSkipped {
        /// The skipped slot.
        slot: Slot,
    },

    /// The slot is neither in the ledger nor in the archive tier (Agave's answer when its
    /// long-term storage lacks a block).
    #[error("Slot {slot} was skipped, or missing in long-term storage")]
    LongTermStorageSlotSkipped {
        /// The slot asked for.
        slot: Slot,
    },

    /// The slot is older than anything this ledger still holds.
    #[error(
        "Block {slot} cleaned up, does not exist on node. First available block: {first_available}"
    )]
    BlockCleanedUp {
        /// The slot asked for.
        slot: Slot,
        /// The lowest slot the ledger still holds.
        first_available: Slot,
    },

    /// The transaction's version (0, 1, ...) is above the client's `maxSupportedTransactionVersion`
    /// (legacy only when it is unset).
    #[error(
        "Transaction version ({0}) is not supported by the requesting client. Please try the request again with the following configuration parameter: \"maxSupportedTransactionVersion\": {0}"
    )]
    UnsupportedTransactionVersion(u8),

    /// The node's highest slot at the commitment is below the request's `minContextSlot`.
    #[error("Minimum context slot has not been reached")]
    MinContextSlotNotReached {
        /// The node's highest slot at the commitment, which the client may wait for.
        context_slot: Slot,
    },

    /// Every block-fetch worker is busy and the wait queue is full.
    #[error("Node is busy: {in_flight} block requests in flight (limit {limit}); retry later")]
    Busy {
        /// Block requests running or queued now.
        in_flight: usize,
        /// The configured limit of requests in flight.
        limit: usize,
    },

    /// The server's view of a live ledger has not caught up with the writer for a while
    /// (`transport/catch_up.rs`): Agave's words for a node that cannot tell where the
    /// cluster is.
    #[error("Node is unhealthy")]
    Unhealthy {
        /// Time since the last successful catch-up (for logs; not sent).
        since: std::time::Duration,
    },

    /// The response memory budget has no room for this result.
    #[error(
        "Node is busy: {held} bytes of responses in flight, {wanted} more would pass the budget of {budget}; retry later"
    )]
    BudgetExceeded {
        /// Bytes of responses being built or sent now.
        held: usize,
        /// Bytes this result needs.
        wanted: usize,
        /// The configured response memory budget in bytes.
        budget: usize,
    },

    /// A value too long to be base58-encoded in linear time (Agave bounds base58 too).
    #[error(
        "Encoded binary (base 58) data should be less than {max} bytes, please use Base64 encoding."
    )]
    Base58TooLong {
        /// Length in bytes of the value that was refused.
        len: usize,
        /// The longest value base58 encodes, in bytes.
        max: usize,
    },

    /// The ledger failed (storage error or corrupt shreds): an internal error for the
    /// client, logged with its full context.
    #[error("Internal error")]
    Ledger {
        /// The ledger's error.
        #[source]
        source: LedgerError,
    },

    /// The server itself failed (a worker vanished, a task panicked).
    #[error("Internal error")]
    Internal {
        /// What failed (sent as the error's `data`).
        reason: String,
    },

    /// A call to the archive tier behind the ledger (a `BlockArchive`) failed; `what`
    /// names the call (`block 5`, `signature lookup`). The code is chosen from the fault's kind
    /// ([`RpcError::code`]); the data names the archive, the call and the archive's message.
    #[error("Internal error")]
    Archive {
        /// The call that failed, e.g. `block 5` or `signature lookup`.
        what: String,
        /// What kind of failure it was and the archive's message.
        fault: ArchiveFault,
    },

    /// Startup: the ledger could not be opened.
    #[error("cannot open the ledger: {source}")]
    OpenLedger {
        /// The ledger's error, naming the path and mode.
        #[source]
        source: LedgerError,
    },

    /// Startup: the listening socket could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address asked for.
        addr: SocketAddr,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },

    /// The HTTP server or runtime failed.
    #[error("server I/O error: {source}")]
    Io {
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
}

impl From<LedgerError> for RpcError {
    fn from(source: LedgerError) -> Self {
        Self::Ledger { source }
    }
}

impl RpcError {
    /// Shorthand for an invalid-params error.
    pub fn invalid_params(message: impl Into<String>) -> Self {
        Self::InvalidParams {
            message: message.into(),
        }
    }

    /// The JSON-RPC error code.
    pub fn code(&self) -> i64 {
        match self {
            Self::Parse { .. } => code::PARSE_ERROR,
            Self::InvalidRequest
            | Self::UnsupportedVersion
            | Self::BatchTooLarge { .. }
            | Self::BodyUnreadable { .. }
            | Self::BodyTimeout { .. } => code::INVALID_REQUEST,
            Self::MethodNotFound { .. } => code::METHOD_NOT_FOUND,
            Self::InvalidParams { .. }
            | Self::InvalidParamsDetail { .. }
            | Self::Base58TooLong { .. } => code::INVALID_PARAMS,
            Self::BlockNotAvailable { .. } => code::BLOCK_NOT_AVAILABLE,
            Self::SlotSkipped { .. } => code::SLOT_SKIPPED,
            Self::LongTermStorageSlotSkipped { .. } => code::LONG_TERM_STORAGE_SLOT_SKIPPED,
            Self::BlockCleanedUp { .. } => code::BLOCK_CLEANED_UP,
            Self::UnsupportedTransactionVersion(_) => code::UNSUPPORTED_TRANSACTION_VERSION,
            Self::MinContextSlotNotReached { .. } => code::MIN_CONTEXT_SLOT_NOT_REACHED,
            Self::Busy { .. } | Self::BudgetExceeded { .. } | Self::Unhealthy { .. } => {
                code::NODE_UNHEALTHY
            }
            Self::Archive { fault, .. } => fault.kind.code(),
            Self::Ledger { .. }
            | Self::Internal { .. }
            | Self::OpenLedger { .. }
            | Self::Bind { .. }
            | Self::Io { .. } => code::INTERNAL_ERROR,
        }
    }

    /// The optional `data` member: the detail a standard message leaves out.
    pub fn data(&self) -> Option<Value> {
        match self {
            Self::BatchTooLarge { len, max } => Some(json!(format!(
                "batch of {len} requests exceeds the limit of {max}"
            ))),
            Self::BodyUnreadable { reason } => {
                Some(json!(format!("request body could not be read: {reason}")))
            }
            Self::BodyTimeout { after } => Some(json!(format!(
                "request body not received within {} ms",
                after.as_millis()
            ))),
            Self::InvalidParamsDetail { detail, .. } => Some(json!(detail)),
            Self::MinContextSlotNotReached { context_slot } => {
                Some(json!({ "contextSlot": context_slot.0 }))
            }
            Self::Busy { .. } | Self::BudgetExceeded { .. } | Self::Unhealthy { .. } => {
                Some(json!({ "numSlotsBehind": null }))
            }
            Self::Ledger { source } => Some(json!(source.to_string())),
            Self::Internal { reason } => Some(json!(reason)),
            Self::Archive { what, fault } => Some(json!(format!("archive: {what}: {fault}"))),
            _ => None,
        }
    }

    /// The `error` member of a JSON-RPC response.
    pub fn to_json(&self) -> Value {
        let mut obj = json!({ "code": self.code(), "message": self.to_string() });
        if let (Some(data), Some(map)) = (self.data(), obj.as_object_mut()) {
            map.insert("data".into(), data);
        }
        obj
    }
}

#[cfg(test)]
mod tests {
    use super::archive::ArchiveFaultKind;
    use super::*;

    #[test]
    fn agave_messages_and_codes() {
        let e = RpcError::UnsupportedTransactionVersion(0);
        assert_eq!(e.code(), -32015);
        assert_eq!(
            e.to_string(),
            "Transaction version (0) is not supported by the requesting client. Please try the \
             request again with the following configuration parameter: \
             \"maxSupportedTransactionVersion\": 0"
        );
        let e = RpcError::SlotSkipped { slot: Slot(5) };
        assert_eq!(e.code(), -32007);
        assert_eq!(
            e.to_string(),
            "Slot 5 was skipped, or missing due to ledger jump to recent snapshot"
        );
        let e = RpcError::BlockNotAvailable { slot: Slot(9) };
        assert_eq!(
            e.to_json(),
            json!({"code": -32004, "message": "Block not available for slot 9"})
        );
        let e = RpcError::BlockCleanedUp {
            slot: Slot(1),
            first_available: Slot(4),
        };
        assert_eq!(e.code(), -32001);
        assert_eq!(
            e.to_string(),
            "Block 1 cleaned up, does not exist on node. First available block: 4"
        );
    }

    #[test]
    fn archive_faults_answer_by_kind_and_name_the_call() {
        for kind in [
            ArchiveFaultKind::NotFound,
            ArchiveFaultKind::Unreachable,
            ArchiveFaultKind::Corrupt,
            ArchiveFaultKind::Internal,
        ] {
            let e = RpcError::Archive {
                what: "block 7".into(),
                fault: ArchiveFault::new(kind, "object main/blocks/7: bad frame"),
            };
            assert_eq!(
                e.to_json(),
                json!({
                    "code": -32603,
                    "message": "Internal error",
                    "data": "archive: block 7: object main/blocks/7: bad frame",
                }),
                "{kind:?}"
            );
        }
    }
}
