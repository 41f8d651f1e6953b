//! `SlotMeta`: what the store knows about one slot, and its byte codec
//! (`docs/on-disk-layout.md#slotmeta`).
//!
//! Layout (bincode 1.x fixint, little-endian): `slot` u64 ‖ `consumed` u64 ‖ `received` u64 ‖
//! `first_shred_timestamp` u64 ‖ `last_index` u64 (`u64::MAX` = none) ‖ `parent_slot` u64
//! (`u64::MAX` = none) ‖ `next_slots` (u64 count ‖ u64 each) ‖ `connected_flags` u8 ‖
//! `completed_data_indexes` ‖ (V3 only) `parent_block_id` 32 bytes ‖
//! `replay_fec_set_index` u32. Three row versions:
//! - V1 (Agave ≤ 3.0): indexes as u64 count ‖ u32 each, strictly ascending. Agave 4.x no
//!   longer reads these rows (it would take the count for a bitmap length); bstore still
//!   does, as a documented legacy read, and rewrites any row it touches as V3.
//! - V2 (Agave 3.1): indexes as u64 byte length (4096) ‖ the 32,768-bit bitmap.
//! - V3 (Agave 4.x, written): V2 ‖ `parent_block_id` (a plain 32-byte hash, no option tag;
//!   all zeros = unknown) ‖ `replay_fec_set_index` u32. A V2 row reads as V3 with both
//!   fields zero, as Agave 4.x reads it.
//!
//! Decoding tries, in order: V2 exactly, V3 exactly, V1 exactly, V3 with trailing bytes
//! (fields a later Agave appends); V3 only with the full 4096-byte bitmap. A V2 bitmap
//! followed by 1–35 bytes is a truncated V3 row and an error. Every length is checked against the bytes left before anything is
//! allocated, so corrupt bytes give an error, never a panic or a huge allocation.

use super::index_set::{BITMAP_BYTES, CompletedDataIndexes};
use crate::shred::MAX_SHREDS_PER_SLOT;
use crate::types::{Hash, Slot};
use crate::wire::Reader;

/// Per-slot bookkeeping of the shreds held. See the module docs for the byte layout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlotMeta {
    /// The slot this meta describes (also its key).
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
    /// The block id (last FEC set's Merkle root) of the parent block, paired with
    /// `parent_slot`; all zeros when unknown (rows older than Agave 4.x, slots without a
    /// block header). Insert sets it from the block header in the data of shred 0, and
    /// replaces it when an UpdateParent marker moves the slot to another parent, as Agave 4.4
    /// does (`parent_info.rs`).
    pub parent_block_id: Hash,
    /// The first data shred index replay starts at: 0 = the block header (the whole slot);
    /// non-zero = the FEC set after an UpdateParent marker (replay skips the prefix built
    /// on the optimistic parent). Invariant: a multiple of 32 (an FEC set's first index).
    pub replay_fec_set_index: u32,
}

/// Which row version to write (`docs/on-disk-layout.md#slotmeta`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SlotMetaFormat {
    /// Agave ≤ 3.0: the sorted `u32` list, no trailing fields (tests of legacy ledgers).
    V1,
    /// Agave 3.1: the 4096-byte bitmap, no trailing fields.
    V2,
    /// Agave 4.x: V2 ‖ `parent_block_id` ‖ `replay_fec_set_index` (what the store writes).
    V3,
}

/// Bytes of the V3 trailing fields: `parent_block_id` (32) ‖ `replay_fec_set_index` (4).
const V3_TAIL: usize = 36;

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
            parent_block_id: Hash::default(),
            replay_fec_set_index: 0,
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

    /// Whether the slot is full and every ancestor up to a root (or slot 0) is too
    /// ([`Self::CONNECTED`]).
    pub fn is_connected(&self) -> bool {
        self.connected_flags & Self::CONNECTED != 0
    }

    /// Whether the parent is connected ([`Self::PARENT_CONNECTED`]): once this slot is full, it is
    /// connected too.
    pub fn is_parent_connected(&self) -> bool {
        self.connected_flags & Self::PARENT_CONNECTED != 0
    }

    /// An UpdateParent marker moved the slot to another parent (replay starts past 0).
    pub fn has_update_parent(&self) -> bool {
        self.replay_fec_set_index > 0
    }

    /// Encodes as Agave 4.x writes (V3).
    pub fn encode(&self) -> Vec<u8> {
        self.encode_as(SlotMetaFormat::V3)
    }

    /// Encodes as row version `format`. V1 and V2 drop the 4.x fields.
    pub fn encode_as(&self, format: SlotMetaFormat) -> Vec<u8> {
        let mut out =
            Vec::with_capacity(8 * 8 + 8 * self.next_slots.len() + 1 + BITMAP_BYTES + V3_TAIL);
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
            SlotMetaFormat::V2 | SlotMetaFormat::V3 => {
                out.extend_from_slice(&(BITMAP_BYTES as u64).to_le_bytes());
                out.extend_from_slice(&self.completed_data_indexes.to_bitmap());
            }
            SlotMetaFormat::V1 => {
                out.extend_from_slice(&(self.completed_data_indexes.len() as u64).to_le_bytes());
                for i in self.completed_data_indexes.iter() {
                    out.extend_from_slice(&i.to_le_bytes());
                }
            }
        }
        if format == SlotMetaFormat::V3 {
            out.extend_from_slice(self.parent_block_id.as_bytes());
            out.extend_from_slice(&self.replay_fec_set_index.to_le_bytes());
        }
        out
    }

    /// Decodes any row version. The error is a human-readable reason naming the slot; the
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
        let (completed_data_indexes, tail) = decode_v2(rest, Tail::None)
            .or_else(|| decode_v2(rest, Tail::V3))
            .or_else(|| decode_v1(rest).map(|set| (set, Default::default())))
            .or_else(|| decode_v2(rest, Tail::V3AndMore))
            .ok_or_else(|| match v2_tail_len(rest) {
                Some(n @ 1..V3_TAIL) => format!(
                    "slot {slot}: {n} bytes after completed_data_indexes: a truncated \
                     parent_block_id / replay_fec_set_index"
                ),
                _ => format!(
                    "slot {slot}: completed_data_indexes ({} bytes) is neither V2/V3 nor V1",
                    rest.len()
                ),
            })?;
        let V3Fields {
            parent_block_id,
            replay_fec_set_index,
        } = tail;
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
            parent_block_id,
            replay_fec_set_index,
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

/// What may follow a V2 bitmap.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Tail {
    /// Nothing: a V2 row.
    None,
    /// Exactly the V3 fields.
    V3,
    /// The V3 fields and more (a later Agave's fields, skipped as Agave skips them).
    V3AndMore,
}

/// The Agave 4.x fields after the bitmap; zero when the row has none (V1, V2).
#[derive(Default)]
struct V3Fields {
    parent_block_id: Hash,
    replay_fec_set_index: u32,
}

fn read_u64_at(bytes: &[u8], pos: usize) -> Option<u64> {
    let b = bytes.get(pos..pos.checked_add(8)?)?;
    Some(u64::from_le_bytes(b.try_into().ok()?))
}

/// The bytes after a V2 bitmap, when the bitmap fits.
fn v2_tail_len(rest: &[u8]) -> Option<usize> {
    let len = usize::try_from(read_u64_at(rest, 0)?).ok()?;
    rest.len().checked_sub(len.checked_add(8)?)
}

/// V2: u64 length (≤ 4096) then the bitmap bytes, then what `tail` allows.
fn decode_v2(rest: &[u8], tail: Tail) -> Option<(CompletedDataIndexes, V3Fields)> {
    let len = usize::try_from(read_u64_at(rest, 0)?).ok()?;
    let end = len.checked_add(8)?;
    let after = rest.len().checked_sub(end)?;
    // A V3 row carries the full 4096-byte bitmap (every Agave writes exactly that); a
    // shorter "bitmap" followed by bytes is a V1 list (12 entries = 48 bytes would otherwise
    // read as a 12-byte bitmap and the V3 fields).
    let fits = match tail {
        Tail::None => after == 0,
        Tail::V3 => after == V3_TAIL && len == BITMAP_BYTES,
        Tail::V3AndMore => after > V3_TAIL && len == BITMAP_BYTES,
    };
    if !fits {
        return None;
    }
    let set = CompletedDataIndexes::from_bitmap(rest.get(8..end)?)?;
    if tail == Tail::None {
        return Some((set, V3Fields::default()));
    }
    let id: [u8; 32] = rest.get(end..end.checked_add(32)?)?.try_into().ok()?;
    let fec: [u8; 4] = rest.get(end + 32..end + V3_TAIL)?.try_into().ok()?;
    Some((
        set,
        V3Fields {
            parent_block_id: Hash(id),
            replay_fec_set_index: u32::from_le_bytes(fec),
        },
    ))
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
