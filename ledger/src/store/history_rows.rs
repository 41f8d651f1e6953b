//! Raw reads of the history columns Agave's validator writes after executing a block
//! (`docs/history.md#columns`): `transaction_status` and `transaction_memos` keyed by
//! signature ‖ slot (u64 BE), `rewards` keyed by slot. Values are returned as stored;
//! `crate::history` decodes them. A slot's block with its rows (`Blockstore::block_record`)
//! needs the block read back, so it is the fetch path's (`fetch/block_record.rs`).

use super::blockstore::Blockstore;
use super::column::Column;
use super::columns::{BlockTime, Rewards, TransactionMemos, TransactionStatus, signature_slot_key};
use super::kv::{Direction, KvCursor, KvEngine};
use super::typed::Engine;
use crate::error::Result;
use crate::types::{Signature, Slot};

impl<E: KvEngine> Blockstore<E> {
    /// Whether the ledger holds any transaction status at all (a ledger bstore ingested
    /// from shreds has none, and its purges skip reading the slots back).
    pub(crate) fn has_history(&self) -> Result<bool> {
        let mut cursor = self
            .engine
            .cursor::<TransactionStatus>(&[], None, Direction::Forward);
        Ok(cursor.advance().transpose()?.is_some())
    }

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

    /// The memo values at each `(slot, signature)`, in the order given: one multi-get.
    pub fn transaction_memo_rows(&self, at: &[(Slot, &[u8; 64])]) -> Result<Vec<Option<Vec<u8>>>> {
        Ok(signature_rows_at::<E, TransactionMemos>(&self.engine, at)?
            .into_iter()
            .map(|v| v.map(|v| v.to_vec()))
            .collect())
    }

    /// The block times of `slots`, in the order given: one multi-get of those not
    /// remembered (`Blockstore::block_time` says which are).
    pub fn block_times(&self, slots: &[Slot]) -> Result<Vec<Option<i64>>> {
        let bounds = self.roots_bounds()?;
        let mut times: Vec<Option<i64>> = slots
            .iter()
            .map(|&slot| self.remembered_block_time(slot, bounds))
            .collect();
        let unknown: Vec<usize> = (0..slots.len()).filter(|&i| times[i].is_none()).collect();
        if unknown.is_empty() {
            return Ok(times);
        }
        let keys = unknown
            .iter()
            .map(|&i| BlockTime::encode_key(slots[i]))
            .collect();
        let values = rows_in_order::<E, BlockTime>(&self.engine, keys)?;
        for (i, value) in unknown.into_iter().zip(values) {
            let slot = slots[i];
            let time = value
                .map(|bytes| BlockTime::decode_value(slot, &bytes))
                .transpose()?;
            self.remember_block_time(slot, time, bounds);
            times[i] = time;
        }
        Ok(times)
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
}

/// Values of `C` at `signature ‖ slot` for each signature, in the order given.
fn signature_rows<'e, E: KvEngine, C: Column<KeyBytes = [u8; 72]>>(
    engine: &'e Engine<E>,
    slot: Slot,
    signatures: &[&[u8; 64]],
) -> Result<Vec<Option<E::Pinned<'e>>>> {
    let at: Vec<(Slot, &[u8; 64])> = signatures.iter().map(|sig| (slot, *sig)).collect();
    signature_rows_at::<E, C>(engine, &at)
}

/// Values of `C` at `signature ‖ slot` for each pair, in the order given: one multi-get.
fn signature_rows_at<'e, E: KvEngine, C: Column<KeyBytes = [u8; 72]>>(
    engine: &'e Engine<E>,
    at: &[(Slot, &[u8; 64])],
) -> Result<Vec<Option<E::Pinned<'e>>>> {
    let keys = at
        .iter()
        .map(|(slot, sig)| signature_slot_key(sig, *slot))
        .collect();
    rows_in_order::<E, C>(engine, keys)
}

/// Values of `C` at `keys`, in the order given: one multi-get over the keys sorted
/// ascending (the engine's contract), mapped back to their places.
fn rows_in_order<'e, E: KvEngine, C: Column>(
    engine: &'e Engine<E>,
    keys: Vec<C::KeyBytes>,
) -> Result<Vec<Option<E::Pinned<'e>>>> {
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_unstable_by(|&a, &b| {
        let key = |i: usize| keys.get(i).map(AsRef::as_ref).unwrap_or_default();
        key(a).cmp(key(b))
    });
    let sorted: Vec<C::KeyBytes> = order.iter().filter_map(|&i| keys.get(i).copied()).collect();
    let values = engine.multi_get_pinned::<C>(&sorted)?;
    let mut out: Vec<Option<E::Pinned<'e>>> = keys.iter().map(|_| None).collect();
    for (&i, value) in order.iter().zip(values) {
        if let Some(place) = out.get_mut(i) {
            *place = value;
        }
    }
    Ok(out)
}
