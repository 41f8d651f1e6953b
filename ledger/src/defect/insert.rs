//! Why the store refused a shred that parsed fine. Carried by `LedgerError::ShredRejected`,
//! which adds the slot and the index.

use std::fmt;

use super::ParentInfoDefect;
use crate::types::{Hash, Slot};

/// A shred that contradicts the slot's `SlotMeta` (`docs/on-disk-layout.md#inserting-shreds`).
/// Agave treats most of these as
/// evidence of a duplicate (equivocating) leader; either way the shred is not stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InsertDefect {
    /// The index is past the slot's known last index.
    PastLastIndex {
        /// The slot's last shred index, known from its last-in-slot shred.
        last_index: u64,
    },
    /// A last-in-slot shred at an index other than the slot's known last index.
    SecondLastInSlot {
        /// The slot's last shred index, from the last-in-slot shred already stored.
        last_index: u64,
    },
    /// A last-in-slot shred below an index already received (`received` = highest + 1).
    LastInSlotBelowReceived {
        /// One past the highest shred index already received for the slot.
        received: u64,
    },
    /// The shred's parent (`slot − parent_offset`) differs from the parent in the slot's meta.
    ParentMismatch {
        /// The parent slot recorded in the slot's meta.
        expected: Slot,
        /// The parent slot this shred names.
        found: Slot,
    },
    /// A Merkle shred whose proof leads to another root than the one of its FEC set's
    /// shreds already accepted: it was not made with them (a forgery or an equivocation).
    MerkleRootMismatch {
        /// Index of the first data shred of the FEC set.
        fec_set_index: u32,
        /// The Merkle root of the set's shreds already accepted.
        expected: Hash,
        /// The Merkle root this shred's proof leads to.
        found: Hash,
    },
    /// A coding shred whose header (set shape) differs from the set's `erasure_meta`, made
    /// from the set's first stored coding shred.
    ErasureConfigConflict {
        /// Index of the first data shred of the FEC set.
        fec_set_index: u32,
        /// Number of data shreds the set's stored erasure meta records.
        num_data: u64,
        /// Number of coding shreds the set's stored erasure meta records.
        num_coding: u64,
    },
    /// A legacy or unchained Merkle shred: Agave 4.x parses only chained Merkle variants
    /// (`ShapeRules::Agave4`).
    VariantRetired {
        /// The shred's variant byte as found in its header (high nibble: kind, low: proof size).
        variant: u8,
    },
    /// The shred is not in a fixed 32-shred FEC set: `fec_set_index` is not a multiple of
    /// 32 or the index is outside `fec_set_index..fec_set_index + 32`.
    SetNotFixed {
        /// The FEC set index written in the shred's header.
        fec_set_index: u32,
    },
    /// A coding shred of a set that is not 32 data : 32 coding.
    ErasureConfigNotFixed {
        /// Number of data shreds the coding shred's header declares for its set.
        num_data: u16,
        /// Number of coding shreds the coding shred's header declares for its set.
        num_code: u16,
    },
    /// A Merkle proof that is not the 6 entries of a 64-leaf (32:32) set.
    ProofSizeNotFixed {
        /// Number of proof entries the shred carries.
        proof_size: u8,
    },
    /// DATA_COMPLETE on a data shred that is not its set's last (`fec_set_index + 31`).
    DataCompleteInsideSet {
        /// Index of the first data shred of the shred's FEC set.
        fec_set_index: u32,
    },
    /// LAST_IN_SLOT where `index + 1` is not a multiple of 32 (the last set is not full).
    LastInSlotInsideSet,
    /// An Alpenglow block header or UpdateParent whose parent contradicts the shred header,
    /// the root or an earlier marker; the slot is marked dead (Agave 4.4).
    ParentInfo(ParentInfoDefect),
}

impl InsertDefect {
    /// Whether Agave 4.x's insert takes the shred for evidence of another version of the
    /// slot and marks the slot dead unless it is already full (`InvalidShred` /
    /// `InvalidErasureConfig` in its `attempt_shred_insertion`): the meta rules and the
    /// conflicts within a set. The shape rules are not: Agave's shred filter drops such
    /// shreds before its blockstore sees them. A parent-info conflict marks the slot dead
    /// even when full (its own rule in `parent_info`).
    pub fn marks_dead_unless_full(&self) -> bool {
        matches!(
            self,
            Self::PastLastIndex { .. }
                | Self::SecondLastInSlot { .. }
                | Self::LastInSlotBelowReceived { .. }
                | Self::ParentMismatch { .. }
                | Self::MerkleRootMismatch { .. }
                | Self::ErasureConfigConflict { .. }
        )
    }

    /// A stable snake_case name of the defect (for grouping and metrics tags).
    pub fn kind(&self) -> &'static str {
        match self {
            Self::PastLastIndex { .. } => "past_last_index",
            Self::SecondLastInSlot { .. } => "second_last_in_slot",
            Self::LastInSlotBelowReceived { .. } => "last_in_slot_below_received",
            Self::ParentMismatch { .. } => "parent_mismatch",
            Self::MerkleRootMismatch { .. } => "merkle_root_mismatch",
            Self::ErasureConfigConflict { .. } => "erasure_config_conflict",
            Self::VariantRetired { .. } => "variant_retired",
            Self::SetNotFixed { .. } => "set_not_fixed",
            Self::ErasureConfigNotFixed { .. } => "erasure_config_not_fixed",
            Self::ProofSizeNotFixed { .. } => "proof_size_not_fixed",
            Self::DataCompleteInsideSet { .. } => "data_complete_inside_set",
            Self::LastInSlotInsideSet => "last_in_slot_inside_set",
            Self::ParentInfo(_) => "parent_info",
        }
    }
}

impl fmt::Display for InsertDefect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::PastLastIndex { last_index } => {
                write!(f, "index is past the slot's last index {last_index}")
            }
            Self::SecondLastInSlot { last_index } => {
                write!(
                    f,
                    "second last-in-slot shred; the slot's last index is {last_index}"
                )
            }
            Self::LastInSlotBelowReceived { received } => write!(
                f,
                "last-in-slot shred below shreds already received (received {received})"
            ),
            Self::ParentMismatch { expected, found } => write!(
                f,
                "parent slot {found} differs from the slot's parent {expected}"
            ),
            Self::MerkleRootMismatch {
                fec_set_index,
                expected,
                found,
            } => write!(
                f,
                "Merkle root {found} differs from root {expected} of FEC set {fec_set_index}"
            ),
            Self::ErasureConfigConflict {
                fec_set_index,
                num_data,
                num_coding,
            } => write!(
                f,
                "coding header differs from FEC set {fec_set_index}'s erasure meta \
                 ({num_data} data, {num_coding} coding, first coding index as stored)"
            ),
            Self::VariantRetired { variant } => write!(
                f,
                "variant {variant:#04x} is not a chained Merkle shred (Agave 4.x shape rules; \
                 legacy ledgers need ShapeRules::Legacy)"
            ),
            Self::SetNotFixed { fec_set_index } => write!(
                f,
                "not in a fixed 32-shred FEC set (fec_set_index {fec_set_index})"
            ),
            Self::ErasureConfigNotFixed { num_data, num_code } => write!(
                f,
                "coding shred of a {num_data}:{num_code} set, Agave 4.x takes only 32:32"
            ),
            Self::ProofSizeNotFixed { proof_size } => write!(
                f,
                "Merkle proof of {proof_size} entries, a 32:32 set's has 6 (64 leaves)"
            ),
            Self::DataCompleteInsideSet { fec_set_index } => write!(
                f,
                "DATA_COMPLETE before the last shred of FEC set {fec_set_index}"
            ),
            Self::LastInSlotInsideSet => write!(
                f,
                "LAST_IN_SLOT at an index whose FEC set is not full (index + 1 not a multiple of 32)"
            ),
            Self::ParentInfo(defect) => write!(f, "{defect}; the slot is marked dead"),
        }
    }
}
