//! The store-backed fetch (`docs/fetch-pipeline.md#the-fetch-pipeline`): read the slot's
//! `SlotMeta`, derive the completed ranges, fetch every shred of every range with ONE RocksDB
//! read (the store's `ReadPath`: a range scan or a multi-get of pinned values), check and
//! deshred each row as it comes ([`RangeStream`]; a scan's row while its cursor rests on it),
//! and decode serially on the caller's thread. The first error fails the whole call:
//! never partial entries.

use std::ops::Range;

use crate::block::{DataSet, parse_data_set};
use crate::defect::DataDefect;
use crate::entry::{EntriesView, Entry};
use crate::error::{LedgerError, Result};
use crate::fetch::api::{
    AllowDead, DataSetView, EntryFetch, FetchBuffer, ShredRanges, SlotEntries, SlotViews, ViewFetch,
};
use crate::fetch::completed_ranges;
use crate::fetch::decode::{Component, decode_component, entries_error};
use crate::fetch::deshred::RangeCheck;
use crate::shred::MAX_SHREDS_PER_SLOT;
use crate::store::{Blockstore, DataShredScan, KvEngine, ReadPath, SlotMeta};
use crate::types::{ShredIndex, Slot};

/// What the meta says a fetch from `start` should read.
pub(super) struct Plan {
    pub(super) ranges: Vec<Range<u32>>,
    pub(super) is_full: bool,
    /// The meta's `first_shred_timestamp` (part of a block's transaction-memo key).
    pub(super) first_shred_timestamp: u64,
}

impl<E: KvEngine> ShredRanges for Blockstore<E> {
    fn completed_ranges(&self, slot: Slot, start: u32) -> Result<Vec<Range<u32>>> {
        Ok(self
            .plan(slot, start, AllowDead::Yes)?
            .map(|p| p.ranges)
            .unwrap_or_default())
    }

    fn data_shred_count(&self, slot: Slot) -> Result<u64> {
        let Some(meta) = self.meta(slot)? else {
            return Ok(0);
        };
        let received = u32::try_from(meta.received).unwrap_or(u32::MAX);
        let held = self.multi_get_data_shreds(slot, 0, received)?;
        Ok(held.iter().filter(|v| v.is_some()).count() as u64)
    }
}

impl<E: KvEngine> Blockstore<E> {
    /// Reads the meta, derives the ranges, then checks dead (in that order, as Agave does).
    pub(super) fn plan(
        &self,
        slot: Slot,
        start: u32,
        allow_dead: AllowDead,
    ) -> Result<Option<Plan>> {
        let Some(meta) = self.meta(slot)? else {
            return Ok(None);
        };
        self.plan_of(slot, &meta, start, allow_dead).map(Some)
    }

    /// [`Self::plan`] from a meta the caller already read.
    pub(super) fn plan_of(
        &self,
        slot: Slot,
        meta: &SlotMeta,
        start: u32,
        allow_dead: AllowDead,
    ) -> Result<Plan> {
        let ranges = ranges_of(meta, start);
        if allow_dead == AllowDead::No && self.is_dead(slot)? {
            return Err(LedgerError::DeadSlot { slot });
        }
        Ok(Plan {
            ranges,
            is_full: meta.is_full(),
            first_shred_timestamp: meta.first_shred_timestamp,
        })
    }

    /// One read of `first.start..last.end` (the store's [`ReadPath`]: one range scan or one
    /// multi-get), every range checked and deshredded into `buf` ([`RangeStream`]). Fills
    /// `buf.spans` parallel to `ranges`.
    pub(super) fn deshred_ranges(
        &self,
        slot: Slot,
        ranges: &[Range<u32>],
        buf: &mut FetchBuffer,
    ) -> Result<()> {
        let Some((start, end)) = begin_fill(slot, ranges, buf)? else {
            return Ok(());
        };
        match self.read_path() {
            ReadPath::MultiGet => {
                let pinned = self.multi_get_data_shreds(slot, start, end)?;
                fill_pinned(slot, ranges, start, &pinned, buf)
            }
            ReadPath::Scan => {
                let mut scan = self.data_shred_scan(slot, start, end);
                fill_streamed(slot, ranges, end, &mut scan, buf)
            }
        }
    }

    /// [`Self::deshred_ranges`] reading through `scan` instead of a read of its own: `ranges`
    /// (consecutive, at or after the scan's next index) are the scan's next piece.
    pub(super) fn deshred_scanned(
        &self,
        slot: Slot,
        ranges: &[Range<u32>],
        scan: &mut DataShredScan<'_, E>,
        buf: &mut FetchBuffer,
    ) -> Result<()> {
        let Some((start, end)) = begin_fill(slot, ranges, buf)? else {
            return Ok(());
        };
        // Shreds between the scan's position and the first range are not asked for.
        scan.visit_until(start, |_, _| Ok(()))?;
        fill_streamed(slot, ranges, end, scan, buf)
    }

    /// Deshreds `ranges` of `slot` into `buf` and parses each data set (no meta read).
    pub(super) fn views_of<'b>(
        &self,
        slot: Slot,
        start: u32,
        ranges: Vec<Range<u32>>,
        is_full: bool,
        buf: &'b mut FetchBuffer,
    ) -> Result<SlotViews<'b>> {
        if ranges.is_empty() {
            return Ok(SlotViews {
                sets: Vec::new(),
                num_shreds: 0,
                is_full: false,
            });
        }
        self.deshred_ranges(slot, &ranges, buf)?;
        parse_views(slot, start, ranges, is_full, buf)
    }
}

/// Parses the data sets [`Blockstore::deshred_ranges`] left in `buf` for `ranges` (the same
/// ranges, in order).
pub(super) fn parse_views(
    slot: Slot,
    start: u32,
    ranges: Vec<Range<u32>>,
    is_full: bool,
    buf: &FetchBuffer,
) -> Result<SlotViews<'_>> {
    let num_shreds = ranges.last().map_or(0, |r| u64::from(r.end - start));
    let mut sets = Vec::with_capacity(ranges.len());
    for (range, span) in ranges.into_iter().zip(&buf.spans) {
        let bytes = buf.data.get(span.clone()).unwrap_or_default();
        let (entries, marker) = match parse_data_set(bytes) {
            Ok(DataSet::Entries(view)) => (view, None),
            Ok(DataSet::Marker(marker)) => (EntriesView::empty(), Some(marker)),
            Err(e) => return Err(entries_error(slot, &range, e)),
        };
        sets.push(DataSetView {
            range,
            entries,
            marker,
        });
    }
    Ok(SlotViews {
        sets,
        num_shreds,
        is_full,
    })
}

/// The completed data sets of `meta`'s slot from `start`, as shred ranges.
pub(super) fn ranges_of(meta: &SlotMeta, start: u32) -> Vec<Range<u32>> {
    let consumed = u32::try_from(meta.consumed).unwrap_or(u32::MAX);
    completed_ranges(
        meta.completed_data_indexes.range(start, consumed),
        start,
        consumed,
    )
}

/// Empties `buf` and checks `ranges` (as [`RangeStream`] expects them); the indices they span
/// (`first.start..last.end`), `None` when there are none.
fn begin_fill(
    slot: Slot,
    ranges: &[Range<u32>],
    buf: &mut FetchBuffer,
) -> Result<Option<(u32, u32)>> {
    buf.data.clear();
    buf.spans.clear();
    check_ranges(slot, ranges)?;
    Ok(ranges
        .first()
        .zip(ranges.last())
        .map(|(f, l)| (f.start, l.end)))
}

/// [`RangeStream`] straight from `scan`, read up to `end`: each payload is checked while the
/// scan's cursor rests on it and only its data is copied, into `buf` (no copy of whole
/// payloads). `ranges` are the scan's next indices, as [`begin_fill`] checked them.
fn fill_streamed<E: KvEngine>(
    slot: Slot,
    ranges: &[Range<u32>],
    end: u32,
    scan: &mut DataShredScan<'_, E>,
    buf: &mut FetchBuffer,
) -> Result<()> {
    let mut stream = RangeStream::new(slot, ranges, buf);
    scan.visit_until(end, |index, payload| stream.take(index, payload))?;
    stream.finish()
}

/// The ranges of one fill (`ranges`, as [`begin_fill`] checked them), taking the stored
/// rows as they come in index order (a scan's, or a multi-get's present values): each row
/// of a range is checked ([`RangeCheck`]) and its data appended to `buf`, rows between the
/// ranges are passed over. The error: the first range (in order) with a defect fails, with
/// its lowest missing shred when one is missing, else with its first defect in index order
/// (what a check of the whole range read first gives).
struct RangeStream<'r, 'b> {
    slot: Slot,
    /// The ranges after the current one.
    rest: std::slice::Iter<'r, Range<u32>>,
    /// The current range; `None` once every range was filled. Invariant: its next expected
    /// index is below its end (a range is closed on its last shred).
    check: Option<RangeCheck<'r>>,
    /// Where the current range's data begins in `buf.data`.
    begin: usize,
    /// The current range's first defect: reported when the range ends whole (a missing
    /// shred of the range wins).
    defect: Option<LedgerError>,
    buf: &'b mut FetchBuffer,
}

impl<'r, 'b> RangeStream<'r, 'b> {
    fn new(slot: Slot, ranges: &'r [Range<u32>], buf: &'b mut FetchBuffer) -> Self {
        let mut rest = ranges.iter();
        let check = rest.next().map(|r| RangeCheck::new(slot, r));
        let begin = buf.data.len();
        Self {
            slot,
            rest,
            check,
            begin,
            defect: None,
            buf,
        }
    }

    /// The stored shred at `index` (indices come in increasing order).
    fn take(&mut self, index: u32, payload: &[u8]) -> Result<()> {
        let Some(check) = &mut self.check else {
            return Ok(());
        };
        let expected = check.expected();
        if index < expected {
            // Between two ranges (the current one starts later).
            return Ok(());
        }
        if index > expected {
            return Err(LedgerError::MissingShred {
                slot: self.slot,
                index: ShredIndex(expected),
            });
        }
        if self.defect.is_some() {
            check.pass();
        } else {
            match check.next(payload) {
                Ok(shred) => self.buf.data.extend_from_slice(shred.data()),
                Err(e) => {
                    self.defect = Some(e);
                    check.pass();
                }
            }
        }
        if check.done() {
            if let Some(defect) = self.defect.take() {
                return Err(defect);
            }
            self.buf.spans.push(self.begin..self.buf.data.len());
            self.begin = self.buf.data.len();
            self.check = self.rest.next().map(|r| RangeCheck::new(self.slot, r));
        }
        Ok(())
    }

    /// After the scan's last row: the current range's lowest missing shred, if a range is
    /// still open.
    fn finish(self) -> Result<()> {
        match self.check {
            Some(check) => Err(LedgerError::MissingShred {
                slot: self.slot,
                index: ShredIndex(check.expected()),
            }),
            None => Ok(()),
        }
    }
}

/// [`RangeStream`] over the payloads of a multi-get that started at `first` (`None` where
/// absent), in index order.
fn fill_pinned<P: AsRef<[u8]>>(
    slot: Slot,
    ranges: &[Range<u32>],
    first: u32,
    values: &[Option<P>],
    buf: &mut FetchBuffer,
) -> Result<()> {
    let mut stream = RangeStream::new(slot, ranges, buf);
    for (index, value) in (first..).zip(values) {
        if let Some(payload) = value {
            stream.take(index, payload.as_ref())?;
        }
    }
    stream.finish()
}

impl<E: KvEngine> ViewFetch for Blockstore<E> {
    fn fetch_slot_views<'b>(
        &self,
        slot: Slot,
        start: u32,
        allow_dead: AllowDead,
        buf: &'b mut FetchBuffer,
    ) -> Result<SlotViews<'b>> {
        self.read_guarded(slot, || {
            let Some(plan) = self.plan(slot, start, allow_dead)? else {
                return Ok(SlotViews {
                    sets: Vec::new(),
                    num_shreds: 0,
                    is_full: false,
                });
            };
            self.views_of(slot, start, plan.ranges, plan.is_full, buf)
        })
    }

    fn fetch_data_block_views<'b>(
        &self,
        slot: Slot,
        range: Range<u32>,
        buf: &'b mut FetchBuffer,
    ) -> Result<SlotViews<'b>> {
        self.read_guarded(slot, || {
            let is_full = self.meta(slot)?.is_some_and(|m| m.is_full());
            let start = range.start;
            self.views_of(slot, start, vec![range], is_full, buf)
        })
    }
}

impl<E: KvEngine> EntryFetch for Blockstore<E> {
    /// Owned entries, decoded serially on the caller's thread.
    fn get_slot_entries_with_shred_info(
        &self,
        slot: Slot,
        start: u32,
        allow_dead: AllowDead,
    ) -> Result<SlotEntries> {
        self.read_guarded(slot, || self.slot_entries(slot, start, allow_dead))
    }

    /// Fetched with one multi-get; a block marker's data set has no entries.
    fn get_entries_in_data_block(&self, slot: Slot, range: Range<u32>) -> Result<Vec<Entry>> {
        self.read_guarded(slot, || {
            let mut buf = FetchBuffer::new();
            self.deshred_ranges(slot, std::slice::from_ref(&range), &mut buf)?;
            let span = buf.spans.first().cloned().unwrap_or_default();
            Ok(match decode_component(slot, &range, &buf.data[span])? {
                Component::EntryBatch(entries) => entries,
                Component::Marker(_) => Vec::new(),
            })
        })
    }
}

impl<E: KvEngine> Blockstore<E> {
    fn slot_entries(&self, slot: Slot, start: u32, allow_dead: AllowDead) -> Result<SlotEntries> {
        let Some(plan) = self.plan(slot, start, allow_dead)? else {
            return Ok(SlotEntries::default());
        };
        if plan.ranges.is_empty() {
            return Ok(SlotEntries::default());
        }
        let mut buf = FetchBuffer::new();
        self.deshred_ranges(slot, &plan.ranges, &mut buf)?;
        let mut entries = Vec::new();
        let mut markers = 0;
        for (range, span) in plan.ranges.iter().zip(&buf.spans) {
            // Markers are checked and dropped, as Agave's `get_slot_entries` drops them.
            let Component::EntryBatch(set) =
                decode_component(slot, range, &buf.data[span.clone()])?
            else {
                markers += 1;
                continue;
            };
            if entries.is_empty() {
                entries = set;
            } else {
                entries.extend(set);
            }
        }
        let num_shreds = plan.ranges.last().map_or(0, |r| u64::from(r.end - start));
        Ok(SlotEntries {
            entries,
            num_shreds,
            is_full: plan.is_full,
            markers,
        })
    }
}

/// Ranges come from the meta or from a caller (`get_entries_in_data_block`): each must be
/// non-empty, inside the slot's 32,768 indices, and after the previous one, so the one
/// multi-get stays bounded and every offset below is in range.
pub(super) fn check_ranges(slot: Slot, ranges: &[Range<u32>]) -> Result<()> {
    let mut floor = 0u32;
    for r in ranges {
        if r.start >= r.end || r.end > MAX_SHREDS_PER_SLOT || r.start < floor {
            let (start, end) = (r.start, r.end);
            return Err(LedgerError::InvalidShredData {
                slot,
                start,
                end,
                cause: DataDefect::Empty,
            });
        }
        floor = r.end;
    }
    Ok(())
}
