//! Value layouts (`docs/on-disk-layout.md#column-families`): [`ValueCodec`] for every type a
//! column stores. bincode 1.x fixint (integers little-endian) unless said otherwise; a value
//! that names its own slot or set must match its key.

use super::agave_meta::{DuplicateSlotProof, ErasureMeta, MerkleRootMeta, SlotIndex};
use super::alt_columns::DoubleMerkleMeta;
use super::column::ValueCodec;
use super::keys::{BlockKey, SetKey};
use super::slot_meta::SlotMeta;
use crate::history::{decode_memo, encode_memo};
use crate::types::Slot;

/// A `transaction_status` value as stored: Agave's protobuf `TransactionStatusMeta`
/// (decoded by `crate::history::StatusMeta`, which borrows these bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusProto(pub Vec<u8>);

/// A `rewards` value as stored: Agave's protobuf `Rewards` of a slot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RewardsProto(pub Vec<u8>);

/// One byte, 0 or 1 (`dead_slots`, `root`, `orphans`, and `address_signatures`' bincode
/// `AddressSignatureMeta { writeable: bool }`); anything else is corrupt.
impl<K> ValueCodec<K> for bool {
    fn encode_value(&self) -> Vec<u8> {
        vec![u8::from(*self)]
    }
    fn decode_value(_key: K, bytes: &[u8]) -> Result<bool, String> {
        match bytes {
            [0] => Ok(false),
            [1] => Ok(true),
            _ => Err(format!("expected one bool byte, got {bytes:02x?}")),
        }
    }
}

fn le8(bytes: &[u8]) -> Result<[u8; 8], String> {
    bytes
        .try_into()
        .map_err(|_| format!("{} bytes, expected 8", bytes.len()))
}

/// i64 little-endian (8).
impl<K> ValueCodec<K> for i64 {
    fn encode_value(&self) -> Vec<u8> {
        self.to_le_bytes().to_vec()
    }
    fn decode_value(_key: K, bytes: &[u8]) -> Result<i64, String> {
        le8(bytes).map(i64::from_le_bytes)
    }
}

/// u64 little-endian (8).
impl<K> ValueCodec<K> for u64 {
    fn encode_value(&self) -> Vec<u8> {
        self.to_le_bytes().to_vec()
    }
    fn decode_value(_key: K, bytes: &[u8]) -> Result<u64, String> {
        le8(bytes).map(u64::from_le_bytes)
    }
}

/// Bytes kept as they are (shred payloads, the families bstore does not decode).
impl<K> ValueCodec<K> for Vec<u8> {
    fn encode_value(&self) -> Vec<u8> {
        self.clone()
    }
    fn decode_value(_key: K, bytes: &[u8]) -> Result<Vec<u8>, String> {
        Ok(bytes.to_vec())
    }
}

impl<K> ValueCodec<K> for StatusProto {
    fn encode_value(&self) -> Vec<u8> {
        self.0.clone()
    }
    fn decode_value(_key: K, bytes: &[u8]) -> Result<Self, String> {
        Ok(Self(bytes.to_vec()))
    }
}

impl<K> ValueCodec<K> for RewardsProto {
    fn encode_value(&self) -> Vec<u8> {
        self.0.clone()
    }
    fn decode_value(_key: K, bytes: &[u8]) -> Result<Self, String> {
        Ok(Self(bytes.to_vec()))
    }
}

/// A memo: bincode `String` (u64 length ‖ UTF-8).
impl<K> ValueCodec<K> for String {
    fn encode_value(&self) -> Vec<u8> {
        encode_memo(self)
    }
    fn decode_value(_key: K, bytes: &[u8]) -> Result<String, String> {
        decode_memo(bytes).map(str::to_string)
    }
}

fn same_slot(held: Slot, key: Slot) -> Result<(), String> {
    match held == key {
        true => Ok(()),
        false => Err(format!("holds slot {held}")),
    }
}

/// `meta`: the decoded `slot` field must equal the key.
impl ValueCodec<Slot> for SlotMeta {
    fn encode_value(&self) -> Vec<u8> {
        self.encode()
    }
    fn decode_value(key: Slot, bytes: &[u8]) -> Result<Self, String> {
        let meta = SlotMeta::decode(bytes)?;
        same_slot(meta.slot, key).map(|()| meta)
    }
}

/// `alt_meta`: the decoded `slot` field must equal the key's slot.
impl ValueCodec<BlockKey> for SlotMeta {
    fn encode_value(&self) -> Vec<u8> {
        self.encode()
    }
    fn decode_value(key: BlockKey, bytes: &[u8]) -> Result<Self, String> {
        let meta = SlotMeta::decode(bytes)?;
        same_slot(meta.slot, key.0).map(|()| meta)
    }
}

/// `index`: the decoded `slot` must equal the key.
impl ValueCodec<Slot> for SlotIndex {
    fn encode_value(&self) -> Vec<u8> {
        self.encode()
    }
    fn decode_value(key: Slot, bytes: &[u8]) -> Result<Self, String> {
        let index = SlotIndex::decode(bytes)?;
        same_slot(index.slot, key).map(|()| index)
    }
}

/// `alt_index`: read as stored (Agave keeps the primary slot's layout).
impl ValueCodec<BlockKey> for SlotIndex {
    fn encode_value(&self) -> Vec<u8> {
        self.encode()
    }
    fn decode_value(_key: BlockKey, bytes: &[u8]) -> Result<Self, String> {
        SlotIndex::decode(bytes)
    }
}

/// `erasure_meta`: the decoded `fec_set_index` must equal the key's.
impl ValueCodec<SetKey> for ErasureMeta {
    fn encode_value(&self) -> Vec<u8> {
        self.encode()
    }
    fn decode_value(key: SetKey, bytes: &[u8]) -> Result<Self, String> {
        let meta = ErasureMeta::decode(bytes)?;
        match meta.fec_set_index == key.1 {
            true => Ok(meta),
            false => Err(format!("holds fec_set_index {}", meta.fec_set_index)),
        }
    }
}

impl<K> ValueCodec<K> for MerkleRootMeta {
    fn encode_value(&self) -> Vec<u8> {
        self.encode()
    }
    fn decode_value(_key: K, bytes: &[u8]) -> Result<Self, String> {
        MerkleRootMeta::decode(bytes)
    }
}

impl<K> ValueCodec<K> for DuplicateSlotProof {
    fn encode_value(&self) -> Vec<u8> {
        self.encode()
    }
    fn decode_value(_key: K, bytes: &[u8]) -> Result<Self, String> {
        DuplicateSlotProof::decode(bytes)
    }
}

impl<K> ValueCodec<K> for DoubleMerkleMeta {
    fn encode_value(&self) -> Vec<u8> {
        self.encode()
    }
    fn decode_value(_key: K, bytes: &[u8]) -> Result<Self, String> {
        DoubleMerkleMeta::decode(bytes)
    }
}
