//! Block → Solana JSON (Agave's `UiConfirmedBlock`), written straight from the fetch
//! path's zero-copy views into one output string.
//!
//! - [`json`]: the minimal writer; `base58`: a fast base58 encoder.
//! - [`transaction`]: one transaction in each encoding and detail level.
//! - [`accounts`]: signer / writable flags for `transactionDetails: "accounts"`.

pub mod accounts;
mod base58;
mod block;
pub mod json;
mod transaction;

pub use block::{BlockHeader, encode_block, encoded_size_hint};
