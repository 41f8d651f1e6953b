//! The purge of the signature-keyed history columns (`transaction_status`,
//! `transaction_memos`, `address_signatures`), which a slot range delete cannot reach: their
//! keys start with a signature or an address. As Agave's `purge_special_columns_exact`, every
//! purged slot's transactions are read back (their first signature, static keys, and the
//! keys their status says were loaded from lookup tables) and each row they own is deleted
//! in the purge's own batch.
//!
//! Reading the slots back is the fetch path's work, which is why the purge lives above both
//! the store and the fetch path: `purge.rs` calls this from inside the one atomic write that
//! also deletes the slot range.

use crate::error::Result;
use crate::fetch::{AllowDead, FetchBuffer, ViewFetch};
use crate::history::StatusMeta;
use crate::store::columns::{
    AddressRowKey, AddressSignatures, TransactionMemos, TransactionStatus,
};
use crate::store::{Blockstore, KvEngine, RowBatch};
use crate::types::{Pubkey, Signature, Slot};

impl<E: KvEngine> Blockstore<E> {
    /// Adds to `batch` the deletion of every history row of `slot`'s transactions; `false`
    /// when the slot's shreds do not read back (corrupt): its rows stay (counted in
    /// `PurgeStats::history_unreadable`) and the purge of the range goes on.
    pub(crate) fn purge_history_rows(
        &self,
        batch: &mut RowBatch<'_, E>,
        slot: Slot,
        buf: &mut FetchBuffer,
    ) -> Result<bool> {
        let Ok(views) = self.fetch_slot_views(slot, 0, AllowDead::Yes, buf) else {
            return Ok(false);
        };
        let txs = views.sets.iter().flat_map(|s| s.entries.transactions());
        for (index, tx) in txs.enumerate() {
            let Some(sig) = tx.first_signature() else {
                continue;
            };
            let status_key = (Signature(*sig), slot);
            let status = self.engine.get_pinned::<TransactionStatus>(status_key)?;
            let meta = status
                .as_deref()
                .and_then(|row| StatusMeta::decode(row).ok());
            let message = tx.message();
            let loaded = meta
                .iter()
                .flat_map(|m| m.loaded_writable.iter().chain(&m.loaded_readonly).copied());
            let transaction_index = u32::try_from(index).unwrap_or(u32::MAX);
            for key in message.account_keys().chain(loaded) {
                batch.delete::<AddressSignatures>(AddressRowKey {
                    address: Pubkey(*key),
                    slot,
                    transaction_index,
                    signature: Signature(*sig),
                })?;
            }
            batch.delete::<TransactionStatus>(status_key)?;
            batch.delete::<TransactionMemos>(status_key)?;
        }
        Ok(true)
    }
}

#[cfg(all(test, feature = "synth"))]
#[path = "purge_history_tests.rs"]
mod tests;
