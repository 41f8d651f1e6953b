//! The column families Agave 4.x added (`docs/on-disk-layout.md#agave-4x-column-families`):
//! their columns are declared with the others in `columns.rs` (re-exported here), their
//! value types live here. Keys: integers big-endian, a block id as its 32 raw bytes.
//! Values: wincode (bincode 1.x fixint compatible), integers little-endian.
//!
//! The `alt_*` families hold another version of a slot than the one in `meta` / `index` /
//! `data_shred` / `merkle_root_meta`, fetched by repair by its block id; a row's value has
//! the layout of the matching primary column. bstore does not write them (it runs no
//! block-id repair), but reads them typed, keeps them on every open and deletes their rows
//! of purged slots (every key starts with the slot), as Agave does.

use crate::types::Hash;
use crate::wire::Reader;

pub use super::columns::{
    AltDataShred, AltIndex, AltMerkleRootMeta, AltMeta, DoubleMerkleMetaColumn,
};
pub use super::keys::BlockKey;

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

#[cfg(test)]
#[path = "alt_columns_tests.rs"]
mod tests;
