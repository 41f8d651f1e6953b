//! The supported way to produce `getBlock`'s `result` without running the server (tools,
//! benchmarks): fetch a block once, then encode it in as many configurations as wanted.
//! The server's own path (`methods/block.rs`) adds availability, commitment and the memory
//! budget around the same two steps.

use bstore_ledger::fetch::{BlockReader, DataSetView, FetchBuffer, SlotRead};
use bstore_ledger::store::{Blockstore, KvEngine};
use bstore_ledger::{Hash, Slot};

use crate::encode::{BlockHeader, encode_block};
use crate::error::RpcError;
use crate::methods::block::{block_header, read_block};
use crate::methods::chain::Chain;
use crate::methods::history::{self, HistoryRows};
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
    /// Fetches `slot` (one multi-get for the parent's last data set, one for the slot) by
    /// the same reader and with the same errors as `getBlock`: a slot not stored, not full
    /// or dead is `BlockNotAvailable`, one purged `BlockCleanedUp`.
    pub fn fetch<E: KvEngine>(
        store: &Blockstore<E>,
        slot: Slot,
        buf: &'b mut FetchBuffer,
    ) -> Result<Self, RpcError> {
        // No commitment here, so no confirmed window: any positive one will do.
        let chain = Chain::new(store, 1);
        let block = read_block(&chain, slot, SlotRead::Unread, buf)?;
        let rows = HistoryRows {
            statuses: store
                .block_statuses(&block)?
                .into_iter()
                .map(|row| row.map(|row| row.to_vec()))
                .collect(),
            rewards: store.block_rewards(slot)?,
        };
        Ok(Self {
            rows,
            header: block_header(&block),
            sets: block.sets,
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
