//! Deshred (`docs/fetch-pipeline.md#the-fetch-pipeline`): concatenate the data of one completed
//! range of data shreds.
//!
//! Rules checked for each range, each failing with `LedgerError::InvalidShredData` naming
//! the slot, the range and the cause: every payload parses as a data shred of this slot at
//! the expected index; indices are consecutive; no shred inside the range is data-complete;
//! the last one is. Signatures and Merkle proofs are not checked here (insert or the
//! receiving side does that).

use std::ops::Range;

use crate::FormatError;
use crate::defect::DataDefect;
use crate::error::{LedgerError, Result};
use crate::shred::{ShredDefect, ShredRef};
use crate::types::Slot;

fn invalid(slot: Slot, range: &Range<u32>, cause: DataDefect) -> LedgerError {
    LedgerError::InvalidShredData {
        slot,
        start: range.start,
        end: range.end,
        cause,
    }
}

/// Parses and checks the shreds of `range` (`payloads[i]` is the shred at `range.start + i`),
/// appends them to `shreds`, and returns the range's total data length, so the caller can
/// size one buffer up front for every range of a fetch.
pub fn check_range_into<'a, P>(
    slot: Slot,
    range: &Range<u32>,
    payloads: P,
    shreds: &mut Vec<ShredRef<'a>>,
) -> Result<usize>
where
    P: IntoIterator<Item = &'a [u8]>,
{
    let mut total = 0usize;
    let mut expected = range.start;
    for payload in payloads {
        if expected >= range.end {
            // More payloads than the range holds: the caller passed a wrong range.
            let cause = DataDefect::NotConsecutive {
                expected: range.end,
                found: expected,
            };
            return Err(invalid(slot, range, cause));
        }
        let shred = ShredRef::parse(payload).map_err(|e| match e {
            FormatError::InvalidShred { defect, .. } => invalid(
                slot,
                range,
                DataDefect::Shred {
                    index: expected,
                    defect,
                },
            ),
            other => other.into(),
        })?;
        if !shred.is_data() {
            let defect = ShredDefect::WrongKind { expected: "data" };
            return Err(invalid(
                slot,
                range,
                DataDefect::Shred {
                    index: expected,
                    defect,
                },
            ));
        }
        if shred.slot() != slot || shred.index().0 != expected {
            let cause = DataDefect::KeyMismatch {
                index: expected,
                found_slot: shred.slot().0,
                found_index: shred.index().0,
            };
            return Err(invalid(slot, range, cause));
        }
        let last = expected + 1 == range.end;
        if shred.data_complete() && !last {
            return Err(invalid(
                slot,
                range,
                DataDefect::CompleteInsideRange { index: expected },
            ));
        }
        if last && !shred.data_complete() {
            return Err(invalid(
                slot,
                range,
                DataDefect::LastNotComplete { index: expected },
            ));
        }
        total += shred.data().len();
        shreds.push(shred);
        expected += 1;
    }
    if expected == range.start {
        return Err(invalid(slot, range, DataDefect::Empty));
    }
    if expected != range.end {
        return Err(invalid(
            slot,
            range,
            DataDefect::NotConsecutive {
                expected,
                found: range.end,
            },
        ));
    }
    Ok(total)
}

/// Deshreds one range, appending its data to `out` (reserved once from the `size` fields).
pub fn deshred_into<'a, P>(
    slot: Slot,
    range: &Range<u32>,
    payloads: P,
    out: &mut Vec<u8>,
) -> Result<()>
where
    P: IntoIterator<Item = &'a [u8]>,
{
    let mut shreds = Vec::with_capacity(range.len());
    let total = check_range_into(slot, range, payloads, &mut shreds)?;
    out.reserve(total);
    for shred in &shreds {
        // The one copy of the fetch path: shred data into the contiguous data-set buffer.
        out.extend_from_slice(shred.data());
    }
    Ok(())
}

/// Deshreds one range into a new buffer.
pub fn deshred<'a, P>(slot: Slot, range: &Range<u32>, payloads: P) -> Result<Vec<u8>>
where
    P: IntoIterator<Item = &'a [u8]>,
{
    let mut out = Vec::new();
    deshred_into(slot, range, payloads, &mut out)?;
    Ok(out)
}
