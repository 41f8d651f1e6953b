//! Raw reads of the history columns Agave's validator writes after executing a block
//! (`docs/history.md#columns`): `transaction_status` and `transaction_memos` keyed by
//! signature ‖ slot (u64 BE), `rewards` keyed by slot, and the [`BlockRecord`] of a slot.
//! Values are returned as stored; `crate::history` decodes them.

use super::blockstore::Blockstore;
use super::column::Column;
use super::columns::{Rewards, TransactionMemos, TransactionStatus, signature_slot_key};
use super::kv::KvEngine;
use super::typed::Engine;
use crate::error::{LedgerError, Result};
use crate::fetch::{FetchBuffer, fetch_block_views, parent_blockhash};
use crate::history::BlockRecord;
use crate::types::{Signature, Slot};

impl<E: KvEngine> Blockstore<E> {
    /// The `transaction_status` values of `slot` for `signatures`, in the order given: one
    /// multi-get over the keys sorted ascending (the engine's contract), mapped back.
    pub fn transaction_status_rows(
        &self,
        slot: Slot,
        signatures: &[&[u8; 64]],
    ) -> Result<Vec<Option<Vec<u8>>>> {
        Ok(self
            .transaction_status_pinned(slot, signatures)?
            .into_iter()
            .map(|v| v.map(|v| v.to_vec()))
            .collect())
    }

    /// [`Self::transaction_status_rows`] without copying the values out of the engine.
    pub fn transaction_status_pinned(
        &self,
        slot: Slot,
        signatures: &[&[u8; 64]],
    ) -> Result<Vec<Option<E::Pinned<'_>>>> {
        signature_rows::<E, TransactionStatus>(&self.engine, slot, signatures)
    }

    /// One transaction's status value ([`Self::transaction_status_rows`] for one key).
    pub fn transaction_status_row(
        &self,
        slot: Slot,
        signature: &[u8; 64],
    ) -> Result<Option<Vec<u8>>> {
        self.signature_row::<TransactionStatus>(slot, signature)
    }

    /// One transaction's memo value (Agave: a bincode `String`).
    pub fn transaction_memo_row(
        &self,
        slot: Slot,
        signature: &[u8; 64],
    ) -> Result<Option<Vec<u8>>> {
        self.signature_row::<TransactionMemos>(slot, signature)
    }

    /// The value at `signature ‖ slot` of a signature-keyed column.
    fn signature_row<C: Column<Key = (Signature, Slot)>>(
        &self,
        slot: Slot,
        signature: &[u8; 64],
    ) -> Result<Option<Vec<u8>>> {
        let key = (Signature(*signature), slot);
        Ok(self.engine.get_pinned::<C>(key)?.map(|v| v.to_vec()))
    }

    /// The slot's `rewards` value.
    pub fn rewards_row(&self, slot: Slot) -> Result<Option<Vec<u8>>> {
        Ok(self.engine.get_pinned::<Rewards>(slot)?.map(|v| v.to_vec()))
    }

    /// The full block of `slot` with its history rows, owned: what an archive stores. The
    /// slot must be full and not dead (`DeadSlot`, or `CorruptValue`-free `MissingShred`
    /// errors from the fetch otherwise); a slot without meta is `SlotCleanedUp` when purged,
    /// else `InvalidBlockRecord`.
    pub fn block_record(&self, slot: Slot, buf: &mut FetchBuffer) -> Result<BlockRecord> {
        let Some(meta) = self.meta(slot)? else {
            return Err(not_a_block(slot, "no slot meta"));
        };
        let parent_slot = meta.parent_slot.unwrap_or_default();
        let previous_blockhash = parent_blockhash(self, meta.parent_slot, buf)?.unwrap_or_default();
        let block_time = self.block_time(slot)?;
        let block_height = self.block_height(slot)?;
        let rewards = self.rewards_row(slot)?;
        let views = fetch_block_views(self, slot, &meta, buf)?;
        if !views.is_full {
            return Err(not_a_block(slot, "the slot is not full"));
        }
        let blockhash = views
            .blockhash()
            .ok_or_else(|| not_a_block(slot, "the slot has no entries"))?;
        let signatures: Vec<&[u8; 64]> = views
            .sets
            .iter()
            .flat_map(|set| set.entries.transactions())
            .map(|tx| tx.first_signature().unwrap_or(&[0u8; 64]))
            .collect();
        let statuses = self.transaction_status_rows(slot, &signatures)?;
        let entry_sets = views
            .sets
            .iter()
            .map(|set| set.entries.bytes().to_vec())
            .collect();
        Ok(BlockRecord {
            slot,
            parent_slot,
            blockhash,
            previous_blockhash,
            block_time,
            block_height,
            entry_sets,
            statuses,
            rewards,
        })
    }
}

fn not_a_block(slot: Slot, why: &str) -> LedgerError {
    LedgerError::InvalidBlockRecord {
        reason: format!("slot {slot}: {why}"),
    }
}

/// Values of `C` at `signature ‖ slot` for each signature, in the order given.
fn signature_rows<'e, E: KvEngine, C: Column<KeyBytes = [u8; 72]>>(
    engine: &'e Engine<E>,
    slot: Slot,
    signatures: &[&[u8; 64]],
) -> Result<Vec<Option<E::Pinned<'e>>>> {
    let mut order: Vec<usize> = (0..signatures.len()).collect();
    order.sort_unstable_by_key(|&i| signatures.get(i).copied());
    let keys: Vec<[u8; 72]> = order
        .iter()
        .filter_map(|&i| signatures.get(i))
        .map(|sig| signature_slot_key(sig, slot))
        .collect();
    let values = engine.multi_get_pinned::<C>(&keys)?;
    let mut out: Vec<Option<E::Pinned<'e>>> = signatures.iter().map(|_| None).collect();
    for (&i, value) in order.iter().zip(values) {
        if let Some(slot_out) = out.get_mut(i) {
            *slot_out = value;
        }
    }
    Ok(out)
}
