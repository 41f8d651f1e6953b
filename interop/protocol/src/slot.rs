//! `summary`: everything Agave keeps for one slot, and the decoded rows of `index`,
//! `erasure_meta`, `merkle_root_meta` and `meta` that `dump-columns` also prints.

use serde::{Deserialize, Serialize};

/// What `summary` reports for one slot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Summary {
    /// The slot.
    pub slot: u64,
    /// Agave's `meta(slot)`; `None` when there is none.
    pub meta: Option<SlotMetaView>,
    /// Agave's `is_full(slot)`.
    pub is_full: bool,
    /// The slot's `index` row.
    pub index: IndexSummary,
    /// The slot's `erasure_meta` rows, in key order, each with its key's FEC set index.
    pub erasure_meta: Vec<ErasureMetaRow>,
    /// The slot's `merkle_root_meta` rows, in key order, each with its key's FEC set
    /// index.
    pub merkle_root_meta: Vec<MerkleRootMetaRow>,
    /// Agave's `is_dead(slot)`.
    pub dead: bool,
    /// Agave's `is_root(slot)`.
    pub root: bool,
    /// Agave's `get_duplicate_slot(slot)` found a proof.
    pub duplicate_proof: bool,
    /// Agave's `get_slot_entries_with_shred_info(slot, 0, allow dead)`.
    pub entries: SlotEntries,
}

/// A `SlotMeta` as Agave's own type reads it (V3; a V2 row reads with the V3 fields
/// defaulted).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SlotMetaView {
    /// The slot.
    pub slot: u64,
    /// Data shreds `0..consumed` are all stored.
    pub consumed: u64,
    /// One past the highest data shred index stored.
    pub received: u64,
    /// Wall-clock time the first shred arrived (milliseconds since the Unix epoch).
    pub first_shred_timestamp: u64,
    /// Index of the slot's last data shred, once known.
    pub last_index: Option<u64>,
    /// The parent slot, once known.
    pub parent_slot: Option<u64>,
    /// Child slots seen so far.
    pub next_slots: Vec<u64>,
    /// The raw `ConnectedFlags` bits.
    pub connected_flags: u8,
    /// `SlotMeta::is_connected()`.
    pub is_connected: bool,
    /// `SlotMeta::is_parent_connected()`.
    pub is_parent_connected: bool,
    /// Indices of the data shreds that end a data set, ascending.
    pub completed_data_indexes: Vec<u32>,
    /// `SlotMeta::is_full()`.
    pub is_full: bool,
    /// The parent's block id (base58; all zeros when unknown).
    pub parent_block_id: String,
    /// The FEC set replay has reached.
    pub replay_fec_set_index: u32,
    /// Only in `dump-columns`: the row's layout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<MetaFormat>,
    /// Only in `dump-columns`: Agave writes the same bytes back from what it read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agave_roundtrip: Option<bool>,
}

/// The layout of a `meta` row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MetaFormat {
    /// Without `parent_block_id` and `replay_fec_set_index` (Agave rewrites it as V3).
    V2,
    /// Agave 4.x's own.
    V3,
}

/// The slot's `index` row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IndexSummary {
    /// Agave's `get_index(slot)` found a row.
    pub present: bool,
    /// Data shreds the row counts (from `get_index`).
    pub num_data: Option<u64>,
    /// Code shreds the row counts (from `get_index`).
    pub num_coding: Option<u64>,
    /// The raw row decoded by hand; `None` when there is no row.
    pub row: Option<IndexRow>,
}

/// An `index` value decoded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IndexRow {
    /// The layout.
    pub format: IndexFormat,
    /// The slot stored in the value.
    pub slot: u64,
    /// The data shreds it lists.
    pub data: ShredIndices,
    /// The code shreds it lists.
    pub coding: ShredIndices,
    /// Agave's `Index` decodes the value and encodes the same bytes back.
    pub agave_roundtrip: bool,
}

/// The layout of an `index` row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum IndexFormat {
    /// Sorted sets of indices (legacy; Agave still reads it).
    V1,
    /// Bitmaps (what Agave 4.x writes).
    V2,
}

/// The shreds of one kind an `index` row lists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShredIndices {
    /// How many.
    pub num_shreds: u64,
    /// Their indices, ascending.
    pub indices: Vec<u64>,
}

/// An `erasure_meta` value decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ErasureMetaRow {
    /// Only in `summary`: the FEC set index in the row's key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key_fec_set_index: Option<u64>,
    /// The FEC set index in the value.
    pub fec_set_index: u64,
    /// Index of the set's first code shred.
    pub first_coding_index: u64,
    /// Index of the first code shred received.
    pub first_received_coding_index: u64,
    /// Data shreds in the set.
    pub num_data: u64,
    /// Code shreds in the set.
    pub num_coding: u64,
    /// Agave's `ErasureMeta` decodes the value and encodes the same bytes back.
    pub agave_roundtrip: bool,
}

/// A `merkle_root_meta` value decoded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MerkleRootMetaRow {
    /// Only in `summary`: the FEC set index in the row's key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fec_set_index: Option<u64>,
    /// The set's Merkle root (base58); `None` for a legacy shred.
    pub merkle_root: Option<String>,
    /// Index of the first shred of the set received.
    pub first_received_shred_index: u32,
    /// Its type.
    pub first_received_shred_type: ShredType,
    /// Agave's `MerkleRootMeta` decodes the value and encodes the same bytes back.
    pub agave_roundtrip: bool,
}

/// A shred's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ShredType {
    /// A data shred.
    Data,
    /// A code (erasure) shred.
    Code,
}

/// Agave's fetch of a slot's completed data sets: what it returned, or why it failed (a
/// slot Agave cannot read is a finding, not a failed command).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SlotEntries {
    /// The fetch returned.
    Fetched(FetchedEntries),
    /// The fetch failed.
    Failed(FetchFailed),
}

impl SlotEntries {
    /// The fetched entries, or the fetch error.
    pub fn fetched(&self) -> Result<&FetchedEntries, &str> {
        match self {
            Self::Fetched(entries) => Ok(entries),
            Self::Failed(failed) => Err(&failed.error),
        }
    }
}

/// What Agave's fetch returned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FetchedEntries {
    /// Entries, ticks included.
    pub count: u64,
    /// Tick entries.
    pub ticks: u64,
    /// Transactions in all entries.
    pub transactions: u64,
    /// Data shreds the completed data sets span.
    pub num_shreds: u64,
    /// The fetch's own full flag.
    pub is_full: bool,
    /// The last entry's hash (base58); `None` without entries.
    pub blockhash: Option<String>,
    /// sha256 (hex) of the entries as bincode `Vec<Entry>` (the `--entries-out` bytes).
    pub sha256: String,
}

/// Why Agave's fetch failed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FetchFailed {
    /// Agave's error, displayed.
    pub error: String,
}
