//! Why a completed range of shreds did not turn into entries. Carried by
//! `LedgerError::InvalidShredData` together with the slot and the range.

use std::fmt;

use crate::block::MarkerDefect;
use crate::entry::EntryDefect;
use crate::shred::ShredDefect;

/// One reason a range of data shreds could not be deshredded or decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DataDefect {
    /// A stored shred in the range does not parse.
    Shred {
        /// Index of the shred within its slot.
        index: u32,
        /// Why it does not parse.
        defect: ShredDefect,
    },
    /// A stored shred belongs to another slot or index than its key says.
    KeyMismatch {
        /// The index the shred is stored under.
        index: u32,
        /// The slot written in the shred's own header.
        found_slot: u64,
        /// The index written in the shred's own header.
        found_index: u32,
    },
    /// Indices in the range are not consecutive.
    NotConsecutive {
        /// The index that should come next (the range start, then previous index + 1).
        expected: u32,
        /// The index that came instead.
        found: u32,
    },
    /// A shred flagged data-complete is followed by another shred inside the range.
    CompleteInsideRange {
        /// Index of the data-complete shred that is not the range's last.
        index: u32,
    },
    /// The range's last shred is not flagged data-complete.
    LastNotComplete {
        /// Index of the range's last shred.
        index: u32,
    },
    /// The range holds no shreds at all, or is not a valid shred range of a slot (empty,
    /// reversed, past index 32,768, or overlapping the previous range).
    Empty,
    /// The deshredded bytes do not decode as entries.
    Entries {
        /// Byte offset into the deshredded data set where decoding failed.
        offset: usize,
        /// What is wrong with the entries at that offset.
        defect: EntryDefect,
    },
    /// The deshredded bytes start with a zero entry count but are not a valid block marker
    /// (`docs/block-components.md`).
    Marker {
        /// Byte offset into the deshredded data set where the marker is invalid.
        offset: usize,
        /// What is wrong with the marker.
        defect: MarkerDefect,
    },
}

impl fmt::Display for DataDefect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Shred { index, defect } => write!(f, "shred {index}: {defect}"),
            Self::KeyMismatch {
                index,
                found_slot,
                found_index,
            } => write!(
                f,
                "shred stored at index {index} has header slot {found_slot} index {found_index}"
            ),
            Self::NotConsecutive { expected, found } => {
                write!(f, "expected shred {expected}, found {found}")
            }
            Self::CompleteInsideRange { index } => {
                write!(
                    f,
                    "shred {index} is data-complete but more shreds follow it"
                )
            }
            Self::LastNotComplete { index } => {
                write!(f, "last shred {index} is not data-complete")
            }
            Self::Empty => write!(f, "not a non-empty shred range below 32768"),
            Self::Entries { offset, defect } => write!(f, "entries at byte {offset}: {defect}"),
            Self::Marker { offset, defect } => {
                write!(f, "block marker at byte {offset}: {defect}")
            }
        }
    }
}
