//! The server's bounds. Every one is an explicit number with a default chosen here, never
//! derived from the machine's core count: the node's replay must keep its CPU whatever the
//! RPC load (SPEC 1).

use std::net::SocketAddr;
use std::time::Duration;

/// Request and work bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest accepted HTTP body (Agave: 50 KiB).
    pub max_request_bytes: usize,
    /// Most requests in one JSON-RPC batch.
    pub max_batch_len: usize,
    /// Block-fetch worker threads: at most this many `getBlock` fetch + encode at once.
    pub max_concurrent_fetches: usize,
    /// `getBlock` requests that may wait for a worker; one more is refused as busy.
    pub max_queued_fetches: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_request_bytes: 50 * 1024,
            max_batch_len: 100,
            max_concurrent_fetches: 2,
            max_queued_fetches: 32,
        }
    }
}

/// Whether the server stops on SIGINT / SIGTERM (the CLI) or only when told (tests, hosts).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Signals {
    #[default]
    Ignore,
    /// Graceful shutdown on SIGINT or SIGTERM.
    Stop,
}

/// Whether the server follows a live writer (a RocksDB secondary).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CatchUp {
    /// The blockstore is this process's own (or a read-only snapshot).
    #[default]
    Never,
    /// Call `Blockstore::catch_up` at this interval.
    Every(Duration),
}

/// Everything the server needs besides the blockstore.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RpcConfig {
    /// Where to listen; port 0 picks a free one (see `RpcServer::local_addr`).
    pub addr: SocketAddr,
    pub limits: Limits,
    pub signals: Signals,
    pub catch_up: CatchUp,
    /// Tokio worker threads for HTTP I/O and request parsing.
    pub io_threads: usize,
}

impl Default for RpcConfig {
    fn default() -> Self {
        Self {
            addr: SocketAddr::from(([127, 0, 0, 1], 8899)),
            limits: Limits::default(),
            signals: Signals::default(),
            catch_up: CatchUp::default(),
            io_threads: 2,
        }
    }
}
