//! `insert`: shreds of stream files through Agave's own insert path.

use serde::{Deserialize, Serialize};

use crate::duplicate::DuplicateKind;

/// What `insert` read, inserted and found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Inserted {
    /// Which of Agave's insert paths took the shreds (`--via`).
    pub via: InsertPath,
    /// Records read from all the stream files.
    pub records: u64,
    /// Shreds selected (`--select`, `--slots`) and inserted: `data + code`.
    pub selected: u64,
    /// Data shreds among the selected.
    pub data: u64,
    /// Code shreds among the selected.
    pub code: u64,
    /// Shreds that parsed but were not selected.
    pub skipped: u64,
    /// Records Agave's `Shred::new_from_serialized_shred` refused.
    pub unparsable: u64,
    /// The first 20 of those, each as "FILE record N: reason".
    pub unparsable_examples: Vec<String>,
    /// The completed data sets Agave's insert reported, in the order reported.
    pub completed_data_sets: Vec<CompletedDataSet>,
    /// Data shreds rebuilt by erasure recovery and stored
    /// (`BlockstoreInsertionMetrics::num_recovered_inserted`; 0 without recovery).
    pub recovered: u64,
    /// Recovered shreds already stored (`num_recovered_exists`).
    pub recovered_exists: u64,
    /// Recovered shreds refused as invalid (`num_recovered_failed_invalid`).
    pub recovered_invalid: u64,
    /// Every possible duplicate the blockstore reported (window-service path only), in
    /// order, with what the handler did.
    pub possible_duplicates: Vec<HandledDuplicate>,
    /// The touched slots that are full afterwards, ascending.
    pub slots_full: Vec<u64>,
    /// Every touched slot's state afterwards, ascending.
    pub slots: Vec<InsertedSlot>,
}

/// `--via`: Agave's insert path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InsertPath {
    /// `Blockstore::insert_shreds`: no recovery.
    InsertShreds,
    /// `insert_shreds_handle_duplicate` with erasure recovery, duplicates handled as a
    /// validator's window service handles them.
    WindowService,
}

/// One completed data set: data shreds `start..end` (end excluded) of `slot`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompletedDataSet {
    /// The slot.
    pub slot: u64,
    /// Index of the set's first data shred.
    pub start: u32,
    /// One past the index of its last data shred.
    pub end: u32,
}

/// One reported possible duplicate and how it was handled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandledDuplicate {
    /// The slot.
    pub slot: u64,
    /// Agave's `PossibleDuplicateShred` variant name (e.g. `MerkleRootConflict`).
    pub agave_variant: String,
    /// The conflict, by bstore's name for it.
    pub kind: DuplicateKind,
    /// Whether the slot had a duplicate proof before the handler ran.
    pub proof_before_handling: bool,
    /// Whether the handler stored a proof (`store_duplicate_slot`).
    pub stored_by_handler: bool,
    /// Whether the slot has a proof afterwards.
    pub has_proof: bool,
    /// Whether the slot was dead before the handler ran.
    pub dead_before_handling: bool,
    /// Whether the slot is dead afterwards.
    pub dead: bool,
}

/// A touched slot after the insert: its meta's counters, or no meta at all.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum InsertedSlot {
    /// Agave has a meta for the slot.
    Stored(SlotState),
    /// Agave has no meta for the slot.
    Missing(MissingMeta),
}

impl InsertedSlot {
    /// The slot.
    pub fn slot(&self) -> u64 {
        match self {
            Self::Stored(state) => state.slot,
            Self::Missing(missing) => missing.slot,
        }
    }
}

/// A slot's meta counters after an insert.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SlotState {
    /// The slot.
    pub slot: u64,
    /// `SlotMeta::consumed`: data shreds `0..consumed` are all stored.
    pub consumed: u64,
    /// `SlotMeta::received`: one past the highest data shred index stored.
    pub received: u64,
    /// `SlotMeta::last_index`: index of the last data shred, once it is known.
    pub last_index: Option<u64>,
    /// `SlotMeta::is_full()`.
    pub is_full: bool,
}

/// A touched slot Agave has no meta for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MissingMeta {
    /// The slot.
    pub slot: u64,
    /// Always `null`: no meta.
    pub meta: (),
}
