//! Why an Alpenglow block marker's parent was refused on insert (`store/parent_info.rs`
//! applies the rules). Carried by `InsertDefect::ParentInfo`.

use std::fmt;

use crate::types::Slot;

/// Why a marker's parent was refused (Agave 4.4's `BlockstoreError` of the same cases).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParentInfoDefect {
    /// An UpdateParent in a slot that is not the first of its leader window.
    UpdateParentNotFirstInLeaderWindow,
    /// The declared parent is below the root or not below the slot.
    ParentOutsideRoot {
        /// The parent slot the marker declares.
        parent_slot: Slot,
        /// The ledger's root slot when the marker was inserted.
        root: Slot,
    },
    /// A block header whose parent differs from the shred header's.
    BlockHeaderParentMismatch {
        /// The parent slot in the block header.
        header: Slot,
        /// The parent slot in the shred header (`slot − parent_offset`).
        shred: Slot,
    },
    /// An UpdateParent whose parent is above the shred header's.
    UpdateParentAboveShredParent {
        /// The parent slot the UpdateParent marker declares.
        update_parent: Slot,
        /// The parent slot in the shred header (`slot − parent_offset`).
        shred: Slot,
    },
    /// Two different UpdateParent markers.
    MultipleUpdateParents,
    /// Two different block headers.
    BlockHeaderConflict,
    /// An UpdateParent naming the block header's own parent block.
    UpdateParentMatchesBlockHeader,
    /// An UpdateParent whose parent is above the block header's.
    UpdateParentAboveBlockHeader,
}

impl fmt::Display for ParentInfoDefect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::UpdateParentNotFirstInLeaderWindow => {
                f.write_str("UpdateParent in a slot that is not first in its leader window")
            }
            Self::ParentOutsideRoot { parent_slot, root } => write!(
                f,
                "marker parent {parent_slot} is below root {root} or not below the slot"
            ),
            Self::BlockHeaderParentMismatch { header, shred } => write!(
                f,
                "block header parent {header} differs from the shred parent {shred}"
            ),
            Self::UpdateParentAboveShredParent {
                update_parent,
                shred,
            } => write!(
                f,
                "UpdateParent parent {update_parent} is above the shred parent {shred}"
            ),
            Self::MultipleUpdateParents => f.write_str("two different UpdateParent markers"),
            Self::BlockHeaderConflict => f.write_str("two different block headers"),
            Self::UpdateParentMatchesBlockHeader => {
                f.write_str("UpdateParent names the block header's parent block")
            }
            Self::UpdateParentAboveBlockHeader => {
                f.write_str("UpdateParent parent is above the block header's parent")
            }
        }
    }
}
