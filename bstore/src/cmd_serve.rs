//! `bstore serve --ledger DIR [--rpc-addr 127.0.0.1:8899]`: the JSON-RPC server.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use bstore_ledger::store::{AccessMode, Blockstore};
use bstore_rpc::{CatchUp, Limits, RpcConfig, RpcError, RpcServer, Signals};
use clap::{Args, ValueEnum};

/// How the ledger is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Access {
    /// As this process's own blockstore (no other process may hold the ledger open).
    Primary,
    /// As a RocksDB secondary beside a running writer (`bstore demo`, an Agave validator),
    /// catching up every `--catch-up-ms`.
    Secondary,
}

/// Arguments of `bstore serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The ledger directory (the database is DIR/rocksdb).
    #[arg(long, value_name = "DIR")]
    ledger: PathBuf,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8899")]
    rpc_addr: SocketAddr,
    /// Open the ledger as its own blockstore or as a secondary beside a live writer.
    #[arg(long, value_enum, default_value_t = Access::Primary)]
    access: Access,
    /// Where a secondary keeps its own RocksDB files [default: DIR/rpc-secondary].
    #[arg(long, value_name = "DIR")]
    secondary_path: Option<PathBuf>,
    /// How often a secondary catches up with the writer, in milliseconds.
    #[arg(long, default_value_t = 200)]
    catch_up_ms: u64,
    /// Block-fetch worker threads: at most this many getBlock fetches run at once.
    #[arg(long, default_value_t = Limits::default().max_concurrent_fetches)]
    max_concurrent_fetches: usize,
    /// getBlock requests that may wait for a worker; more are refused as busy (-32005).
    #[arg(long, default_value_t = Limits::default().max_queued_fetches)]
    max_queued_fetches: usize,
    /// Largest request body accepted, in bytes.
    #[arg(long, default_value_t = Limits::default().max_request_bytes)]
    max_request_bytes: usize,
    /// Most requests in one batch.
    #[arg(long, default_value_t = Limits::default().max_batch_len)]
    max_batch_len: usize,
    /// HTTP I/O threads.
    #[arg(long, default_value_t = RpcConfig::default().io_threads)]
    io_threads: usize,
}

/// Runs `bstore serve` until SIGINT or SIGTERM.
pub fn run(args: ServeArgs) -> Result<(), Box<dyn std::error::Error>> {
    let (mode, catch_up) = match args.access {
        Access::Primary => (AccessMode::ReadWrite, CatchUp::Never),
        Access::Secondary => (
            AccessMode::Secondary {
                secondary_path: args
                    .secondary_path
                    .unwrap_or_else(|| args.ledger.join("rpc-secondary")),
            },
            CatchUp::Every(Duration::from_millis(args.catch_up_ms.max(1))),
        ),
    };
    let store =
        Blockstore::open(&args.ledger, mode).map_err(|source| RpcError::OpenLedger { source })?;
    let config = RpcConfig {
        addr: args.rpc_addr,
        limits: Limits {
            max_request_bytes: args.max_request_bytes,
            max_batch_len: args.max_batch_len,
            max_concurrent_fetches: args.max_concurrent_fetches,
            max_queued_fetches: args.max_queued_fetches,
        },
        signals: Signals::Stop,
        catch_up,
        io_threads: args.io_threads,
    };
    let server = RpcServer::start(Arc::new(store), config)?;
    eprintln!(
        "bstore: JSON-RPC on http://{} (ledger {}); SIGINT or SIGTERM stops",
        server.local_addr(),
        args.ledger.display()
    );
    server.wait()?;
    eprintln!("bstore: stopped");
    Ok(())
}
