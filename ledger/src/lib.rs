//! # bstore-ledger
//!
//! The ledger layer of bstore: the Agave-compatible RocksDB blockstore, and the fetch path
//! that turns completed shred ranges back into entries. Folders follow the data's path:
//!
//! - [`shred`], [`entry`], [`stream`], [`types`]: the wire formats, re-exported from
//!   `bstore-formats` (the crate with no storage) under their historical paths.
//! - [`fetch`]: completed ranges and deshredding (`docs/fetch-pipeline.md#the-fetch-pipeline`).
//! - [`store`]: columns, keys, `SlotMeta`, shred insertion and `Blockstore`, over the
//!   storage seam [`store::kv`] (small traits over raw bytes); engines: `MemEngine`
//!   (always built) and, with feature `storage`, `RocksEngine`
//!   (`docs/on-disk-layout.md#column-families`); `FaultEngine` wraps either and fails
//!   chosen operations on purpose (`docs/storage-seam.md#fault-injection`).
//! - [`history`]: the transaction history rows a validator writes beside its shreds
//!   (statuses, rewards) and [`history::BlockRecord`], a block with its rows.
//! - `synth` (feature `synth`, not default): deterministic mainnet-like slots for tests,
//!   benchmarks and the demo.
//!
//! Modules import from the bottom up: the defects (`defect/`) and the wire reader
//! (`wire.rs`), [`error`], [`history`], [`store`], [`fetch`], `retention` (purging slot
//! ranges), `synth`
//! (`docs/library.md#module-layers-of-bstore-ledger`).
//!
//! Start reading at [`shred::ShredRef`], then `store::Blockstore::insert_shreds`
//! (`docs/on-disk-layout.md#inserting-shreds`),
//! then the fetch side: the traits in `fetch/api.rs` ([`fetch::ViewFetch`],
//! [`fetch::EntryFetch`], [`fetch::ShredRanges`]) and their implementation in
//! `fetch/store_fetch.rs`, then [`entry::EntriesView`].
//!
//! Design and formats, with the Agave or Firedancer source of each fact and the fixture that
//! checks it: `docs/README.md` in the repository (shreds: `docs/formats-shreds.md`, entries:
//! `docs/formats-entries.md`, store: `docs/on-disk-layout.md`, fetch:
//! `docs/fetch-pipeline.md`).

mod defect;
pub mod error;
pub mod fetch;
pub mod history;
mod retention;
pub mod store;
#[cfg(feature = "synth")]
pub mod synth;
mod wire;

// The wire formats live in `bstore-formats` (no storage); they are re-exported under their
// old paths so that `bstore_ledger::shred::ShredRef` and `crate::entry::...` keep naming
// the same items.
pub use bstore_formats::{FormatError, block, entry, shred, stream, types};

pub use error::{LedgerError, Result};
pub use types::{Hash, Pubkey, ShredIndex, Signature, Slot};
