//! [`Blockstore::block_record`]: the full block of a slot with its history rows, owned,
//! as an archive stores it. The block is read by the [`BlockReader`] rules
//! (`block_reader.rs`), its rows by the store's raw history reads (`store/history_rows.rs`).

use crate::error::{LedgerError, Result};
use crate::fetch::{BlockReader, FetchBuffer, SlotRead};
use crate::history::BlockRecord;
use crate::store::{Blockstore, KvEngine};
use crate::types::Slot;

impl<E: KvEngine> Blockstore<E> {
    /// The full block of `slot` with its history rows, owned: what an archive stores, read
    /// by the [`BlockReader`] rules. A slot this process purged is `SlotCleanedUp`, a dead
    /// one `DeadSlot`; a slot without a meta, not full or without entries is
    /// `InvalidBlockRecord` naming which.
    pub fn block_record(&self, slot: Slot, buf: &mut FetchBuffer) -> Result<BlockRecord> {
        let Some(block) = self.block(slot, SlotRead::Unread, buf)? else {
            // Only on this error path is the meta read again, to say why.
            let why = match self.meta(slot)? {
                None => "no slot meta",
                Some(meta) if !meta.is_full() => "the slot is not full",
                Some(_) => "the slot has no entries",
            };
            return Err(not_a_block(slot, why));
        };
        let statuses = self
            .block_statuses(&block)?
            .into_iter()
            .map(|row| row.map(|row| row.to_vec()))
            .collect();
        Ok(BlockRecord {
            slot,
            parent_slot: block.parent_slot(),
            blockhash: block.blockhash,
            previous_blockhash: block.previous_blockhash.unwrap_or_default(),
            block_time: block.block_time,
            block_height: block.block_height,
            entry_sets: block
                .sets
                .iter()
                .map(|set| set.entries.bytes().to_vec())
                .collect(),
            statuses,
            rewards: self.block_rewards(slot)?,
        })
    }
}

fn not_a_block(slot: Slot, why: &str) -> LedgerError {
    LedgerError::InvalidBlockRecord {
        reason: format!("slot {slot}: {why}"),
    }
}
