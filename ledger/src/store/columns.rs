//! Every column family of the blockstore, declared once with its byte layout
//! (`docs/on-disk-layout.md#column-families`).
//!
//! Names, keys and values are Agave's, so either program can open a ledger the other wrote.
//! Keys: integers big-endian. Values: bincode 1.x fixint, integers little-endian.
//!
//! Agave's per-slot `index` and per-set `erasure_meta` / `merkle_root_meta` rows are kept as
//! Agave's insert keeps them (`agave_meta.rs`), so Agave continuing a ledger bstore wrote
//! finds the presence, shapes and roots it expects.

use super::agave_meta::{DuplicateSlotProof, ErasureMeta, MerkleRootMeta, SlotIndex};
use super::alt_columns::{
    AltDataShred, AltIndex, AltMerkleRootMeta, AltMeta, DoubleMerkleMetaColumn,
};
use super::column::{Column, Compression, corrupt_key, corrupt_value};
use super::slot_meta::SlotMeta;
use crate::error::Result;
use crate::types::{ShredIndex, Slot};

/// Every column family declared typed (this module and `alt_columns.rs`), with its
/// compression. Opened read-write, they are created when missing; purges delete their rows.
pub const ALL: [(&str, Compression); 17] = [
    (Meta::NAME, Meta::COMPRESSION),
    (DataShred::NAME, DataShred::COMPRESSION),
    (CodeShred::NAME, CodeShred::COMPRESSION),
    (DeadSlots::NAME, DeadSlots::COMPRESSION),
    (Root::NAME, Root::COMPRESSION),
    (BlockTime::NAME, BlockTime::COMPRESSION),
    (BlockHeight::NAME, BlockHeight::COMPRESSION),
    (Index::NAME, Index::COMPRESSION),
    (ErasureMetaColumn::NAME, ErasureMetaColumn::COMPRESSION),
    (
        MerkleRootMetaColumn::NAME,
        MerkleRootMetaColumn::COMPRESSION,
    ),
    (DuplicateSlots::NAME, DuplicateSlots::COMPRESSION),
    (Orphans::NAME, Orphans::COMPRESSION),
    (AltMeta::NAME, AltMeta::COMPRESSION),
    (AltIndex::NAME, AltIndex::COMPRESSION),
    (AltDataShred::NAME, AltDataShred::COMPRESSION),
    (AltMerkleRootMeta::NAME, AltMerkleRootMeta::COMPRESSION),
    (
        DoubleMerkleMetaColumn::NAME,
        DoubleMerkleMetaColumn::COMPRESSION,
    ),
];

/// Agave 4.x column families bstore does not declare typed (it reads the history ones); a
/// read-write open creates them empty (Agave opens a ledger read-only only when all of its
/// columns exist). With [`ALL`], exactly Agave 4.x's set (`families.rs`); the retired
/// `transaction_status_index` is no longer created.
pub const AGAVE_OTHER_COLUMNS: [&str; 7] = [
    TRANSACTION_STATUS,
    ADDRESS_SIGNATURES,
    TRANSACTION_MEMOS,
    REWARDS,
    "perf_samples",
    "bank_hashes",
    "optimistic_slots",
];

/// Agave's column families that bstore does not decode but that are keyed by slot (u64 BE
/// first), so a purge removes their rows of the purged slots too (Agave's purge does).
pub const AGAVE_SLOT_KEYED: [&str; 4] =
    ["bank_hashes", "optimistic_slots", "perf_samples", REWARDS];

/// Agave's transaction statuses (protobuf `TransactionStatusMeta`), key [`signature_slot_key`].
pub const TRANSACTION_STATUS: &str = "transaction_status";
/// Agave's memos of transactions (bincode `String`), key [`signature_slot_key`].
pub const TRANSACTION_MEMOS: &str = "transaction_memos";
/// Agave's signatures by address: key address ‖ slot (u64 BE) ‖ transaction index (u32 BE) ‖
/// signature, value bincode `AddressSignatureMeta { writeable: bool }`.
pub const ADDRESS_SIGNATURES: &str = "address_signatures";
/// Agave's rewards of a slot (protobuf `Rewards`), key [`slot_key`].
pub const REWARDS: &str = "rewards";

/// Encodes a signature key: signature ‖ slot u64 big-endian (Agave's `(Signature, Slot)`).
pub fn signature_slot_key(signature: &[u8; 64], slot: Slot) -> [u8; 72] {
    let mut key = [0u8; 72];
    let (s, t) = key.split_at_mut(64);
    s.copy_from_slice(signature);
    t.copy_from_slice(&slot.0.to_be_bytes());
    key
}

/// Encodes a slot key: u64 big-endian.
pub fn slot_key(slot: Slot) -> [u8; 8] {
    slot.0.to_be_bytes()
}

/// Encodes a shred key: slot u64 big-endian ‖ index as u64 big-endian.
pub fn shred_key(slot: Slot, index: ShredIndex) -> [u8; 16] {
    let mut key = [0u8; 16];
    let (s, i) = key.split_at_mut(8);
    s.copy_from_slice(&slot.0.to_be_bytes());
    i.copy_from_slice(&u64::from(index.0).to_be_bytes());
    key
}

fn decode_slot_key<C: Column>(bytes: &[u8]) -> Result<Slot> {
    let arr: [u8; 8] = bytes
        .try_into()
        .map_err(|_| corrupt_key::<C>(bytes, format!("{} bytes, expected 8", bytes.len())))?;
    Ok(Slot(u64::from_be_bytes(arr)))
}

fn decode_shred_key<C: Column>(bytes: &[u8]) -> Result<(Slot, ShredIndex)> {
    let arr: [u8; 16] = bytes
        .try_into()
        .map_err(|_| corrupt_key::<C>(bytes, format!("{} bytes, expected 16", bytes.len())))?;
    let (s, i) = arr.split_at(8);
    let slot = u64::from_be_bytes(s.try_into().unwrap_or_default());
    let index = u64::from_be_bytes(i.try_into().unwrap_or_default());
    let index = u32::try_from(index)
        .map_err(|_| corrupt_key::<C>(bytes, format!("shred index {index} exceeds u32")))?;
    Ok((Slot(slot), ShredIndex(index)))
}

fn decode_bool<C: Column>(key: C::Key, bytes: &[u8]) -> Result<bool> {
    match bytes {
        [0] => Ok(false),
        [1] => Ok(true),
        _ => Err(corrupt_value::<C>(
            key,
            format!("expected one bool byte, got {bytes:02x?}"),
        )),
    }
}

fn decode_u64_le<C: Column>(key: C::Key, bytes: &[u8]) -> Result<u64> {
    let arr: [u8; 8] = bytes
        .try_into()
        .map_err(|_| corrupt_value::<C>(key, format!("{} bytes, expected 8", bytes.len())))?;
    Ok(u64::from_le_bytes(arr))
}

macro_rules! slot_keyed {
    () => {
        type Key = Slot;
        type KeyBytes = [u8; 8];
        fn encode_key(key: Slot) -> [u8; 8] {
            slot_key(key)
        }
        fn decode_key(bytes: &[u8]) -> Result<Slot> {
            decode_slot_key::<Self>(bytes)
        }
    };
}

/// Agave's one-byte bool values (`dead_slots`, `root`): 0 or 1, anything else is corrupt.
macro_rules! bool_valued {
    () => {
        type Value = bool;
        fn encode_value(value: &bool) -> Vec<u8> {
            vec![u8::from(*value)]
        }
        fn decode_value(key: Slot, bytes: &[u8]) -> Result<bool> {
            decode_bool::<Self>(key, bytes)
        }
    };
}

macro_rules! shred_keyed {
    () => {
        type Key = (Slot, ShredIndex);
        type KeyBytes = [u8; 16];
        type Value = Vec<u8>;
        fn encode_key((slot, index): (Slot, ShredIndex)) -> [u8; 16] {
            shred_key(slot, index)
        }
        fn decode_key(bytes: &[u8]) -> Result<(Slot, ShredIndex)> {
            decode_shred_key::<Self>(bytes)
        }
        fn encode_value(value: &Vec<u8>) -> Vec<u8> {
            value.clone()
        }
        fn decode_value(_key: Self::Key, bytes: &[u8]) -> Result<Vec<u8>> {
            Ok(bytes.to_vec())
        }
    };
}

/// `meta`: slot u64 BE (8) → [`SlotMeta`] (`docs/on-disk-layout.md#slotmeta`; V1, V2 and V3
/// rows read, V3 written as Agave 4.x writes it). The decoded `slot` field must equal the key.
#[derive(Debug, Clone, Copy)]
pub struct Meta;

impl Column for Meta {
    const NAME: &'static str = "meta";
    const COMPRESSION: Compression = Compression::Default;
    type Value = SlotMeta;
    slot_keyed!();
    fn encode_value(value: &SlotMeta) -> Vec<u8> {
        value.encode()
    }
    fn decode_value(key: Slot, bytes: &[u8]) -> Result<SlotMeta> {
        let meta = SlotMeta::decode(bytes).map_err(|r| corrupt_value::<Self>(key, r))?;
        if meta.slot != key {
            return Err(corrupt_value::<Self>(
                key,
                format!("holds slot {}", meta.slot),
            ));
        }
        Ok(meta)
    }
}

/// `data_shred`: slot u64 BE ‖ index u64 BE (16) → the stored data shred payload
/// (`docs/formats-shreds.md#what-the-store-keeps`:
/// Merkle 1203 bytes, legacy trimmed to `size`). Not compressed.
#[derive(Debug, Clone, Copy)]
pub struct DataShred;

impl Column for DataShred {
    const NAME: &'static str = "data_shred";
    const COMPRESSION: Compression = Compression::None;
    shred_keyed!();
}

/// `code_shred`: slot u64 BE ‖ index u64 BE (16) → the full coding shred payload (1228
/// bytes). Not compressed.
#[derive(Debug, Clone, Copy)]
pub struct CodeShred;

impl Column for CodeShred {
    const NAME: &'static str = "code_shred";
    const COMPRESSION: Compression = Compression::None;
    shred_keyed!();
}

/// `dead_slots`: slot u64 BE (8) → bool, one byte (0 or 1).
#[derive(Debug, Clone, Copy)]
pub struct DeadSlots;

impl Column for DeadSlots {
    const NAME: &'static str = "dead_slots";
    const COMPRESSION: Compression = Compression::Default;
    slot_keyed!();
    bool_valued!();
}

/// `root`: slot u64 BE (8) → bool, one byte (0 or 1).
#[derive(Debug, Clone, Copy)]
pub struct Root;

impl Column for Root {
    const NAME: &'static str = "root";
    const COMPRESSION: Compression = Compression::Default;
    slot_keyed!();
    bool_valued!();
}

/// `orphans`: slot u64 BE (8) → bool, one byte: a slot known only as a parent (its meta is a
/// placeholder without a parent of its own), which repair asks for.
#[derive(Debug, Clone, Copy)]
pub struct Orphans;

impl Column for Orphans {
    const NAME: &'static str = "orphans";
    const COMPRESSION: Compression = Compression::Default;
    slot_keyed!();
    bool_valued!();
}

/// `blocktime`: slot u64 BE (8) → i64 LE (8), Unix seconds.
#[derive(Debug, Clone, Copy)]
pub struct BlockTime;

impl Column for BlockTime {
    const NAME: &'static str = "blocktime";
    const COMPRESSION: Compression = Compression::Default;
    type Value = i64;
    slot_keyed!();
    fn encode_value(value: &i64) -> Vec<u8> {
        value.to_le_bytes().to_vec()
    }
    fn decode_value(key: Slot, bytes: &[u8]) -> Result<i64> {
        decode_u64_le::<Self>(key, bytes).map(|v| i64::from_le_bytes(v.to_le_bytes()))
    }
}

/// `block_height`: slot u64 BE (8) → u64 LE (8).
#[derive(Debug, Clone, Copy)]
pub struct BlockHeight;

impl Column for BlockHeight {
    const NAME: &'static str = "block_height";
    const COMPRESSION: Compression = Compression::Default;
    type Value = u64;
    slot_keyed!();
    fn encode_value(value: &u64) -> Vec<u8> {
        value.to_le_bytes().to_vec()
    }
    fn decode_value(key: Slot, bytes: &[u8]) -> Result<u64> {
        decode_u64_le::<Self>(key, bytes)
    }
}

/// An FEC set of a slot: `(slot, fec_set_index)`.
pub type SetKey = (Slot, u32);

/// `index`: slot u64 BE (8) → [`SlotIndex`] (V2 written, V1 read). The decoded `slot` must
/// equal the key.
#[derive(Debug, Clone, Copy)]
pub struct Index;

impl Column for Index {
    const NAME: &'static str = "index";
    const COMPRESSION: Compression = Compression::Default;
    type Value = SlotIndex;
    slot_keyed!();
    fn encode_value(value: &SlotIndex) -> Vec<u8> {
        value.encode()
    }
    fn decode_value(key: Slot, bytes: &[u8]) -> Result<SlotIndex> {
        let index = SlotIndex::decode(bytes).map_err(|r| corrupt_value::<Self>(key, r))?;
        if index.slot != key {
            return Err(corrupt_value::<Self>(
                key,
                format!("holds slot {}", index.slot),
            ));
        }
        Ok(index)
    }
}

/// `erasure_meta`: slot u64 BE ‖ fec_set_index u64 BE (16) → [`ErasureMeta`] (40 bytes).
#[derive(Debug, Clone, Copy)]
pub struct ErasureMetaColumn;

impl Column for ErasureMetaColumn {
    const NAME: &'static str = "erasure_meta";
    const COMPRESSION: Compression = Compression::Default;
    type Key = SetKey;
    type KeyBytes = [u8; 16];
    type Value = ErasureMeta;
    fn encode_key((slot, fec): SetKey) -> [u8; 16] {
        shred_key(slot, ShredIndex(fec))
    }
    fn decode_key(bytes: &[u8]) -> Result<SetKey> {
        decode_shred_key::<Self>(bytes).map(|(slot, fec)| (slot, fec.0))
    }
    fn encode_value(value: &ErasureMeta) -> Vec<u8> {
        value.encode()
    }
    fn decode_value(key: SetKey, bytes: &[u8]) -> Result<ErasureMeta> {
        let meta = ErasureMeta::decode(bytes).map_err(|r| corrupt_value::<Self>(key, r))?;
        if meta.fec_set_index != key.1 {
            return Err(corrupt_value::<Self>(
                key,
                format!("holds fec_set_index {}", meta.fec_set_index),
            ));
        }
        Ok(meta)
    }
}

/// `merkle_root_meta`: slot u64 BE ‖ fec_set_index u32 BE (12) → [`MerkleRootMeta`].
#[derive(Debug, Clone, Copy)]
pub struct MerkleRootMetaColumn;

impl Column for MerkleRootMetaColumn {
    const NAME: &'static str = "merkle_root_meta";
    const COMPRESSION: Compression = Compression::Default;
    type Key = SetKey;
    type KeyBytes = [u8; 12];
    type Value = MerkleRootMeta;
    fn encode_key((slot, fec): SetKey) -> [u8; 12] {
        let mut key = [0u8; 12];
        let (s, f) = key.split_at_mut(8);
        s.copy_from_slice(&slot.0.to_be_bytes());
        f.copy_from_slice(&fec.to_be_bytes());
        key
    }
    fn decode_key(bytes: &[u8]) -> Result<SetKey> {
        let arr: [u8; 12] = bytes.try_into().map_err(|_| {
            corrupt_key::<Self>(bytes, format!("{} bytes, expected 12", bytes.len()))
        })?;
        let (s, f) = arr.split_at(8);
        Ok((
            Slot(u64::from_be_bytes(s.try_into().unwrap_or_default())),
            u32::from_be_bytes(f.try_into().unwrap_or_default()),
        ))
    }
    fn encode_value(value: &MerkleRootMeta) -> Vec<u8> {
        value.encode()
    }
    fn decode_value(key: SetKey, bytes: &[u8]) -> Result<MerkleRootMeta> {
        MerkleRootMeta::decode(bytes).map_err(|r| corrupt_value::<Self>(key, r))
    }
}

/// `duplicate_slots`: slot u64 BE (8) → [`DuplicateSlotProof`].
#[derive(Debug, Clone, Copy)]
pub struct DuplicateSlots;

impl Column for DuplicateSlots {
    const NAME: &'static str = "duplicate_slots";
    const COMPRESSION: Compression = Compression::Default;
    type Value = DuplicateSlotProof;
    slot_keyed!();
    fn encode_value(value: &DuplicateSlotProof) -> Vec<u8> {
        value.encode()
    }
    fn decode_value(key: Slot, bytes: &[u8]) -> Result<DuplicateSlotProof> {
        DuplicateSlotProof::decode(bytes).map_err(|r| corrupt_value::<Self>(key, r))
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::error::LedgerError;

    #[test]
    fn key_bytes_are_big_endian() {
        assert_eq!(slot_key(Slot(0x0102)), [0, 0, 0, 0, 0, 0, 1, 2]);
        assert_eq!(
            shred_key(Slot(1), ShredIndex(0x0203)),
            [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 2, 3]
        );
    }

    #[test]
    fn corrupt_keys_and_values_are_errors() {
        assert!(matches!(
            DataShred::decode_key(&[0; 15]),
            Err(LedgerError::CorruptKey {
                column: "data_shred",
                ..
            })
        ));
        let mut key = [0u8; 16];
        key[11] = 1; // index 2^32
        assert!(matches!(
            CodeShred::decode_key(&key),
            Err(LedgerError::CorruptKey {
                column: "code_shred",
                ..
            })
        ));
        assert!(matches!(
            Root::decode_value(Slot(3), &[2]),
            Err(LedgerError::CorruptValue { column: "root", .. })
        ));
        assert!(matches!(
            BlockTime::decode_value(Slot(3), &[0; 7]),
            Err(LedgerError::CorruptValue {
                column: "blocktime",
                ..
            })
        ));
        let meta = SlotMeta::new(Slot(4), Some(Slot(3))).encode();
        assert!(matches!(
            Meta::decode_value(Slot(5), &meta),
            Err(LedgerError::CorruptValue { column: "meta", .. })
        ));
        assert_eq!(
            Meta::decode_value(Slot(4), &meta).ok().map(|m| m.slot),
            Some(Slot(4))
        );
    }

    proptest! {
        #[test]
        fn slot_key_order_is_numeric_order(a in any::<u64>(), b in any::<u64>()) {
            prop_assert_eq!(slot_key(Slot(a)).cmp(&slot_key(Slot(b))), a.cmp(&b));
            prop_assert_eq!(Meta::decode_key(&slot_key(Slot(a))).ok(), Some(Slot(a)));
        }

        #[test]
        fn shred_key_order_is_numeric_order(
            a in (any::<u64>(), any::<u32>()),
            b in (any::<u64>(), any::<u32>()),
        ) {
            let ka = shred_key(Slot(a.0), ShredIndex(a.1));
            let kb = shred_key(Slot(b.0), ShredIndex(b.1));
            prop_assert_eq!(ka.cmp(&kb), a.cmp(&b));
            prop_assert_eq!(DataShred::decode_key(&ka).ok(), Some((Slot(a.0), ShredIndex(a.1))));
        }

        #[test]
        fn values_round_trip(t in any::<i64>(), h in any::<u64>(), d in any::<bool>()) {
            prop_assert_eq!(BlockTime::decode_value(Slot(1), &BlockTime::encode_value(&t)).ok(), Some(t));
            prop_assert_eq!(BlockHeight::decode_value(Slot(1), &BlockHeight::encode_value(&h)).ok(), Some(h));
            prop_assert_eq!(DeadSlots::decode_value(Slot(1), &DeadSlots::encode_value(&d)).ok(), Some(d));
        }
    }
}
