//! Block → Solana JSON (Agave's `UiConfirmedBlock`), written straight from the fetch
//! path's zero-copy views and the ledger's history rows into one output string.
//!
//! - [`json`]: the minimal writer; `base58`: a fast base58 encoder.
//! - [`transaction`]: one transaction in each encoding and detail level; `meta`: its
//!   status; `tx_error`: its error; `instruction`: one instruction, compiled or jsonParsed.
//! - [`accounts`]: signer / writable flags and sources of a transaction's keys.

pub(crate) mod accounts;
mod base58;
mod block;
mod instruction;
pub(crate) mod json;
mod meta;
mod transaction;
mod tx_error;

pub(crate) use block::{BlockHeader, BlockHistory, encode_block, encoded_size_hint};
pub(crate) use transaction::write_transaction_members;
pub(crate) use tx_error::{write_err_and_status, write_tx_error};

/// [`base58::encode_into`] with its own reusable working memory, as the JSON writer holds
/// one, for the benchmark (`bench_base58` in lib.rs).
#[derive(Debug, Default)]
pub(crate) struct Base58Bench(base58::Base58Scratch);

impl Base58Bench {
    /// The encoders' base58 (or, with `by_division`, the any-length path for every length).
    pub(crate) fn encode(&mut self, bytes: &[u8], out: &mut String, by_division: bool) {
        if by_division {
            base58::encode_any(bytes, out, &mut self.0);
        } else {
            base58::encode_into(bytes, out, &mut self.0);
        }
    }
}
