//! # bstore-rpc
//!
//! A Solana-compatible JSON-RPC 2.0 server over HTTP for the blocks of a bstore (or Agave)
//! ledger: the third consumer of the fetch path (SPEC 6.3). Existing Solana clients
//! (`@solana/web3.js`, the Python `solana` / `solders` client) work against it unchanged.
//!
//! Start reading at [`RpcServer::start`], then `jsonrpc.rs` (the envelope), `methods/`
//! (one file per family), [`chain`] (commitment and availability from the blockstore
//! alone), [`encode`] (block → JSON straight from the fetch views) and `workers.rs` (the
//! bounded fetch workers).

pub mod chain;
pub mod encode;
mod error;
mod jsonrpc;
mod limits;
pub mod methods;
pub mod params;
mod server;
mod workers;

pub use error::{RpcError, code};
pub use limits::{CatchUp, Limits, RpcConfig, Signals};
pub use server::RpcServer;
