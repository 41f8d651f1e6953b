//! `dump-columns` (one slot's raw rows with their decoded fields) and `slot-rows` (a slot
//! range through Agave's getters and as raw rows of every slot-keyed column family).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::slot::{ErasureMetaRow, IndexRow, MerkleRootMetaRow, SlotMetaView};

/// What `dump-columns` printed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColumnDump {
    /// The slot.
    pub slot: u64,
    /// Every column family in the database, in RocksDB's order.
    pub column_families: Vec<String>,
    /// The slot's rows of the four columns.
    pub columns: DumpedColumns,
}

/// The slot's rows of the columns both writers must make byte-identical, each in key
/// order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DumpedColumns {
    /// `index` rows (one at most).
    pub index: Vec<DumpedRow<IndexRow>>,
    /// `erasure_meta` rows, one per FEC set.
    pub erasure_meta: Vec<DumpedRow<ErasureMetaRow>>,
    /// `merkle_root_meta` rows, one per FEC set.
    pub merkle_root_meta: Vec<DumpedRow<MerkleRootMetaRow>>,
    /// `meta` rows (one at most), decoded by Agave's `SlotMeta`.
    pub meta: Vec<DumpedRow<SlotMetaView>>,
}

impl DumpedColumns {
    /// The four columns by name, in the order `index`, `erasure_meta`, `merkle_root_meta`,
    /// `meta`, each as its rows' (key hex, value hex).
    pub fn hex_rows(&self) -> [(&'static str, Vec<(&str, &str)>); 4] {
        fn hex<T>(rows: &[DumpedRow<T>]) -> Vec<(&str, &str)> {
            rows.iter()
                .map(|r| (r.key.as_str(), r.value.as_str()))
                .collect()
        }
        [
            ("index", hex(&self.index)),
            ("erasure_meta", hex(&self.erasure_meta)),
            ("merkle_root_meta", hex(&self.merkle_root_meta)),
            ("meta", hex(&self.meta)),
        ]
    }
}

/// One raw row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DumpedRow<T> {
    /// The key (hex).
    pub key: String,
    /// The value (hex).
    pub value: String,
    /// The value's length in bytes.
    pub value_len: u64,
    /// The value decoded, or why it could not be (the row is dumped either way).
    pub decoded: Decoded<T>,
}

/// A value decoded, or why not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Decoded<T> {
    /// The decoded fields.
    Ok(T),
    /// The reason.
    Failed(DecodeFailed),
}

/// Why a value could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DecodeFailed {
    /// The decoder's error.
    pub error: String,
}

/// What `slot-rows` printed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SlotRows {
    /// Every column family in the database, in RocksDB's order.
    pub families_present: Vec<String>,
    /// One per slot of the range, ascending.
    pub slots: Vec<SlotView>,
}

/// One slot through Agave's getters, and its raw rows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SlotView {
    /// The slot.
    pub slot: u64,
    /// Agave's `meta(slot)`.
    pub meta: Option<SlotMetaView>,
    /// Agave's `get_index(slot)` found a row.
    pub index_present: bool,
    /// Data shreds `get_data_shreds_for_slot(slot, 0)` returns.
    pub data_shreds: u64,
    /// Code shreds `get_coding_shreds_for_slot(slot, 0)` returns.
    pub code_shreds: u64,
    /// Agave's `is_full(slot)`.
    pub is_full: bool,
    /// Agave's `is_dead(slot)`.
    pub dead: bool,
    /// Agave's `is_root(slot)`.
    pub root: bool,
    /// Agave's `has_duplicate_shreds_in_slot(slot)`.
    pub duplicate_proof: bool,
    /// Agave's `orphan(slot)` found a row.
    pub orphan: bool,
    /// Agave's `get_bank_hash(slot)` (base58).
    pub bank_hash: Option<String>,
    /// Agave's `get_optimistic_slot(slot)` found a row.
    pub optimistic: bool,
    /// Agave's `get_block_height(slot)`.
    pub block_height: Option<u64>,
    /// A `rewards` row exists (Agave's rewards reader is private).
    pub rewards: bool,
    /// Raw rows of the slot in all slot-keyed families.
    pub raw_rows_total: u64,
    /// Per slot-keyed family (the 16 Agave's purge range-deletes), by name.
    pub raw: BTreeMap<String, RawDigest>,
}

/// The raw rows of one family whose key starts with the slot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawDigest {
    /// How many.
    pub rows: u64,
    /// sha256 (hex) over every row in key order: key length (u64 LE), key, value length
    /// (u64 LE), value.
    pub sha256: String,
}
