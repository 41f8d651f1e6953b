//! One deshredded data set, decoded: an entry batch or a block marker (an owned
//! [`Component`]), and the error a data set that decodes as neither maps to. Agave's rules
//! for telling the two apart are in `components.rs`' module docs.

use std::ops::Range;

use crate::FormatError;
use crate::block::{BlockMarker, is_block_marker};
use crate::defect::DataDefect;
use crate::entry::{Entry, decode_entries};
use crate::error::{LedgerError, Result};
use crate::types::Slot;

/// One completed data set of a slot, owned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Component {
    /// An entry batch (never empty).
    EntryBatch(Vec<Entry>),
    /// A block marker.
    Marker(BlockMarker),
}

/// One deshredded data set as an owned component, with Agave's rules (module docs).
pub(super) fn decode_component(slot: Slot, range: &Range<u32>, bytes: &[u8]) -> Result<Component> {
    if is_block_marker(bytes) {
        BlockMarker::parse(bytes)
            .map(Component::Marker)
            .map_err(|e| entries_error(slot, range, e))
    } else {
        decode_entries(bytes)
            .map(Component::EntryBatch)
            .map_err(|e| entries_error(slot, range, e))
    }
}

/// The error of a data set of `slot` at shreds `range` whose bytes do not decode.
pub(super) fn entries_error(slot: Slot, range: &Range<u32>, e: FormatError) -> LedgerError {
    match e {
        FormatError::InvalidBlockMarker { offset, defect } => LedgerError::InvalidShredData {
            slot,
            start: range.start,
            end: range.end,
            cause: DataDefect::Marker { offset, defect },
        },
        FormatError::BlockAborted => LedgerError::BlockAborted {
            slot,
            start: range.start,
            end: range.end,
        },
        FormatError::InvalidEntries { offset, defect } => LedgerError::InvalidShredData {
            slot,
            start: range.start,
            end: range.end,
            cause: DataDefect::Entries { offset, defect },
        },
        other => other.into(),
    }
}
