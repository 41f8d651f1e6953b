//! The fetch path (`docs/fetch-pipeline.md#the-fetch-pipeline`): completed ranges, deshredding, and
//! (with the `storage` feature)
//! the one-multi-get fetch of a slot's completed data sets from the blockstore.
//!
//! The fetch path sits above the store (`docs/library.md#module-layers-of-bstore-ledger`),
//! so `Blockstore::block_record` (`block_record.rs`), a block with its history rows, is here
//! too; the purge, which reads purged slots back, is one layer up (`crate::retention`).

mod api;
mod assembly;
mod block;
mod block_reader;
mod block_record;
mod block_state;
mod components;
mod decode;
mod deshred;
mod find_tx;
#[cfg(feature = "fetch-pool")]
mod pool;
mod ranges;
mod store_fetch;

pub use crate::defect::DataDefect;
pub use api::{
    AllowDead, DataSetView, EntryFetch, FetchBuffer, ShredRanges, SlotEntries, SlotViews,
    ViewFetch, last_entry_hash,
};
pub use assembly::{SlotShreds, group_by_slot};
pub use block::{block_start, fetch_block_views, parent_blockhash, parent_blockhash_and_state};
pub use block_reader::{Block, BlockReader, SlotRead, first_signatures};
pub use block_state::{BlockFrame, ParentState};
pub use components::{ComponentFetch, SlotComponent, SlotComponents};
pub use decode::Component;
pub use deshred::{check_range_into, deshred, deshred_into};
pub use find_tx::{FoundTransaction, Located};
#[cfg(feature = "fetch-pool")]
pub use pool::FetchPool;
pub use ranges::completed_ranges;
