//! `bstore serve --ledger DIR [--rpc-addr 127.0.0.1:8899] [--archive s3://BUCKET/PREFIX]`:
//! the JSON-RPC server, with an optional archive tier behind the ledger.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use bstore_ledger::store::{AccessMode, Blockstore};
use bstore_rpc::archive::BlockArchive;
use bstore_rpc::{CatchUp, ConnLimits, Limits, RpcConfig, RpcError, RpcServer, Signals};

use crate::serve_archive::ServedArchive;
use clap::{Args, ValueEnum};

/// How the ledger is opened. A server only reads, so the default never writes the
/// ledger: a RocksDB secondary works beside a running writer (an Agave validator, `bstore
/// demo`) and on a ledger no one is writing alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Access {
    /// As a RocksDB secondary, catching up at the writer's changes, at most every
    /// `--catch-up-ms` (its own files go under `--secondary-path`; the ledger's database is
    /// never written).
    Secondary,
    /// As this process's own blockstore, read-write (no other process may hold the ledger).
    Primary,
}

/// Arguments of `bstore serve`.
#[derive(Debug, Args)]
pub(crate) struct ServeArgs {
    /// The ledger directory (the database is DIR/rocksdb).
    #[arg(long, value_name = "DIR")]
    ledger: PathBuf,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8899")]
    rpc_addr: SocketAddr,
    /// Open the ledger as its own blockstore or as a secondary beside a live writer.
    #[arg(long, value_enum, default_value_t = Access::Secondary)]
    access: Access,
    #[command(flatten)]
    wal: crate::open_args::WalArgs,
    /// Where a secondary keeps its own RocksDB files [default: DIR/rpc-secondary].
    #[arg(long, value_name = "DIR")]
    secondary_path: Option<PathBuf>,
    /// An archive tier (`bstore archive --to URL`, `docs/archive.md`): blocks and
    /// transactions the ledger no longer has (purged by retention) are answered from it,
    /// with the same JSON; `getBlocks` and `getFirstAvailableBlock` span both.
    #[arg(long, value_name = "s3://BUCKET/PREFIX")]
    archive: Option<String>,
    #[command(flatten)]
    s3: crate::cmd_archive::S3Args,
    #[command(flatten)]
    catch_up: crate::open_args::CatchUpArgs,
    /// A secondary says it is unhealthy (getHealth -32005, /health `unknown`) once no
    /// catch-up with the writer has succeeded for this long [default: 51200, the time
    /// Agave's health distance of 128 slots takes].
    #[arg(long, value_name = "MS")]
    unhealthy_after_ms: Option<u64>,
    /// Block-fetch worker threads: at most this many getBlock fetches run at once.
    #[arg(long, default_value_t = Limits::default().max_concurrent_fetches)]
    max_concurrent_fetches: usize,
    /// getBlock requests that may wait for a worker; more are refused as busy (-32005).
    #[arg(long, default_value_t = Limits::default().max_queued_fetches)]
    max_queued_fetches: usize,
    /// Largest request body accepted, in bytes.
    #[arg(long, default_value_t = Limits::default().max_request_bytes)]
    max_request_bytes: usize,
    /// Most requests in one batch (default: no limit but the body's size, as Agave).
    #[arg(long)]
    max_batch_len: Option<usize>,
    /// Threads for the other ledger methods (getBlocks, getSlot, ...).
    #[arg(long, default_value_t = Limits::default().max_concurrent_scans)]
    max_concurrent_scans: usize,
    /// Ledger-method calls that may wait for a scan thread; more are refused (-32005).
    #[arg(long, default_value_t = Limits::default().max_queued_scans)]
    max_queued_scans: usize,
    /// Bytes of encoded results all requests may hold at once; more is refused (-32005).
    #[arg(long, default_value_t = Limits::default().response_budget_bytes)]
    response_budget_bytes: usize,
    /// Unrooted slots count as confirmed only within this many slots of the highest one.
    #[arg(long, default_value_t = Limits::default().confirmed_window_slots)]
    confirmed_window_slots: u64,
    /// Open connections at once; one more is closed as soon as it is accepted.
    #[arg(long, default_value_t = ConnLimits::default().max_connections)]
    max_connections: usize,
    /// Milliseconds a client has to send a request's whole header (from connect, or from
    /// the previous response).
    #[arg(long, default_value_t = millis(ConnLimits::default().header_read_timeout))]
    header_read_timeout_ms: u64,
    /// Milliseconds a client has to send a request's whole body once the header is in.
    #[arg(long, default_value_t = millis(ConnLimits::default().body_read_timeout))]
    body_read_timeout_ms: u64,
    /// Milliseconds a connection with no request in progress may stay silent.
    #[arg(long, default_value_t = millis(ConnLimits::default().idle_timeout))]
    idle_timeout_ms: u64,
    /// HTTP I/O threads (each serves the connections handed to it, start to end).
    #[arg(long, default_value_t = RpcConfig::default().io_threads)]
    io_threads: usize,
    /// Send every ledger read to the worker pools: by default the point-read methods (slot
    /// methods, small getSignatureStatuses and getSignaturesForAddress) answer on the I/O
    /// thread, which is faster unless the ledger's storage is slow.
    #[arg(long)]
    no_inline_point_reads: bool,
    /// Memory, in MiB, that remembers where the transactions of recently read blocks sit, so
    /// getTransaction reads only the data set holding one once its block was walked (0: off).
    #[arg(long, default_value_t = 32)]
    transaction_memo_mib: usize,
    /// Memory, in MiB, that keeps getSignaturesForAddress answers (neither before nor until)
    /// for the next request whose address walk finds the same entries (0: off).
    #[arg(long, default_value_t = Limits::default().address_answers_bytes >> 20)]
    address_answers_mib: usize,
    /// Memory, in MiB, that keeps getBlock answers of rooted blocks for the next request of
    /// the same slot and config while the block stays as it was read (0: off).
    #[arg(long, default_value_t = Limits::default().block_answers_bytes >> 20)]
    block_answers_mib: usize,
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// A timeout flag: at least one millisecond (zero would close every connection at once).
fn timeout(ms: u64) -> Duration {
    Duration::from_millis(ms.max(1))
}

/// Runs `bstore serve` until SIGINT or SIGTERM.
pub(crate) fn run(args: ServeArgs) -> Result<(), Box<dyn std::error::Error>> {
    let (mode, catch_up) = match args.access {
        Access::Primary => (AccessMode::ReadWrite, CatchUp::Never),
        Access::Secondary => (
            AccessMode::Secondary {
                secondary_path: args
                    .secondary_path
                    .unwrap_or_else(|| args.ledger.join("rpc-secondary")),
            },
            CatchUp::Paced(args.catch_up.pacing()),
        ),
    };
    let store = Blockstore::open_with(&args.ledger, &args.wal.existing(mode))
        .map_err(|source| RpcError::OpenLedger { source })?;
    store.set_transaction_memo_budget(args.transaction_memo_mib.saturating_mul(1 << 20));
    let config = RpcConfig {
        addr: args.rpc_addr,
        limits: Limits {
            max_request_bytes: args.max_request_bytes,
            max_batch_len: args
                .max_batch_len
                .unwrap_or(Limits::default().max_batch_len),
            max_concurrent_fetches: args.max_concurrent_fetches,
            max_queued_fetches: args.max_queued_fetches,
            max_concurrent_scans: args.max_concurrent_scans,
            max_queued_scans: args.max_queued_scans,
            response_budget_bytes: args.response_budget_bytes,
            confirmed_window_slots: args.confirmed_window_slots,
            address_answers_bytes: args.address_answers_mib.saturating_mul(1 << 20),
            block_answers_bytes: args.block_answers_mib.saturating_mul(1 << 20),
        },
        conn: ConnLimits {
            max_connections: args.max_connections,
            header_read_timeout: timeout(args.header_read_timeout_ms),
            body_read_timeout: timeout(args.body_read_timeout_ms),
            idle_timeout: timeout(args.idle_timeout_ms),
        },
        signals: Signals::Stop,
        catch_up,
        io_threads: args.io_threads,
        inline_point_reads: !args.no_inline_point_reads,
        unhealthy_after: args
            .unhealthy_after_ms
            .map_or(RpcConfig::default().unhealthy_after, Duration::from_millis),
    };
    let archive = match &args.archive {
        Some(url) => {
            let (url_owned, s3) = (url.clone(), args.s3.clone());
            let served = ServedArchive::new(url, move || s3.open(&url_owned));
            served
                .check()
                .map_err(|e| format!("--archive {url}: {e}"))?;
            Some(Arc::new(served) as Arc<dyn BlockArchive>)
        }
        None => None,
    };
    let server = RpcServer::start_with_archive(Arc::new(store), config, archive)?;
    eprintln!(
        "bstore: JSON-RPC on http://{} (ledger {}); SIGINT or SIGTERM stops",
        server.local_addr(),
        args.ledger.display()
    );
    server.wait()?;
    eprintln!("bstore: stopped");
    Ok(())
}
