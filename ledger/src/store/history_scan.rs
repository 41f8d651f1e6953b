//! Scans of the signature-keyed history columns (`docs/history.md#columns`), bounded:
//!
//! - the statuses of signatures (`transaction_status`, key signature ‖ slot) through
//!   [`StatusLookup`], which finds the first accepted status of many signatures with one
//!   cursor, for `getTransaction`, `getSignatureStatuses` and `getSignaturesForAddress`
//!   (one lookup per entry);
//! - the signatures touching one address (`address_signatures`, key address ‖ slot ‖
//!   transaction index (u32 BE) ‖ signature), newest first, for `getSignaturesForAddress`.
//!
//! A key that does not have its column's length is a `CorruptKey` error naming the column.

use std::ops::ControlFlow;

use super::blockstore::{Blockstore, DefaultEngine};
use super::column::Column;
use super::columns::{AddressSignatures, TransactionStatus, signature_slot_key};
use super::keys::{AddressRowKey, address_slot_key};
use super::kv::{Direction, KvCursor, KvEngine};
use crate::error::{LedgerError, Result};
use crate::types::Slot;

/// Slots looked at per signature at most: a signature lands in more than one slot only on
/// forks, so this many means a corrupt or hostile column, and the scan stops there.
pub const MAX_SLOTS_PER_SIGNATURE: usize = 1024;

/// One `address_signatures` entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AddressSignature {
    /// The slot of the block holding the transaction.
    pub slot: Slot,
    /// Position of the transaction in its block (0-based).
    pub transaction_index: u32,
    /// The transaction's first signature.
    pub signature: [u8; 64],
}

impl From<AddressRowKey> for AddressSignature {
    fn from(key: AddressRowKey) -> Self {
        Self {
            slot: key.slot,
            transaction_index: key.transaction_index,
            signature: key.signature.0,
        }
    }
}

impl<E: KvEngine> Blockstore<E> {
    /// A [`StatusLookup`] over this store's `transaction_status` column.
    pub fn status_lookup(&self) -> StatusLookup<'_, E> {
        StatusLookup {
            cursor: self
                .engine
                .cursor::<TransactionStatus>(&[], None, Direction::Forward),
        }
    }

    /// The entries of `address` in `slot`, in key order (transaction index, signature).
    pub fn address_signatures_in_slot(
        &self,
        address: &[u8; 32],
        slot: Slot,
    ) -> Result<Vec<AddressSignature>> {
        let lower = address_slot_key(address, slot);
        let upper = slot
            .0
            .checked_add(1)
            .map(|next| address_slot_key(address, Slot(next)));
        let mut out = Vec::new();
        let mut cursor = self.engine.cursor::<AddressSignatures>(
            &lower,
            upper.as_ref().map(|u| &u[..]),
            Direction::Forward,
        );
        while let Some(entry) = cursor.advance() {
            let (key, _) = entry?;
            let row = AddressSignatures::decode_key(key)?;
            if row.address.0 != *address || row.slot != slot {
                break;
            }
            out.push(row.into());
        }
        Ok(out)
    }

    /// Walks the entries of `address` in slots `lowest..=through`, newest first (descending
    /// key order: slot, then transaction index, then signature), until `each` breaks or the
    /// range ends. One cursor for the whole walk.
    pub fn address_signatures_rev(
        &self,
        address: &[u8; 32],
        through: Slot,
        lowest: Slot,
        mut each: impl FnMut(AddressSignature) -> ControlFlow<()>,
    ) -> Result<()> {
        if through < lowest {
            return Ok(());
        }
        let lower = address_slot_key(address, lowest);
        // The first key past `through`'s entries: the next slot's, or (at the last slot)
        // the next address's.
        let upper = match through.0.checked_add(1) {
            Some(next) => Some(address_slot_key(address, Slot(next)).to_vec()),
            None => next_prefix(address),
        };
        let mut cursor =
            self.engine
                .cursor::<AddressSignatures>(&lower, upper.as_deref(), Direction::Reverse);
        while let Some(entry) = cursor.advance() {
            let (key, _) = entry?;
            let sig = AddressSignatures::decode_key(key)?.into();
            if each(sig).is_break() {
                break;
            }
        }
        Ok(())
    }
}

/// Finds transaction statuses by signature through one `transaction_status` cursor,
/// sought once per lookup: RocksDB builds a cursor's merged view of the memtables and files
/// once, so a request looking up N signatures pays for it once, not N times. The cursor
/// sees the ledger as it was when the lookup was made (one consistent view for the whole
/// request).
pub struct StatusLookup<'s, E: KvEngine + 's = DefaultEngine> {
    cursor: E::Cursor<'s>,
}

impl<E: KvEngine> std::fmt::Debug for StatusLookup<'_, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StatusLookup")
    }
}

impl<'s, E: KvEngine + 's> StatusLookup<'s, E> {
    /// The status of `signature` in the lowest slot at or above `from` that `accept`s, with
    /// that slot; `None` when no such slot holds one. Looks at most
    /// [`MAX_SLOTS_PER_SIGNATURE`] slots (Agave's order: ascending slots, first accepted).
    pub fn first_accepted<X: From<LedgerError>>(
        &mut self,
        signature: &[u8; 64],
        from: Slot,
        mut accept: impl FnMut(Slot) -> std::result::Result<bool, X>,
    ) -> std::result::Result<Option<(Slot, Vec<u8>)>, X> {
        self.cursor.seek(&signature_slot_key(signature, from));
        for _ in 0..MAX_SLOTS_PER_SIGNATURE {
            let Some(entry) = self.cursor.advance() else {
                return Ok(None);
            };
            let (key, value) = entry?;
            if !key.starts_with(signature) {
                return Ok(None);
            }
            let (_, slot) = TransactionStatus::decode_key(key)?;
            if accept(slot)? {
                return Ok(Some((slot, value.to_vec())));
            }
        }
        Ok(None)
    }
}

/// The smallest key above every key starting with `prefix` (`None`: no such key).
fn next_prefix(prefix: &[u8]) -> Option<Vec<u8>> {
    let mut next = prefix.to_vec();
    while let Some(last) = next.pop() {
        if last < u8::MAX {
            next.push(last + 1);
            return Some(next);
        }
    }
    None
}

#[cfg(test)]
#[path = "history_scan_tests.rs"]
mod tests;
