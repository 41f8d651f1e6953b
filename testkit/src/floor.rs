//! The fetch benchmarks' floor: what a full-slot fetch cannot avoid, with nothing else.

use bstore_ledger::fetch::ShredRanges;
use bstore_ledger::shred::SIZE_OF_HEADERS;
use bstore_ledger::store::Blockstore;
use bstore_ledger::{LedgerError, Slot};

/// Offset of a data shred's little-endian `size` field (headers end at 88).
const SIZE_FIELD: usize = 86;

/// The same reads as a full fetch from `start` — the meta (for the completed ranges), the
/// dead flag, the one multi-get over every shred of the ranges — plus one copy of every
/// shred's data bytes into `out`, with no checks, deshred rules or decoding. A dead slot is
/// `DeadSlot`. Returns the number of shreds read. Not for production: a malformed shred is
/// skipped silently here.
pub fn copy_slot_data_unchecked(
    store: &Blockstore,
    slot: Slot,
    start: u32,
    out: &mut Vec<u8>,
) -> Result<u64, LedgerError> {
    out.clear();
    let Some((first, end)) = read_bounds(store, slot, start)? else {
        return Ok(0);
    };
    let pinned = store.multi_get_data_shreds(slot, first, end)?;
    for bytes in pinned.iter().flatten() {
        push_data(bytes, out);
    }
    Ok(pinned.len() as u64)
}

/// The reads every fetch does before the shreds: the meta (for the completed ranges from
/// `start`) and the dead flag. The shred indices to read, `None` when no range is complete;
/// a dead slot is `DeadSlot`.
fn read_bounds(
    store: &Blockstore,
    slot: Slot,
    start: u32,
) -> Result<Option<(u32, u32)>, LedgerError> {
    let ranges = store.completed_ranges(slot, start)?;
    let (Some(first), Some(last)) = (ranges.first(), ranges.last()) else {
        return Ok(None);
    };
    if store.is_dead(slot)? {
        return Err(LedgerError::DeadSlot { slot });
    }
    Ok(Some((first.start, last.end)))
}

/// Appends a stored data shred's data bytes (`88..size`) to `out`; skips a malformed one.
fn push_data(bytes: &[u8], out: &mut Vec<u8>) {
    let data_end = bytes
        .get(SIZE_FIELD..SIZE_FIELD + 2)
        .map_or(0, |s| usize::from(u16::from_le_bytes([s[0], s[1]])));
    if let Some(data) = bytes.get(SIZE_OF_HEADERS..data_end) {
        out.extend_from_slice(data);
    }
}

/// [`copy_slot_data_unchecked`] with one bounded forward range scan over the slot's data
/// shred keys instead of the multi-get: the alternative read path the fetch benchmark
/// measures against the multi-get. Same reads otherwise, same copy.
pub fn copy_slot_data_scan_unchecked(
    store: &Blockstore,
    slot: Slot,
    start: u32,
    out: &mut Vec<u8>,
) -> Result<u64, LedgerError> {
    use bstore_ledger::ShredIndex;
    use bstore_ledger::store::columns::DataShred;
    use bstore_ledger::store::kv::Direction;
    use std::ops::ControlFlow;

    out.clear();
    let Some((first, end)) = read_bounds(store, slot, start)? else {
        return Ok(0);
    };
    let mut read = 0u64;
    store.for_each_row::<DataShred>(
        Some((slot, ShredIndex(first))),
        Some((slot, ShredIndex(end))),
        Direction::Forward,
        |_, bytes| {
            read += 1;
            push_data(bytes, out);
            ControlFlow::Continue(())
        },
    )?;
    Ok(read)
}
