//! `SlotMeta`: what the store knows about one slot, and its byte codec
//! (`docs/on-disk-layout.md#slotmeta`).
//!
//! Layout (bincode 1.x fixint, little-endian): `slot` u64 ‖ `consumed` u64 ‖ `received` u64 ‖
//! `first_shred_timestamp` u64 ‖ `last_index` u64 (`u64::MAX` = none) ‖ `parent_slot` u64
//! (`u64::MAX` = none) ‖ `next_slots` (u64 count ‖ u64 each) ‖ `connected_flags` u8 ‖
//! `completed_data_indexes` in one of two encodings:
//! - V1 (Agave ≤ 3.0): u64 count ‖ u32 each, strictly ascending;
//! - V2 (Agave ≥ 3.1): u64 byte length (normally 4096) ‖ the 32,768-bit bitmap.
//!
//! Decoding tries V2 strictly, then V1 strictly, then V2 with trailing bytes (fields a later
//! Agave appends). Every length is checked against the bytes left before anything is
//! allocated, so corrupt bytes give an error, never a panic or a huge allocation.

use super::index_set::{BITMAP_BYTES, CompletedDataIndexes};
use super::wire::Reader;
use crate::shred::MAX_SHREDS_PER_SLOT;
use crate::types::Slot;

/// Per-slot bookkeeping of the shreds held. See the module docs for the byte layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlotMeta {
    pub slot: Slot,
    /// Number of consecutive data shreds held from index 0 (the first missing index).
    pub consumed: u64,
    /// Highest data shred index held, plus one.
    pub received: u64,
    /// When the first data shred arrived, in milliseconds since the Unix epoch.
    pub first_shred_timestamp: u64,
    /// Index of the shred flagged last-in-slot, once it has arrived.
    pub last_index: Option<u64>,
    /// The parent slot; `None` for a placeholder created by a child (an orphan).
    pub parent_slot: Option<Slot>,
    /// Slots whose parent is this slot, in the order they were first seen.
    pub next_slots: Vec<Slot>,
    /// [`SlotMeta::CONNECTED`] | [`SlotMeta::PARENT_CONNECTED`].
    pub connected_flags: u8,
    /// Every index of a data-complete shred held (whether or not its data set is complete).
    pub completed_data_indexes: CompletedDataIndexes,
}

/// Which encoding of `completed_data_indexes` to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompletedIndexesFormat {
    /// The sorted `u32` list of Agave ≤ 3.0.
    V1,
    /// The 4096-byte bitmap of Agave ≥ 3.1 (what the store writes).
    V2,
}

const NONE_SENTINEL: u64 = u64::MAX;

impl SlotMeta {
    /// The slot is full and every ancestor up to a root (or slot 0) is too.
    pub const CONNECTED: u8 = 0x01;
    /// The parent is connected.
    pub const PARENT_CONNECTED: u8 = 0x80;

    /// An empty meta. Slot 0 has no parent to wait for, so it starts parent-connected
    /// (as in Agave).
    pub fn new(slot: Slot, parent_slot: Option<Slot>) -> Self {
        Self {
            slot,
            consumed: 0,
            received: 0,
            first_shred_timestamp: 0,
            last_index: None,
            parent_slot,
            next_slots: Vec::new(),
            connected_flags: if slot.0 == 0 {
                Self::PARENT_CONNECTED
            } else {
                0
            },
            completed_data_indexes: CompletedDataIndexes::new(),
        }
    }

    /// A placeholder for a parent whose shreds have not arrived.
    pub fn new_orphan(slot: Slot) -> Self {
        Self::new(slot, None)
    }

    /// `last_index` is known and every shred up to it is held.
    pub fn is_full(&self) -> bool {
        self.last_index
            .and_then(|last| last.checked_add(1))
            .is_some_and(|n| self.consumed == n)
    }

    /// The parent is unknown (a placeholder).
    pub fn is_orphan(&self) -> bool {
        self.parent_slot.is_none()
    }

    pub fn is_connected(&self) -> bool {
        self.connected_flags & Self::CONNECTED != 0
    }

    pub fn is_parent_connected(&self) -> bool {
        self.connected_flags & Self::PARENT_CONNECTED != 0
    }

    /// Encodes with V2 completed indexes (what the store writes).
    pub fn encode(&self) -> Vec<u8> {
        self.encode_as(CompletedIndexesFormat::V2)
    }

    /// Encodes with the chosen `completed_data_indexes` format.
    pub fn encode_as(&self, format: CompletedIndexesFormat) -> Vec<u8> {
        let mut out = Vec::with_capacity(8 * 9 + 8 * self.next_slots.len() + 1 + BITMAP_BYTES);
        for v in [
            self.slot.0,
            self.consumed,
            self.received,
            self.first_shred_timestamp,
            self.last_index.unwrap_or(NONE_SENTINEL),
            self.parent_slot.map_or(NONE_SENTINEL, |s| s.0),
            self.next_slots.len() as u64,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for s in &self.next_slots {
            out.extend_from_slice(&s.0.to_le_bytes());
        }
        out.push(self.connected_flags);
        match format {
            CompletedIndexesFormat::V2 => {
                out.extend_from_slice(&(BITMAP_BYTES as u64).to_le_bytes());
                out.extend_from_slice(&self.completed_data_indexes.to_bitmap());
            }
            CompletedIndexesFormat::V1 => {
                out.extend_from_slice(&(self.completed_data_indexes.len() as u64).to_le_bytes());
                for i in self.completed_data_indexes.iter() {
                    out.extend_from_slice(&i.to_le_bytes());
                }
            }
        }
        out
    }

    /// Decodes either encoding. The error is a human-readable reason naming the slot; the
    /// store wraps it in `LedgerError::CorruptValue` with the column and key.
    ///
    /// Every count is bounded before it is used, so a corrupt meta can never make a reader
    /// allocate or read more than one slot's worth: `consumed ≤ received ≤ 32,768` (a slot
    /// holds at most 32,768 data shreds), `last_index < 32,768`, and `next_slots` holds no
    /// more than the bytes present (8 each, at most [`MAX_NEXT_SLOTS`]).
    pub fn decode(bytes: &[u8]) -> Result<Self, String> {
        let mut r = Reader::new(bytes);
        let slot = Slot(r.u64("slot")?);
        let consumed = r.u64("consumed")?;
        let received = r.u64("received")?;
        let first_shred_timestamp = r.u64("first_shred_timestamp")?;
        let last_index = Some(r.u64("last_index")?).filter(|&v| v != NONE_SENTINEL);
        let parent_slot = Some(r.u64("parent_slot")?)
            .filter(|&v| v != NONE_SENTINEL)
            .map(Slot);
        check_counts(slot, consumed, received, last_index)?;
        let count = r.u64("next_slots length")?;
        if count > (r.remaining() / 8) as u64 || count > MAX_NEXT_SLOTS {
            return Err(format!(
                "slot {slot}: next_slots length {count} exceeds the {} bytes left or the \
                 bound of {MAX_NEXT_SLOTS}",
                r.remaining()
            ));
        }
        let mut next_slots = Vec::with_capacity(count as usize);
        for _ in 0..count {
            next_slots.push(Slot(r.u64("next_slots")?));
        }
        let connected_flags = r.u8("connected_flags")?;
        let rest = r.rest();
        let completed_data_indexes = decode_v2(rest, Trailing::Reject)
            .or_else(|| decode_v1(rest))
            .or_else(|| decode_v2(rest, Trailing::Allow))
            .ok_or_else(|| {
                format!(
                    "completed_data_indexes ({} bytes) is neither V2 nor V1",
                    rest.len()
                )
            })?;
        Ok(Self {
            slot,
            consumed,
            received,
            first_shred_timestamp,
            last_index,
            parent_slot,
            next_slots,
            connected_flags,
            completed_data_indexes,
        })
    }
}

/// Most children a slot may list. Forks are few in practice (Agave keeps no bound); this
/// one only stops a corrupt count, far above anything a cluster produces.
pub const MAX_NEXT_SLOTS: u64 = 4096;

/// The shred counts of a meta must describe at most one slot's worth of data shreds.
fn check_counts(
    slot: Slot,
    consumed: u64,
    received: u64,
    last_index: Option<u64>,
) -> Result<(), String> {
    let max = u64::from(MAX_SHREDS_PER_SLOT);
    if received > max {
        return Err(format!(
            "slot {slot}: received {received} exceeds {max} shreds per slot"
        ));
    }
    if consumed > received {
        return Err(format!(
            "slot {slot}: consumed {consumed} exceeds received {received}"
        ));
    }
    if let Some(last) = last_index.filter(|&l| l >= max) {
        return Err(format!(
            "slot {slot}: last_index {last} is not below {max} shreds per slot"
        ));
    }
    Ok(())
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Trailing {
    Reject,
    Allow,
}

fn read_u64_at(bytes: &[u8], pos: usize) -> Option<u64> {
    let b = bytes.get(pos..pos.checked_add(8)?)?;
    Some(u64::from_le_bytes(b.try_into().ok()?))
}

/// V2: u64 length (≤ 4096) then the bitmap bytes.
fn decode_v2(rest: &[u8], trailing: Trailing) -> Option<CompletedDataIndexes> {
    let len = usize::try_from(read_u64_at(rest, 0)?).ok()?;
    let end = len.checked_add(8)?;
    if trailing == Trailing::Reject && rest.len() != end {
        return None;
    }
    CompletedDataIndexes::from_bitmap(rest.get(8..end)?)
}

/// V1: u64 count then exactly that many u32, strictly ascending, each < 32,768.
fn decode_v1(rest: &[u8]) -> Option<CompletedDataIndexes> {
    let count = usize::try_from(read_u64_at(rest, 0)?).ok()?;
    let values = rest.get(8..)?;
    if values.len() != count.checked_mul(4)? {
        return None;
    }
    let mut set = CompletedDataIndexes::new();
    let mut prev: Option<u32> = None;
    for chunk in values.chunks_exact(4) {
        let v = u32::from_le_bytes(chunk.try_into().ok()?);
        if prev.is_some_and(|p| p >= v) || !set.insert(v) {
            return None;
        }
        prev = Some(v);
    }
    Some(set)
}

#[cfg(test)]
#[path = "slot_meta_tests.rs"]
mod tests;
