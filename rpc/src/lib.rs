//! # bstore-rpc
//!
//! A Solana-compatible JSON-RPC 2.0 server over HTTP for the blocks of a bstore (or Agave)
//! ledger: the third consumer of the fetch path (`docs/consumers.md#rpc-getblock`). Existing Solana
//! clients
//! (`@solana/web3.js`, the Python `solana` / `solders` client) work against it unchanged.
//!
//! Start reading at [`RpcServer::start`], then `conn.rs` (the bounded accept loop),
//! [`request`] (the envelope) and [`args`] (typed params), `methods/` (one file per
//! family), [`chain`] (commitment and availability from the blockstore alone), [`encode`]
//! (block → JSON straight from the fetch views), `workers.rs` (the bounded worker pools)
//! and `budget.rs` (the memory budget of responses in flight).
//!
//! Features: `server` (default) is the server over RocksDB. Without it only [`request`],
//! [`args`], [`params`] and [`history_params`] are built: the supported parsing API the
//! fuzz targets use. The jsonParsed instruction parsers are a crate of their own,
//! `bstore-parsed`, which `encode/` calls for each instruction.
//!
//! Design: `docs/consumers.md#rpc-getblock` and `docs/threading-and-admission.md#rpc-admission`
//! in the repository; the limits and their flags are in the README.

pub mod args;
mod error;
pub mod history_params;
pub mod params;
pub mod request;

#[cfg(feature = "server")]
pub mod archive;
#[cfg(feature = "server")]
mod block_api;
#[cfg(feature = "server")]
mod budget;
#[cfg(feature = "server")]
mod chain;
#[cfg(feature = "server")]
mod conn;
#[cfg(feature = "server")]
mod conn_refuse;
#[cfg(feature = "server")]
mod encode;
#[cfg(feature = "server")]
mod history;
#[cfg(feature = "server")]
mod jsonrpc;
#[cfg(feature = "server")]
mod limits;
#[cfg(feature = "server")]
mod methods;
#[cfg(feature = "server")]
mod record_block;
#[cfg(feature = "server")]
mod server;
#[cfg(feature = "server")]
mod workers;

#[cfg(feature = "server")]
pub use block_api::FetchedBlock;
#[cfg(feature = "server")]
pub use budget::BudgetStats;
pub use error::{RpcError, code};
#[cfg(feature = "server")]
pub use limits::{CatchUp, ConnLimits, Limits, RpcConfig, Signals};
#[cfg(feature = "server")]
pub use server::RpcServer;
