//! The small writes (`set-root`, `set-dead`, `purge`, `set-replay-rows`) and the
//! `validator` run.

use serde::{Deserialize, Serialize};

/// `set-root`: the slots given to Agave's `set_roots`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rooted {
    /// The slots, as given.
    pub rooted: Vec<u64>,
}

/// `set-dead`: the slots given to Agave's `set_dead_slot`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MarkedDead {
    /// The slots, as given.
    pub dead: Vec<u64>,
}

/// `purge`: the inclusive slot range purged, and by which Agave release (4.2 removes a purged
/// slot whose child survives; 4.3 and later keep it as a placeholder meta).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Purged {
    /// The first slot purged.
    pub start: u64,
    /// The last slot purged (included).
    pub end: u64,
    /// The Agave release the tool is built on (`4.2.2`, `4.3.2`, `4.4.0`).
    pub agave: String,
}

/// `set-replay-rows`: the slots given the rows replay and RPC keep.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplayRowsWritten {
    /// The slots, as given.
    pub slots: Vec<u64>,
}

/// `validator`: printed once the cluster stopped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValidatorRun {
    /// The JSON-RPC URL it served.
    pub rpc_url: String,
    /// The mint's public key (base58).
    pub mint: String,
    /// The mint keypair's file (the Solana CLI's JSON array).
    pub payer: String,
    /// Alpenglow was active from genesis.
    pub alpenglow: bool,
    /// It restarted an existing cluster (`--resume`).
    pub resumed: bool,
    /// Milliseconds from the start to serving.
    pub ready_ms: u64,
    /// Milliseconds from the start to the stop request.
    pub ran_ms: u64,
}
