//! The per-slot and per-FEC-set rows Agave's insert keeps beside the shreds
//! (`docs/on-disk-layout.md#agave-insert-columns`), with Agave 3.x's encodings (bincode 1.x
//! fixint, integers little-endian):
//!
//! - `index` → [`SlotIndex`]: which data and coding shreds of a slot are stored.
//!   Written as Agave 3.x writes it (V2): `slot` u64 ‖ data ‖ coding, each set a u64 byte
//!   length (4096) ‖ the 32,768-bit bitmap ‖ `num_shreds` u64 — 8,232 bytes. Also read: V1
//!   (Agave before 3.0): `slot` ‖ data ‖ coding, each a u64 count ‖ that many u64 indices,
//!   ascending. V2 is tried first, then V1, both rejecting trailing bytes (as Agave).
//! - `erasure_meta` → [`ErasureMeta`]: the coding header of a set's first stored coding
//!   shred, 40 bytes.
//! - `merkle_root_meta` → [`MerkleRootMeta`]: the root of a set's first stored shred, and
//!   which shred that was: `Option<[u8; 32]>` (tag byte ‖ 32 bytes) ‖ index u32 ‖ type u8.
//! - `duplicate_slots` → [`DuplicateSlotProof`]: two conflicting shred payloads, each a u64
//!   length ‖ the bytes.

use super::index_set::{BITMAP_BYTES, ShredIndexSet};
use crate::shred::ShredKind;
use crate::types::{Hash, Slot};
use crate::wire::Reader;

/// Agave's `ShredType` byte for data shreds (`MerkleRootMeta::first_received_shred_type`).
const SHRED_TYPE_DATA: u8 = 0b1010_0101;
/// Agave's `ShredType` byte for coding shreds.
const SHRED_TYPE_CODE: u8 = 0b0101_1010;

/// Largest shred payload a duplicate proof may hold: a received packet is at most 1,232
/// bytes; anything longer is corrupt.
pub(crate) const MAX_PROOF_SHRED_LEN: usize = 1_232;

/// The `index` row of a slot: the data and coding shred indices stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlotIndex {
    /// The slot this row describes (also its key).
    pub slot: Slot,
    /// Indices of the slot's data shreds that are stored.
    pub data: ShredIndexSet,
    /// Indices of the slot's coding shreds that are stored.
    pub code: ShredIndexSet,
}

impl SlotIndex {
    /// Encodes as Agave 3.x writes (V2).
    pub fn encode(&self) -> Vec<u8> {
        Self::encode_sets(self.slot, &self.data, &self.code)
    }

    /// The V2 encoding of a row made of these sets (insert writes its presence sets without
    /// copying them into a `SlotIndex`).
    pub fn encode_sets(slot: Slot, data: &ShredIndexSet, code: &ShredIndexSet) -> Vec<u8> {
        let mut out = Vec::with_capacity(8 + 2 * (16 + BITMAP_BYTES));
        out.extend_from_slice(&slot.0.to_le_bytes());
        for set in [data, code] {
            out.extend_from_slice(&(BITMAP_BYTES as u64).to_le_bytes());
            out.extend_from_slice(&set.to_bitmap());
            out.extend_from_slice(&(set.len() as u64).to_le_bytes());
        }
        out
    }

    /// Decodes V2, else V1. `num_shreds` of V2 is not trusted: counts are the bitmaps'.
    pub fn decode(bytes: &[u8]) -> Result<Self, String> {
        decode_index_v2(bytes).or_else(|v2| {
            decode_index_v1(bytes).map_err(|v1| format!("neither index V2 ({v2}) nor V1 ({v1})"))
        })
    }
}

fn decode_index_v2(bytes: &[u8]) -> Result<SlotIndex, String> {
    let mut r = Reader::new(bytes);
    let slot = Slot(r.u64("slot")?);
    let mut sets = [ShredIndexSet::new(), ShredIndexSet::new()];
    for (set, name) in sets.iter_mut().zip(["data", "coding"]) {
        let bitmap = r.byte_vec(BITMAP_BYTES, name)?;
        *set = ShredIndexSet::from_bitmap(bitmap).ok_or("bitmap too long")?;
        r.u64("num_shreds")?;
    }
    r.finish("index V2")?;
    let [data, code] = sets;
    Ok(SlotIndex { slot, data, code })
}

fn decode_index_v1(bytes: &[u8]) -> Result<SlotIndex, String> {
    let mut r = Reader::new(bytes);
    let slot = Slot(r.u64("slot")?);
    let mut sets = [ShredIndexSet::new(), ShredIndexSet::new()];
    for (set, name) in sets.iter_mut().zip(["data", "coding"]) {
        let count = r.u64(name)?;
        if count > (r.remaining() / 8) as u64 {
            return Err(format!("{name} count {count} exceeds the bytes left"));
        }
        let mut prev = None;
        for _ in 0..count {
            let index = r.u64(name)?;
            let fits = u32::try_from(index).ok().filter(|&i| set.insert(i));
            if fits.is_none() || prev.is_some_and(|p| p >= index) {
                return Err(format!("{name} index {index} out of order or ≥ 32,768"));
            }
            prev = Some(index);
        }
    }
    r.finish("index V1")?;
    let [data, code] = sets;
    Ok(SlotIndex { slot, data, code })
}

/// The `erasure_meta` row of an FEC set: its shape, from the first coding shred stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ErasureMeta {
    /// Index of the set's first data shred (the set's key with the slot).
    pub fec_set_index: u32,
    /// Index of the set's coding shred at position 0 (`index − position` of any of them).
    pub first_coding_index: u64,
    /// Index of the coding shred this row was made from.
    pub first_received_coding_index: u64,
    /// Number of data shreds in the set, as its coding shreds declare.
    pub num_data: u64,
    /// Number of coding shreds in the set, as its coding shreds declare.
    pub num_coding: u64,
}

impl ErasureMeta {
    /// Length in bytes of an encoded row: five little-endian u64.
    pub const ENCODED_LEN: usize = 40;

    /// Encodes the row as Agave writes it: the five fields as little-endian u64, in declaration
    /// order.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(Self::ENCODED_LEN);
        for v in [
            u64::from(self.fec_set_index),
            self.first_coding_index,
            self.first_received_coding_index,
            self.num_data,
            self.num_coding,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out
    }

    /// Decodes a row written by [`Self::encode`] or by Agave. Errors name the field that is short
    /// or out of range (`fec_set_index` past u32), or the trailing bytes.
    pub fn decode(bytes: &[u8]) -> Result<Self, String> {
        let mut r = Reader::new(bytes);
        let fec = r.u64("fec_set_index")?;
        let fec_set_index =
            u32::try_from(fec).map_err(|_| format!("fec_set_index {fec} exceeds u32"))?;
        let meta = Self {
            fec_set_index,
            first_coding_index: r.u64("first_coding_index")?,
            first_received_coding_index: r.u64("first_received_coding_index")?,
            num_data: r.u64("num_data")?,
            num_coding: r.u64("num_coding")?,
        };
        r.finish("erasure meta")?;
        Ok(meta)
    }

    /// Whether a coding shred's header agrees with this set's shape (Agave's
    /// `check_coding_shred`: every field but the first received index).
    pub fn agrees_with(&self, other: &ErasureMeta) -> bool {
        Self {
            first_received_coding_index: self.first_received_coding_index,
            ..*other
        } == *self
    }

    /// The set's data shred indices.
    pub fn data_range(&self) -> std::ops::Range<u64> {
        let start = u64::from(self.fec_set_index);
        start..start.saturating_add(self.num_data)
    }

    /// The set's coding shred indices.
    pub fn code_range(&self) -> std::ops::Range<u64> {
        self.first_coding_index..self.first_coding_index.saturating_add(self.num_coding)
    }

    /// The first data index of the next set, when it fits.
    pub fn next_fec_set_index(&self) -> Option<u32> {
        u32::try_from(self.data_range().end).ok()
    }
}

/// The `merkle_root_meta` row of an FEC set: the root of its first stored shred.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MerkleRootMeta {
    /// `None` for legacy shreds.
    pub merkle_root: Option<Hash>,
    /// Index of the shred (data or coding) the root was taken from.
    pub first_received_shred_index: u32,
    /// Whether that first shred was a data or a coding shred.
    pub first_received_shred_kind: ShredKind,
}

impl MerkleRootMeta {
    /// Encodes the row as Agave writes it: option tag ‖ root ‖ index u32 LE ‖ Agave's shred type
    /// byte (38 bytes with a root, 6 without).
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(38);
        match &self.merkle_root {
            None => out.push(0),
            Some(root) => {
                out.push(1);
                out.extend_from_slice(root.as_bytes());
            }
        }
        out.extend_from_slice(&self.first_received_shred_index.to_le_bytes());
        out.push(match self.first_received_shred_kind {
            ShredKind::Data => SHRED_TYPE_DATA,
            ShredKind::Code => SHRED_TYPE_CODE,
        });
        out
    }

    /// Decodes a row written by [`Self::encode`] or by Agave. Errors name the bad option tag, the
    /// unknown shred type byte, a short field or trailing bytes.
    pub fn decode(bytes: &[u8]) -> Result<Self, String> {
        let mut r = Reader::new(bytes);
        let merkle_root = match r.u8("merkle_root tag")? {
            0 => None,
            1 => {
                let b = r.take(32, "merkle_root")?;
                Some(Hash(b.try_into().unwrap_or_default()))
            }
            t => return Err(format!("merkle_root option tag {t}")),
        };
        let first_received_shred_index = r.u32("first_received_shred_index")?;
        let first_received_shred_kind = match r.u8("first_received_shred_type")? {
            SHRED_TYPE_DATA => ShredKind::Data,
            SHRED_TYPE_CODE => ShredKind::Code,
            t => return Err(format!("shred type byte {t:#04x}")),
        };
        r.finish("merkle root meta")?;
        Ok(Self {
            merkle_root,
            first_received_shred_index,
            first_received_shred_kind,
        })
    }
}

/// The `duplicate_slots` row of a slot: two shreds a leader signed that cannot both be in
/// one block (`shred1` the one stored first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateSlotProof {
    /// The payload of the shred stored first.
    pub shred1: Vec<u8>,
    /// The payload of the conflicting shred received later.
    pub shred2: Vec<u8>,
}

impl DuplicateSlotProof {
    /// Encodes the row as Agave writes it: each payload as a u64 LE length ‖ its bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(16 + self.shred1.len() + self.shred2.len());
        for s in [&self.shred1, &self.shred2] {
            out.extend_from_slice(&(s.len() as u64).to_le_bytes());
            out.extend_from_slice(s);
        }
        out
    }

    /// Decodes a row written by [`Self::encode`] or by Agave. Errors when a payload is longer than
    /// a packet (1,232 bytes), is short, or bytes trail.
    pub fn decode(bytes: &[u8]) -> Result<Self, String> {
        let mut r = Reader::new(bytes);
        let shred1 = r.byte_vec(MAX_PROOF_SHRED_LEN, "shred1")?.to_vec();
        let shred2 = r.byte_vec(MAX_PROOF_SHRED_LEN, "shred2")?.to_vec();
        r.finish("duplicate slot proof")?;
        Ok(Self { shred1, shred2 })
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn set(indices: &[u32]) -> ShredIndexSet {
        indices.iter().copied().collect()
    }

    #[test]
    fn index_v2_layout_is_agaves() {
        let index = SlotIndex {
            slot: Slot(7),
            data: set(&[0, 9]),
            code: set(&[32_767]),
        };
        let bytes = index.encode();
        assert_eq!(bytes.len(), 8 + 2 * (8 + 4096 + 8));
        assert_eq!(&bytes[..8], &7u64.to_le_bytes());
        assert_eq!(&bytes[8..16], &4096u64.to_le_bytes());
        // Bit i at bit i % 8 of byte i / 8.
        assert_eq!(bytes[16], 0b0000_0001);
        assert_eq!(bytes[17], 0b0000_0010);
        assert_eq!(&bytes[16 + 4096..16 + 4104], &2u64.to_le_bytes());
        let code_bitmap = 16 + 4104 + 8;
        assert_eq!(bytes[code_bitmap + 4095], 0b1000_0000);
        assert_eq!(SlotIndex::decode(&bytes), Ok(index));
    }

    #[test]
    fn index_v1_is_read() {
        let mut bytes = 7u64.to_le_bytes().to_vec();
        for list in [&[1u64, 5][..], &[40u64][..]] {
            bytes.extend_from_slice(&(list.len() as u64).to_le_bytes());
            for i in list {
                bytes.extend_from_slice(&i.to_le_bytes());
            }
        }
        let index = SlotIndex::decode(&bytes).expect("V1");
        assert_eq!(index.data, set(&[1, 5]));
        assert_eq!(index.code, set(&[40]));
    }

    #[test]
    fn corrupt_rows_are_errors_not_allocations() {
        let mut huge = 7u64.to_le_bytes().to_vec();
        huge.extend_from_slice(&u64::MAX.to_le_bytes());
        assert!(SlotIndex::decode(&huge).is_err());
        assert!(ErasureMeta::decode(&[0; 39]).is_err());
        assert!(ErasureMeta::decode(&[0; 41]).is_err());
        assert!(MerkleRootMeta::decode(&[2, 0, 0, 0, 0, 0]).is_err());
        assert!(MerkleRootMeta::decode(&[0, 0, 0, 0, 0, 0x11]).is_err());
        let mut bomb = u64::MAX.to_le_bytes().to_vec();
        bomb.extend_from_slice(&[0; 64]);
        assert!(DuplicateSlotProof::decode(&bomb).is_err());
    }

    #[test]
    fn merkle_root_meta_layout() {
        let meta = MerkleRootMeta {
            merkle_root: Some(Hash([3; 32])),
            first_received_shred_index: 0x0102,
            first_received_shred_kind: ShredKind::Code,
        };
        let bytes = meta.encode();
        assert_eq!(bytes.len(), 38);
        assert_eq!(bytes[0], 1);
        assert_eq!(&bytes[33..37], &[2, 1, 0, 0]);
        assert_eq!(bytes[37], 0x5A);
        assert_eq!(MerkleRootMeta::decode(&bytes), Ok(meta));
        let legacy = MerkleRootMeta {
            merkle_root: None,
            first_received_shred_index: 4,
            first_received_shred_kind: ShredKind::Data,
        };
        assert_eq!(legacy.encode(), vec![0, 4, 0, 0, 0, 0xA5]);
    }

    proptest! {
        #[test]
        fn rows_round_trip(
            slot in any::<u64>(),
            data in proptest::collection::btree_set(0u32..32_768, 0..64),
            code in proptest::collection::btree_set(0u32..32_768, 0..64),
            e in (any::<u32>(), any::<u64>(), any::<u64>(), any::<u64>(), any::<u64>()),
            proof in (proptest::collection::vec(any::<u8>(), 0..1232),
                      proptest::collection::vec(any::<u8>(), 0..1232)),
        ) {
            let index = SlotIndex {
                slot: Slot(slot),
                data: data.iter().copied().collect(),
                code: code.iter().copied().collect(),
            };
            prop_assert_eq!(SlotIndex::decode(&index.encode()), Ok(index));
            let meta = ErasureMeta {
                fec_set_index: e.0,
                first_coding_index: e.1,
                first_received_coding_index: e.2,
                num_data: e.3,
                num_coding: e.4,
            };
            prop_assert_eq!(ErasureMeta::decode(&meta.encode()), Ok(meta));
            let proof = DuplicateSlotProof { shred1: proof.0, shred2: proof.1 };
            prop_assert_eq!(DuplicateSlotProof::decode(&proof.encode()), Ok(proof));
        }

        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
            let _ = SlotIndex::decode(&bytes);
            let _ = ErasureMeta::decode(&bytes);
            let _ = MerkleRootMeta::decode(&bytes);
            let _ = DuplicateSlotProof::decode(&bytes);
        }
    }
}
