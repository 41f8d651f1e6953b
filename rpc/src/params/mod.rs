//! The parameters layer: a request body in, typed calls out, with no ledger access and no
//! HTTP. It builds without the `server` feature and is the API the fuzz targets use.
//!
//! - [`request`]: the JSON-RPC 2.0 envelope of one body (a request or a batch), read
//!   through [`members`] (which sees a member sent twice);
//! - [`args`]: method name and params → [`args::Call`], the one place params are read;
//! - this module: positional [`Params`], the shared configs ([`BlockConfig`],
//!   [`ContextConfig`], [`Commitment`], [`Encoding`], [`TransactionDetails`]);
//! - [`history`]: the params of the history methods (signatures, addresses, their limits).
//!
//! Uses nothing of the crate but its errors ([`RpcError`](crate::RpcError)).

pub mod args;
mod base58;
mod config;
pub mod history;
pub mod members;
pub mod request;

pub use config::{
    BlockConfig, Commitment, ContextConfig, Encoding, Params, TransactionDetails,
    check_base58_version, no_params, parse,
};
