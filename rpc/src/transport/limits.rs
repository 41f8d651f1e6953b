//! The server's bounds. Every one is an explicit number with a default chosen here, never
//! derived from the machine's core count: the node's replay must keep its CPU whatever the
//! RPC load (`docs/threading-and-admission.md#the-rules`). README.md (RPC section) lists each one
//! with its `bstore serve` flag.

use std::net::SocketAddr;
use std::time::Duration;

use bstore_ledger::store::CatchUpPacing;

/// Request and work bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest accepted HTTP body (Agave: 50 KiB).
    pub max_request_bytes: usize,
    /// Most requests in one JSON-RPC batch (default: no limit but the body's size, as
    /// Agave, which has none; 50 KiB hold at most ~17,000 items).
    pub max_batch_len: usize,
    /// Block-fetch worker threads: at most this many `getBlock` fetch + encode at once.
    pub max_concurrent_fetches: usize,
    /// `getBlock` requests that may wait for a worker; one more is refused as busy.
    pub max_queued_fetches: usize,
    /// Threads for the other ledger methods (history lookups, slot scans, block time,
    /// heights). Two, so one long scan never stalls every `getTransaction` behind it.
    pub max_concurrent_scans: usize,
    /// Ledger-method calls that may wait for a scan thread; one more is refused as busy.
    pub max_queued_scans: usize,
    /// Bytes of encoded results held by all requests at once (from the moment a result is
    /// encoded until its HTTP body is dropped); a result that would pass it is refused as
    /// busy (-32005).
    pub response_budget_bytes: usize,
    /// The confirmed commitment looks at unrooted slots only within this many slots below
    /// the highest stored slot, so the scans behind `getSlot`, `getBlocks` and friends are
    /// bounded whatever the number of unrooted slots.
    pub confirmed_window_slots: u64,
    /// Bytes of `getSignaturesForAddress` answers (no `before` / `until`) kept for the next
    /// request that finds the same entries (0: none kept); past it the least recently used
    /// go.
    pub address_answers_bytes: usize,
    /// Bytes of rooted blocks' `getBlock` answers kept for the next request of the same
    /// slot and config while the block stays as it was read (0: none kept); past it the
    /// least recently used go.
    pub block_answers_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_request_bytes: 50 * 1024,
            max_batch_len: usize::MAX,
            max_concurrent_fetches: 2,
            max_queued_fetches: 32,
            max_concurrent_scans: 2,
            max_queued_scans: 64,
            response_budget_bytes: 256 * 1024 * 1024,
            confirmed_window_slots: 8192,
            address_answers_bytes: 32 * 1024 * 1024,
            block_answers_bytes: 256 * 1024 * 1024,
        }
    }
}

/// Per-connection bounds of the HTTP server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnLimits {
    /// Open connections at once; one more is answered HTTP 503 (JSON-RPC -32005) as soon
    /// as it is accepted, and closed.
    pub max_connections: usize,
    /// From the first byte a request may start with (connection open, or the previous
    /// response sent) until its whole header is in.
    pub header_read_timeout: Duration,
    /// From the end of the header until the whole body is in.
    pub body_read_timeout: Duration,
    /// A connection with no request in progress and no bytes moving either way for this
    /// long is closed (a keep-alive connection waiting for its next request is also cut
    /// by the header timeout, which starts when the previous response is sent).
    pub idle_timeout: Duration,
}

impl Default for ConnLimits {
    fn default() -> Self {
        Self {
            max_connections: 512,
            header_read_timeout: Duration::from_secs(10),
            body_read_timeout: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(10),
        }
    }
}

/// Whether the server stops on SIGINT / SIGTERM (the CLI) or only when told (tests, hosts).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Signals {
    /// Signals are left to the process (the default): the server stops on `RpcServer::stop`.
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
    /// Call `Blockstore::catch_up` when the pacing says it is due: at the writer's next
    /// change, or at fixed intervals.
    Paced(CatchUpPacing),
}

/// Everything the server needs besides the blockstore.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RpcConfig {
    /// Where to listen; port 0 picks a free one (see `RpcServer::local_addr`).
    pub addr: SocketAddr,
    /// Work limits: body and batch sizes, concurrent and queued fetches and scans, the
    /// response budget.
    pub limits: Limits,
    /// Connection limits: how many, and their header, body and idle timeouts.
    pub conn: ConnLimits,
    /// Whether SIGINT / SIGTERM stop the server.
    pub signals: Signals,
    /// Whether and how often the server catches up with a live writer.
    pub catch_up: CatchUp,
    /// I/O threads (one single-threaded Tokio runtime each) for HTTP I/O, request parsing
    /// and the inline point reads; each connection is served by one of them from start to
    /// end.
    pub io_threads: usize,
    /// Whether point-read methods (a bounded handful of RocksDB reads: the slot methods,
    /// small `getSignatureStatuses` and `getSignaturesForAddress`) answer on the I/O thread
    /// that read the request. `false` sends every ledger read to the worker pools, for a
    /// ledger on storage slow enough that no I/O thread should ever wait on it.
    pub inline_point_reads: bool,
    /// A server following a live writer says it is unhealthy (`getHealth`, `/health`) once
    /// no catch-up has succeeded for this long; default: the time Agave's health distance
    /// (128 slots) takes at 400 ms slots.
    pub unhealthy_after: Duration,
}

impl Default for RpcConfig {
    fn default() -> Self {
        Self {
            addr: SocketAddr::from(([127, 0, 0, 1], 8899)),
            limits: Limits::default(),
            conn: ConnLimits::default(),
            signals: Signals::default(),
            catch_up: CatchUp::default(),
            io_threads: 2,
            inline_point_reads: true,
            unhealthy_after: Duration::from_millis(128 * 400),
        }
    }
}
