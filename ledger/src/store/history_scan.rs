//! Scans of the signature-keyed history columns (`docs/history.md#columns`), bounded:
//!
//! - the slots holding a status for one signature (`transaction_status`, key
//!   signature ‖ slot), for `getTransaction` / `getSignatureStatuses`;
//! - the signatures touching one address (`address_signatures`, key address ‖ slot ‖
//!   transaction index (u32 BE) ‖ signature), newest first, for `getSignaturesForAddress`.
//!
//! A key that does not have its column's length is a `CorruptKey` error naming the column.

use std::ops::ControlFlow;

use super::blockstore::Blockstore;
use super::columns::{ADDRESS_SIGNATURES, TRANSACTION_STATUS, signature_slot_key};
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

const ADDRESS_KEY_LEN: usize = 32 + 8 + 4 + 64;

fn corrupt_key(column: &'static str, key: &[u8], reason: &str) -> LedgerError {
    LedgerError::CorruptKey {
        column,
        key: key.iter().map(|b| format!("{b:02x}")).collect(),
        reason: reason.into(),
    }
}

fn decode_address_key(key: &[u8]) -> Result<([u8; 32], AddressSignature)> {
    if key.len() != ADDRESS_KEY_LEN {
        return Err(corrupt_key(ADDRESS_SIGNATURES, key, "expected 108 bytes"));
    }
    let (address, rest) = key.split_at(32);
    let (slot, rest) = rest.split_at(8);
    let (index, signature) = rest.split_at(4);
    Ok((
        address.try_into().unwrap_or_default(),
        AddressSignature {
            slot: Slot(u64::from_be_bytes(slot.try_into().unwrap_or_default())),
            transaction_index: u32::from_be_bytes(index.try_into().unwrap_or_default()),
            signature: signature.try_into().unwrap_or([0; 64]),
        },
    ))
}

fn address_slot_key(address: &[u8; 32], slot: Slot) -> [u8; 40] {
    let mut key = [0u8; 40];
    let (a, s) = key.split_at_mut(32);
    a.copy_from_slice(address);
    s.copy_from_slice(&slot.0.to_be_bytes());
    key
}

impl<E: KvEngine> Blockstore<E> {
    /// The slots at or above `from` holding a status for `signature`, ascending, at most
    /// [`MAX_SLOTS_PER_SIGNATURE`].
    pub fn status_slots(&self, signature: &[u8; 64], from: Slot) -> Result<Vec<Slot>> {
        let lower = signature_slot_key(signature, from);
        let upper = next_prefix(signature);
        let mut cursor = self.kv().cursor(
            TRANSACTION_STATUS,
            &lower,
            upper.as_ref().map(|u| &u[..]),
            Direction::Forward,
        );
        let mut slots = Vec::new();
        while let Some(entry) = cursor.advance() {
            let (key, _) = entry?;
            let slot: [u8; 8] = key
                .get(64..)
                .and_then(|s| s.try_into().ok())
                .ok_or_else(|| corrupt_key(TRANSACTION_STATUS, key, "expected 72 bytes"))?;
            slots.push(Slot(u64::from_be_bytes(slot)));
            if slots.len() >= MAX_SLOTS_PER_SIGNATURE {
                break;
            }
        }
        Ok(slots)
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
        let mut cursor = self.kv().cursor(
            ADDRESS_SIGNATURES,
            &lower,
            upper.as_ref().map(|u| &u[..]),
            Direction::Forward,
        );
        while let Some(entry) = cursor.advance() {
            let (key, _) = entry?;
            let (key_address, sig) = decode_address_key(key)?;
            if &key_address != address || sig.slot != slot {
                break;
            }
            out.push(sig);
        }
        Ok(out)
    }

    /// Walks the entries of `address` in slots `lowest..below`, newest first (descending
    /// key order), until `each` breaks or the range ends.
    pub fn address_signatures_rev(
        &self,
        address: &[u8; 32],
        below: Slot,
        lowest: Slot,
        mut each: impl FnMut(AddressSignature) -> ControlFlow<()>,
    ) -> Result<()> {
        if below <= lowest {
            return Ok(());
        }
        let lower = address_slot_key(address, lowest);
        let upper = address_slot_key(address, below);
        let mut cursor =
            self.kv()
                .cursor(ADDRESS_SIGNATURES, &lower, Some(&upper), Direction::Reverse);
        while let Some(entry) = cursor.advance() {
            let (key, _) = entry?;
            let (_, sig) = decode_address_key(key)?;
            if each(sig).is_break() {
                break;
            }
        }
        Ok(())
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
