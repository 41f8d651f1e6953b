//! # bstore-rpc
//!
//! A Solana-compatible JSON-RPC 2.0 server over HTTP for the blocks of a bstore (or Agave)
//! ledger: the third consumer of the fetch path (`docs/consumers.md#rpc-getblock`). Existing Solana
//! clients
//! (`@solana/web3.js`, the Python `solana` / `solders` client) work against it unchanged.
//!
//! The crate is three layers, transport, methods and parameters, with the encoders and the
//! errors beneath them; each is a folder and uses only the folders listed after it
//! (`docs/rpc.md#code-layout`):
//!
//! - `transport/`: [`RpcServer`], the bounded accept loop (`conn.rs`), the limits, the
//!   JSON-RPC runner (`jsonrpc.rs`) and the response body;
//! - `methods/`: one file per method family, commitment and availability (`chain.rs`),
//!   history rows, the archive trait ([`archive`]), the worker pools (`workers.rs`) and the
//!   response memory budget (`budget.rs`); generic over the ledger's storage engine
//!   (`Blockstore<E>`, RocksDB by default), so the tests also run them on the in-memory
//!   engine (the hidden `testing` entry);
//! - `encode/`: block and transaction → JSON, straight from the fetch views;
//! - `params/`: the envelope ([`request`]), typed calls ([`args`]), configs ([`params`],
//!   [`history_params`]);
//! - `error/`: [`RpcError`] and its JSON-RPC [`code`]s.
//!
//! Start reading at [`RpcServer::start`], then `transport/conn.rs`, [`request`] and
//! [`args`], `methods/mod.rs` (where each method's work runs) and `encode/`.
//!
//! Features: `server` (default) is the server over RocksDB. Without it only [`params`] (with
//! [`request`], [`args`] and [`history_params`]) and the errors are built: the supported
//! parsing API the fuzz targets use. The jsonParsed instruction parsers are a crate of their
//! own, `bstore-parsed`, which `encode/` calls for each instruction.
//!
//! Design: `docs/consumers.md#rpc-getblock`, `docs/threading-and-admission.md#rpc-admission`
//! and `docs/rpc.md#code-layout` in the repository; the limits and their flags are in the
//! README.

mod error;
pub mod params;

#[cfg(feature = "server")]
mod encode;
#[cfg(feature = "server")]
mod methods;
#[cfg(feature = "server")]
mod transport;

pub use error::{RpcError, code};
pub use params::history as history_params;
pub use params::{args, request};

#[cfg(feature = "server")]
pub use methods::KeptAnswerCounts;
#[cfg(feature = "server")]
pub use methods::archive;
#[cfg(feature = "server")]
pub use methods::block_api::FetchedBlock;
#[cfg(feature = "server")]
pub use methods::budget::BudgetStats;
#[cfg(feature = "server")]
pub use transport::limits::{CatchUp, ConnLimits, Limits, RpcConfig, Signals};
#[cfg(feature = "server")]
pub use transport::server::RpcServer;

/// The JSON encoders' base58, for the `base58` benchmark only: the fixed-size path the
/// encoders take for 32- and 64-byte values and the any-length path they take otherwise,
/// so both are timed on the same input in one run.
#[cfg(feature = "server")]
#[doc(hidden)]
pub mod bench_base58 {
    /// A base58 writer with reusable working memory, as each JSON answer has one.
    #[derive(Debug, Default)]
    pub struct Base58(crate::encode::Base58Bench);

    impl Base58 {
        /// Appends the base58 text of `bytes` to `out` as the encoders do.
        pub fn encode(&mut self, bytes: &[u8], out: &mut String) {
            self.0.encode(bytes, out, false);
        }

        /// The same text by the any-length path (repeated division by 58^5).
        pub fn encode_by_division(&mut self, bytes: &[u8], out: &mut String) {
            self.0.encode(bytes, out, true);
        }
    }
}
