//! The supported way to produce `getBlock`'s `result` without running the server (tools,
//! benchmarks): fetch a block once, then encode it in as many configurations as wanted.
//! The server's own path (`methods/block.rs`) adds availability, commitment and the memory
//! budget around the same two steps.

use bstore_ledger::fetch::{DataSetView, FetchBuffer, fetch_block_views};
use bstore_ledger::store::Blockstore;
use bstore_ledger::{Hash, Slot};

use crate::encode::{BlockHeader, encode_block};
use crate::error::RpcError;
use crate::history::{self, HistoryRows, block_signatures};
use crate::methods::block::previous_blockhash;
use crate::params::BlockConfig;

/// A full block fetched as zero-copy views over the caller's buffer.
#[derive(Debug)]
pub struct FetchedBlock<'b> {
    header: BlockHeader,
    sets: Vec<DataSetView<'b>>,
    /// The block's history rows, copied out of the store.
    rows: HistoryRows<Vec<u8>>,
}

impl<'b> FetchedBlock<'b> {
    /// Fetches `slot` (one multi-get for the parent's last data set, one for the slot).
    /// A slot that is not stored, not full, dead, or purged is `BlockNotAvailable`.
    pub fn fetch(
        store: &Blockstore,
        slot: Slot,
        buf: &'b mut FetchBuffer,
    ) -> Result<Self, RpcError> {
        let Some(meta) = store.meta(slot)? else {
            return Err(RpcError::BlockNotAvailable { slot });
        };
        let previous = previous_blockhash(store, meta.parent_slot, buf)?;
        let block_time = store.block_time(slot)?;
        let block_height = store.block_height(slot)?;
        let views = match fetch_block_views(store, slot, &meta, buf) {
            Ok(views) => views,
            Err(
                bstore_ledger::LedgerError::DeadSlot { .. }
                | bstore_ledger::LedgerError::SlotCleanedUp { .. },
            ) => {
                return Err(RpcError::BlockNotAvailable { slot });
            }
            Err(e) => return Err(e.into()),
        };
        let (true, Some(blockhash)) = (views.is_full, views.blockhash()) else {
            return Err(RpcError::BlockNotAvailable { slot });
        };
        let signatures = block_signatures(&views.sets);
        let rows = HistoryRows {
            statuses: store.transaction_status_rows(slot, &signatures)?,
            rewards: store.rewards_row(slot)?,
        };
        Ok(Self {
            rows,
            header: BlockHeader {
                parent_slot: meta.parent_slot.unwrap_or_default(),
                blockhash,
                previous_blockhash: previous,
                block_time,
                block_height,
            },
            sets: views.sets,
        })
    }

    /// The block's data sets.
    pub fn sets(&self) -> &[DataSetView<'b>] {
        &self.sets
    }

    /// The slot's blockhash (its last entry hash).
    pub fn blockhash(&self) -> Hash {
        self.header.blockhash
    }

    /// `getBlock`'s `result` for `config`, as JSON text: `null` when the block's history
    /// is incomplete (`history.rs`), as from the server.
    pub fn encode(&self, config: &BlockConfig) -> Result<String, RpcError> {
        match history::decode(&self.rows) {
            Ok(history) => encode_block(&self.header, &self.sets, &history, config),
            Err(_) => Ok("null".to_string()),
        }
    }
}
