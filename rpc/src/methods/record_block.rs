//! A block from the archive (`BlockRecord`: entry sets and raw history rows) as the same
//! views and rows a local fetch gives, so `getBlock` and `getTransaction` answer from it
//! with the local encoders, byte for byte the same JSON.

use bstore_ledger::Slot;
use bstore_ledger::entry::EntriesView;
use bstore_ledger::fetch::DataSetView;
use bstore_ledger::history::{BlockRecord, StatusMeta};

use crate::encode::{BlockHeader, encode_block};
use crate::error::RpcError;
use crate::methods::history::{self, HistoryRows};
use crate::methods::transaction::confirmed_transaction_json;
use crate::params::BlockConfig;
use crate::params::history::TransactionConfig;

/// An archived block, parsed (views borrow the record).
#[derive(Debug)]
pub(crate) struct RecordBlock<'r> {
    slot: Slot,
    header: BlockHeader,
    sets: Vec<DataSetView<'r>>,
    rows: HistoryRows<&'r [u8]>,
}

fn corrupt(slot: Slot, why: impl std::fmt::Display) -> RpcError {
    RpcError::Internal {
        reason: format!("archived block {slot}: {why}"),
    }
}

impl<'r> RecordBlock<'r> {
    /// Parses the record's entry sets; a record whose statuses do not line up with its
    /// transactions is corrupt (an internal error naming the slot).
    pub(crate) fn new(record: &'r BlockRecord) -> Result<Self, RpcError> {
        let slot = record.slot;
        let sets = record
            .entry_sets
            .iter()
            .map(|bytes| {
                EntriesView::parse(bytes)
                    .map(|entries| DataSetView {
                        range: 0..0,
                        entries,
                        marker: None,
                    })
                    .map_err(|e| corrupt(slot, e))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let txs: usize = sets.iter().map(|s| s.entries.transactions().len()).sum();
        if !record.statuses.is_empty() && record.statuses.len() != txs {
            return Err(corrupt(
                slot,
                format!("{} statuses for {txs} transactions", record.statuses.len()),
            ));
        }
        let statuses = if record.statuses.is_empty() {
            vec![None; txs]
        } else {
            record.statuses.iter().map(|s| s.as_deref()).collect()
        };
        Ok(Self {
            slot,
            header: BlockHeader {
                parent_slot: record.parent_slot,
                blockhash: record.blockhash,
                previous_blockhash: record.previous_blockhash,
                block_time: record.block_time,
                block_height: record.block_height,
            },
            sets,
            rows: HistoryRows {
                statuses,
                rewards: record.rewards.clone(),
            },
        })
    }

    /// `getBlock`'s result (`null` when the block's history is incomplete, as locally).
    pub(crate) fn block_json(&self, cfg: &BlockConfig) -> Result<String, RpcError> {
        match history::decode(&self.rows) {
            Ok(history) => encode_block(&self.header, &self.sets, &history, cfg),
            Err(_) => Ok("null".into()),
        }
    }

    /// `getTransaction`'s result for the transaction at `index` whose first signature is
    /// `signature` (`null` when it is not there or has no readable status).
    pub(crate) fn transaction_json(
        &self,
        index: u32,
        signature: &[u8; 64],
        cfg: &TransactionConfig,
    ) -> Result<String, RpcError> {
        let Some(tx) = self
            .sets
            .iter()
            .flat_map(|s| s.entries.transactions())
            .nth(index as usize)
            .filter(|tx| tx.first_signature() == Some(signature))
        else {
            return Ok("null".into());
        };
        let Some(Some(row)) = self.rows.statuses.get(index as usize) else {
            return Ok("null".into());
        };
        let Ok(meta) = StatusMeta::decode(row) else {
            return Ok("null".into());
        };
        confirmed_transaction_json(self.slot, index, &tx, &meta, self.header.block_time, cfg)
    }
}
