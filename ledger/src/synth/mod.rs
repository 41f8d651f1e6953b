//! Synthetic, mainnet-like slots for tests, benchmarks, the `ledger generate` command and
//! the demo: PoH-valid entries (64 ticks, configurable hashes per tick) of mainnet-like
//! transactions, grouped into data sets of about one FEC set each, shredded by the real
//! [`Shredder`](crate::shred::Shredder) into chained, signed Merkle shreds whose last FEC set
//! is resigned. Deterministic for a given seed. [`alpenglow`] builds Alpenglow blocks
//! (block markers and one-hash entries) from components the caller chooses.

pub mod alpenglow;
pub mod history;
mod slot;
mod txs;

pub use slot::{GeneratedSlot, SlotGenerator, SlotSpec};
pub use txs::{mainnet_like, multisig, v0_with_lookups, vote};
