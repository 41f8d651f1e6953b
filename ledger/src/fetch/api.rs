//! The fetch side of the blockstore as small traits, one per concern (reth's `storage-api`
//! is the model), so a consumer names only what it reads and another store (an archive
//! tier, a test double) can offer the same reads:
//!
//! - [`ShredRanges`]: which shred ranges of a slot are complete, and how many shreds it holds.
//! - [`ViewFetch`]: completed data sets as zero-copy views over a caller's buffer (replay,
//!   the completed-data-sets service, RPC).
//! - [`EntryFetch`]: the same as owned entries, as Agave's getters return them.
//!
//! `Blockstore<E>` implements all three over any engine (`store_fetch.rs`); each fetch is
//! one read of every shred of every range and decodes on the caller's thread. The types the
//! traits take and return ([`AllowDead`], [`FetchBuffer`], [`SlotViews`]) are here too.

use std::ops::Range;

use crate::block::BlockMarker;
use crate::entry::{EntriesView, Entry};
use crate::error::Result;
use crate::types::{Hash, Slot};

/// Whether a fetch may read a slot marked dead (RPC and replay refuse; tools may not).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AllowDead {
    /// Read dead slots too.
    Yes,
    /// A dead slot is `LedgerError::DeadSlot`.
    No,
}

/// A reusable buffer for view fetches: callers that fetch repeatedly (replay) keep one and
/// reach a steady state with no allocation per call.
#[derive(Debug, Default)]
pub struct FetchBuffer {
    pub(super) data: Vec<u8>,
    /// Byte span of each data set inside `data`, parallel to the fetched ranges.
    pub(super) spans: Vec<Range<usize>>,
}

impl FetchBuffer {
    /// An empty buffer.
    pub fn new() -> Self {
        Self::default()
    }

    /// Bytes currently reserved (for memory accounting).
    pub fn capacity(&self) -> usize {
        self.data.capacity()
    }
}

/// One completed data set of a view fetch: an entry batch, or (in an Alpenglow slot) a
/// block marker, whose `entries` are then empty (`docs/block-components.md`).
#[derive(Debug)]
pub struct DataSetView<'b> {
    /// Its shred range, `start..end` (end exclusive).
    pub range: Range<u32>,
    /// Its entries, borrowed from the caller's [`FetchBuffer`]; empty for a marker.
    pub entries: EntriesView<'b>,
    /// The block marker this data set is, if it is one.
    pub marker: Option<BlockMarker>,
}

/// The result of a view fetch.
#[derive(Debug)]
pub struct SlotViews<'b> {
    /// Every data set that completed since `start`, in order.
    pub sets: Vec<DataSetView<'b>>,
    /// `last.end - start`: how far the caller's running shred count advances.
    pub num_shreds: u64,
    /// The slot is full (every shred up to the last-in-slot one is present).
    pub is_full: bool,
}

impl SlotViews<'_> {
    /// Number of entries over all sets.
    pub fn num_entries(&self) -> usize {
        self.sets.iter().map(|s| s.entries.len()).sum()
    }
}

/// Entries completed since a shred index, with what Agave's
/// `get_slot_entries_with_shred_info` returns beside them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SlotEntries {
    /// Entries of every data set completed since `start`, in order.
    pub entries: Vec<Entry>,
    /// `last.end - start`: how far the caller's running shred count advances (0 when no
    /// data set completed).
    pub num_shreds: u64,
    /// The slot is full (and at least one data set was returned).
    pub is_full: bool,
    /// Block markers among the data sets (checked, then dropped from `entries` as Agave
    /// drops them; `docs/block-components.md`): lets replay notice them without a second
    /// fetch.
    pub markers: usize,
}

/// Which shred ranges of a slot a fetch would read.
pub trait ShredRanges {
    /// The completed ranges of `slot` from `start`; empty when the slot has no meta.
    fn completed_ranges(&self, slot: Slot, start: u32) -> Result<Vec<Range<u32>>>;

    /// Number of data shreds of `slot` held in the store (one multi-get over `0..received`).
    fn data_shred_count(&self, slot: Slot) -> Result<u64>;
}

/// Completed data sets as zero-copy views over a caller's [`FetchBuffer`].
pub trait ViewFetch {
    /// The data sets completed since `start`.
    fn fetch_slot_views<'b>(
        &self,
        slot: Slot,
        start: u32,
        allow_dead: AllowDead,
        buf: &'b mut FetchBuffer,
    ) -> Result<SlotViews<'b>>;

    /// One data set, `range` (as the completed-data-sets service fetches it).
    fn fetch_data_block_views<'b>(
        &self,
        slot: Slot,
        range: Range<u32>,
        buf: &'b mut FetchBuffer,
    ) -> Result<SlotViews<'b>>;
}

/// Completed data sets as owned entries.
pub trait EntryFetch {
    /// Agave's fetch: the entries completed since `start`, the shred count, and whether
    /// the slot is full.
    fn get_slot_entries_with_shred_info(
        &self,
        slot: Slot,
        start: u32,
        allow_dead: AllowDead,
    ) -> Result<SlotEntries>;

    /// Entries completed since `start`; a dead slot is an error.
    fn get_slot_entries(&self, slot: Slot, start: u32) -> Result<Vec<Entry>> {
        Ok(self
            .get_slot_entries_with_shred_info(slot, start, AllowDead::No)?
            .entries)
    }

    /// The entries of one data set `range` (end exclusive).
    fn get_entries_in_data_block(&self, slot: Slot, range: Range<u32>) -> Result<Vec<Entry>>;
}

/// The hash of the last entry of `slot`'s last completed entry batch — the slot's blockhash
/// when the slot is full — reading data sets from the last one back until one holds
/// entries (one meta read, one multi-get per data set read; block markers are skipped as
/// Agave skips them, so a legacy slot costs one). `Ok(None)` when no data set of the slot
/// holds entries. The one place the "parent's last entry hash" is computed (RPC
/// `previousBlockhash`, `bstore replay` seeding a parent outside its range); callers decide
/// what a dead or partial slot means for them.
pub fn last_entry_hash<S>(store: &S, slot: Slot, buf: &mut FetchBuffer) -> Result<Option<Hash>>
where
    S: ShredRanges + ViewFetch + ?Sized,
{
    for range in store.completed_ranges(slot, 0)?.into_iter().rev() {
        let last = store.fetch_data_block_views(slot, range, buf)?.blockhash();
        if last.is_some() {
            return Ok(last);
        }
    }
    Ok(None)
}
