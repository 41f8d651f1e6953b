//! The column families Agave 4.x added (`docs/on-disk-layout.md#agave-4x-column-families`),
//! each declared once with its byte layout. Keys: integers big-endian, a block id as its 32
//! raw bytes. Values: wincode (bincode 1.x fixint compatible), integers little-endian.
//!
//! The `alt_*` families hold another version of a slot than the one in `meta` / `index` /
//! `data_shred` / `merkle_root_meta`, fetched by repair by its block id; a row's value has
//! the layout of the matching primary column. bstore does not write them (it runs no
//! block-id repair), but reads them typed, keeps them on every open and deletes their rows
//! of purged slots (every key starts with the slot), as Agave does.

use super::agave_meta::{MerkleRootMeta, SlotIndex};
use super::column::{Column, Compression, corrupt_key, corrupt_value};
use super::slot_meta::SlotMeta;
use super::wire::Reader;
use crate::error::Result;
use crate::types::{Hash, Slot};

/// A slot version named by its block id: `(slot, block_id)`.
pub type BlockKey = (Slot, Hash);

/// Splits `bytes` into the slot (8 BE), the block id (32) and `N` more bytes.
fn split_block_key<C: Column, const N: usize>(bytes: &[u8]) -> Result<(Slot, Hash, [u8; N])> {
    let want = 40 + N;
    if bytes.len() != want {
        return Err(corrupt_key::<C>(
            bytes,
            format!("{} bytes, expected {want}", bytes.len()),
        ));
    }
    let slot: [u8; 8] = bytes
        .get(..8)
        .and_then(|b| b.try_into().ok())
        .unwrap_or_default();
    let id: [u8; 32] = bytes
        .get(8..40)
        .and_then(|b| b.try_into().ok())
        .unwrap_or_default();
    let rest: [u8; N] = bytes
        .get(40..)
        .and_then(|b| b.try_into().ok())
        .unwrap_or([0; N]);
    Ok((Slot(u64::from_be_bytes(slot)), Hash(id), rest))
}

fn block_key<const L: usize>(slot: Slot, id: &Hash, rest: &[u8]) -> [u8; L] {
    let mut key = [0u8; L];
    for (dst, src) in key
        .iter_mut()
        .zip(slot.0.to_be_bytes().iter().chain(id.as_bytes()).chain(rest))
    {
        *dst = *src;
    }
    key
}

/// `alt_meta`: slot u64 BE ‖ block_id (40) → [`SlotMeta`] (the `meta` row layout, V3).
#[derive(Debug, Clone, Copy)]
pub struct AltMeta;

impl Column for AltMeta {
    const NAME: &'static str = "alt_meta";
    const COMPRESSION: Compression = Compression::Default;
    type Key = BlockKey;
    type KeyBytes = [u8; 40];
    type Value = SlotMeta;
    fn encode_key((slot, id): BlockKey) -> [u8; 40] {
        block_key(slot, &id, &[])
    }
    fn decode_key(bytes: &[u8]) -> Result<BlockKey> {
        split_block_key::<Self, 0>(bytes).map(|(s, id, _)| (s, id))
    }
    fn encode_value(value: &SlotMeta) -> Vec<u8> {
        value.encode()
    }
    fn decode_value(key: BlockKey, bytes: &[u8]) -> Result<SlotMeta> {
        let meta = SlotMeta::decode(bytes).map_err(|r| corrupt_value::<Self>(key, r))?;
        if meta.slot != key.0 {
            return Err(corrupt_value::<Self>(
                key,
                format!("holds slot {}", meta.slot),
            ));
        }
        Ok(meta)
    }
}

/// `alt_index`: slot u64 BE ‖ block_id (40) → [`SlotIndex`] (the `index` row layout).
#[derive(Debug, Clone, Copy)]
pub struct AltIndex;

impl Column for AltIndex {
    const NAME: &'static str = "alt_index";
    const COMPRESSION: Compression = Compression::Default;
    type Key = BlockKey;
    type KeyBytes = [u8; 40];
    type Value = SlotIndex;
    fn encode_key((slot, id): BlockKey) -> [u8; 40] {
        block_key(slot, &id, &[])
    }
    fn decode_key(bytes: &[u8]) -> Result<BlockKey> {
        split_block_key::<Self, 0>(bytes).map(|(s, id, _)| (s, id))
    }
    fn encode_value(value: &SlotIndex) -> Vec<u8> {
        value.encode()
    }
    fn decode_value(key: BlockKey, bytes: &[u8]) -> Result<SlotIndex> {
        SlotIndex::decode(bytes).map_err(|r| corrupt_value::<Self>(key, r))
    }
}

/// `alt_data_shred`: slot u64 BE ‖ block_id ‖ shred index u64 BE (48) → the data shred
/// payload, as in `data_shred`. Not compressed.
#[derive(Debug, Clone, Copy)]
pub struct AltDataShred;

impl Column for AltDataShred {
    const NAME: &'static str = "alt_data_shred";
    const COMPRESSION: Compression = Compression::None;
    type Key = (Slot, Hash, u32);
    type KeyBytes = [u8; 48];
    type Value = Vec<u8>;
    fn encode_key((slot, id, index): Self::Key) -> [u8; 48] {
        block_key(slot, &id, &u64::from(index).to_be_bytes())
    }
    fn decode_key(bytes: &[u8]) -> Result<Self::Key> {
        let (slot, id, index) = split_block_key::<Self, 8>(bytes)?;
        let index = u64::from_be_bytes(index);
        let index = u32::try_from(index)
            .map_err(|_| corrupt_key::<Self>(bytes, format!("shred index {index} exceeds u32")))?;
        Ok((slot, id, index))
    }
    fn encode_value(value: &Vec<u8>) -> Vec<u8> {
        value.clone()
    }
    fn decode_value(_key: Self::Key, bytes: &[u8]) -> Result<Vec<u8>> {
        Ok(bytes.to_vec())
    }
}

/// `alt_merkle_root_meta`: slot u64 BE ‖ block_id ‖ fec_set_index u32 BE (44) →
/// [`MerkleRootMeta`], as in `merkle_root_meta`.
#[derive(Debug, Clone, Copy)]
pub struct AltMerkleRootMeta;

impl Column for AltMerkleRootMeta {
    const NAME: &'static str = "alt_merkle_root_meta";
    const COMPRESSION: Compression = Compression::Default;
    type Key = (Slot, Hash, u32);
    type KeyBytes = [u8; 44];
    type Value = MerkleRootMeta;
    fn encode_key((slot, id, fec): Self::Key) -> [u8; 44] {
        block_key(slot, &id, &fec.to_be_bytes())
    }
    fn decode_key(bytes: &[u8]) -> Result<Self::Key> {
        split_block_key::<Self, 4>(bytes).map(|(s, id, f)| (s, id, u32::from_be_bytes(f)))
    }
    fn encode_value(value: &MerkleRootMeta) -> Vec<u8> {
        value.encode()
    }
    fn decode_value(key: Self::Key, bytes: &[u8]) -> Result<MerkleRootMeta> {
        MerkleRootMeta::decode(bytes).map_err(|r| corrupt_value::<Self>(key, r))
    }
}

/// Where a block's rows live: the primary columns, or the `alt_*` ones under a block id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum BlockLocation {
    /// `meta`, `index`, `data_shred`, `merkle_root_meta`; keyed with 32 zero bytes.
    Original,
    /// The `alt_*` columns under this (non-zero) block id.
    Alternate {
        /// The block id the rows are keyed under; never all zeros.
        block_id: Hash,
    },
}

impl BlockLocation {
    /// 32 zero bytes are `Original`, anything else names an alternate block.
    pub fn from_bytes(bytes: [u8; 32]) -> Self {
        if bytes == [0; 32] {
            Self::Original
        } else {
            Self::Alternate {
                block_id: Hash(bytes),
            }
        }
    }

    /// The 32 key bytes: zeros for `Original`, else the block id (inverse of [`Self::from_bytes`]).
    pub fn to_bytes(self) -> [u8; 32] {
        match self {
            Self::Original => [0; 32],
            Self::Alternate { block_id } => block_id.0,
        }
    }
}

/// Bytes of one Merkle proof entry (a truncated 20-byte hash).
pub const MERKLE_PROOF_ENTRY_BYTES: usize = 20;

/// Largest `proofs` a row may hold: 1,024 FEC sets (32,768 shreds / 32) plus the parent
/// leaf, each with a proof of 11 entries. Anything longer is corrupt.
pub const MAX_DOUBLE_MERKLE_PROOF_BYTES: usize = 1_025 * 11 * MERKLE_PROOF_ENTRY_BYTES;

/// The `double_merkle_meta` row of a block: the root over its FEC sets' roots and its
/// parent, with the proof of each leaf.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DoubleMerkleMeta {
    /// The root of the Merkle tree whose leaves are the block's FEC set roots and its parent.
    pub double_merkle_root: Hash,
    /// Number of FEC sets in the block (the tree has one more leaf, the parent).
    pub fec_set_count: u32,
    /// `fec_set_count + 1` proofs of equal size, concatenated (FEC sets in order, then the
    /// parent leaf); empty until computed.
    pub proofs: Vec<u8>,
}

impl DoubleMerkleMeta {
    /// `double_merkle_root` 32 ‖ `fec_set_count` u32 ‖ `proofs` (u64 length ‖ bytes).
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(44 + self.proofs.len());
        out.extend_from_slice(self.double_merkle_root.as_bytes());
        out.extend_from_slice(&self.fec_set_count.to_le_bytes());
        out.extend_from_slice(&(self.proofs.len() as u64).to_le_bytes());
        out.extend_from_slice(&self.proofs);
        out
    }

    /// Decodes a row written by [`Self::encode`]. Errors name the short field, a `proofs` length
    /// past [`MAX_DOUBLE_MERKLE_PROOF_BYTES`], or trailing bytes.
    pub fn decode(bytes: &[u8]) -> std::result::Result<Self, String> {
        let mut r = Reader::new(bytes);
        let root: [u8; 32] = r
            .take(32, "double_merkle_root")?
            .try_into()
            .unwrap_or_default();
        let fec_set_count = r.u32("fec_set_count")?;
        let proofs = r
            .byte_vec(MAX_DOUBLE_MERKLE_PROOF_BYTES, "proofs")?
            .to_vec();
        r.finish("double merkle meta")?;
        Ok(Self {
            double_merkle_root: Hash(root),
            fec_set_count,
            proofs,
        })
    }
}

/// `double_merkle_meta`: slot u64 BE ‖ [`BlockLocation`] as 32 bytes (40) →
/// [`DoubleMerkleMeta`].
#[derive(Debug, Clone, Copy)]
pub struct DoubleMerkleMetaColumn;

impl Column for DoubleMerkleMetaColumn {
    const NAME: &'static str = "double_merkle_meta";
    const COMPRESSION: Compression = Compression::Default;
    type Key = (Slot, BlockLocation);
    type KeyBytes = [u8; 40];
    type Value = DoubleMerkleMeta;
    fn encode_key((slot, location): Self::Key) -> [u8; 40] {
        block_key(slot, &Hash(location.to_bytes()), &[])
    }
    fn decode_key(bytes: &[u8]) -> Result<Self::Key> {
        split_block_key::<Self, 0>(bytes).map(|(s, id, _)| (s, BlockLocation::from_bytes(id.0)))
    }
    fn encode_value(value: &DoubleMerkleMeta) -> Vec<u8> {
        value.encode()
    }
    fn decode_value(key: Self::Key, bytes: &[u8]) -> Result<DoubleMerkleMeta> {
        DoubleMerkleMeta::decode(bytes).map_err(|r| corrupt_value::<Self>(key, r))
    }
}

#[cfg(test)]
#[path = "alt_columns_tests.rs"]
mod tests;
