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

/// The rules of one range checked shred by shred, in index order: what
/// [`check_range_into`] runs over a whole range, and what a fetch that reads each payload
/// only while a scan's cursor rests on it runs as the rows come.
pub(crate) struct RangeCheck<'r> {
    slot: Slot,
    range: &'r Range<u32>,
    /// The index the next payload must be; `range.start..=range.end`.
    expected: u32,
}

impl<'r> RangeCheck<'r> {
    pub(crate) fn new(slot: Slot, range: &'r Range<u32>) -> Self {
        Self {
            slot,
            range,
            expected: range.start,
        }
    }

    /// The index the next payload must be (`range.end` once every shred was checked).
    pub(crate) fn expected(&self) -> u32 {
        self.expected
    }

    /// Whether every shred of the range was counted (checked or passed).
    pub(crate) fn done(&self) -> bool {
        self.expected == self.range.end
    }

    /// Parses and checks `payload` as the shred at [`Self::expected`].
    pub(crate) fn next<'a>(&mut self, payload: &'a [u8]) -> Result<ShredRef<'a>> {
        let (slot, range, expected) = (self.slot, self.range, self.expected);
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
        self.expected += 1;
        Ok(shred)
    }

    /// Counts the shred at [`Self::expected`] as present without checking it (a caller that
    /// already holds the range's defect, looking on for a missing shred).
    pub(crate) fn pass(&mut self) {
        self.expected = self.expected.saturating_add(1).min(self.range.end);
    }

    /// After the last payload: an error unless every shred of the range was checked.
    pub(crate) fn finish(&self) -> Result<()> {
        let (slot, range) = (self.slot, self.range);
        if self.expected == range.start {
            return Err(invalid(slot, range, DataDefect::Empty));
        }
        if self.expected != range.end {
            let cause = DataDefect::NotConsecutive {
                expected: self.expected,
                found: range.end,
            };
            return Err(invalid(slot, range, cause));
        }
        Ok(())
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
    let mut check = RangeCheck::new(slot, range);
    let mut total = 0usize;
    for payload in payloads {
        let shred = check.next(payload)?;
        total += shred.data().len();
        shreds.push(shred);
    }
    check.finish()?;
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
