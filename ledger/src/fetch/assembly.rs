//! In-memory slot assembly: data shreds grouped by slot, for deshredding shred files without
//! a store (the `bstore shreds deshred` command, and tests that compare with the store).
//!
//! Without a `SlotMeta` there is no `consumed` to trust, so a data set counts as complete
//! when its shreds are all present, its last one is data-complete, and it starts at 0 or
//! right after a present data-complete shred. With no holes this is exactly
//! `docs/fetch-pipeline.md#the-fetch-pipeline`'s rule;
//! with holes it also finds the sets after the hole, which the store-backed fetch withholds.

use std::collections::BTreeMap;
use std::ops::Range;

use crate::error::Result;
use crate::fetch::deshred;
use crate::shred::ShredRef;
use crate::types::Slot;

/// The data shreds of one slot, deduplicated (first one wins).
#[derive(Debug, Clone)]
pub struct SlotShreds<'a> {
    slot: Slot,
    shreds: BTreeMap<u32, ShredRef<'a>>,
    duplicates: usize,
}

impl<'a> SlotShreds<'a> {
    fn new(slot: Slot) -> Self {
        Self {
            slot,
            shreds: BTreeMap::new(),
            duplicates: 0,
        }
    }

    /// The slot.
    pub fn slot(&self) -> Slot {
        self.slot
    }

    /// Number of distinct data shreds held.
    pub fn len(&self) -> usize {
        self.shreds.len()
    }

    /// True when no data shred is held.
    pub fn is_empty(&self) -> bool {
        self.shreds.is_empty()
    }

    /// Data shreds that repeated an index already held.
    pub fn duplicates(&self) -> usize {
        self.duplicates
    }

    /// The parent slot, from the first held shred.
    pub fn parent_slot(&self) -> Option<Slot> {
        self.shreds.values().next().and_then(|s| s.parent_slot())
    }

    /// Index of the shred flagged last-in-slot, if held.
    pub fn last_index(&self) -> Option<u32> {
        self.shreds
            .values()
            .find(|s| s.last_in_slot())
            .map(|s| s.index().0)
    }

    /// True when the last-in-slot shred and every shred before it are held.
    pub fn is_full(&self) -> bool {
        self.last_index()
            .is_some_and(|last| usize::try_from(last).is_ok_and(|l| l + 1 == self.shreds.len()))
    }

    /// The shred at `index`, if held.
    pub fn get(&self, index: u32) -> Option<&ShredRef<'a>> {
        self.shreds.get(&index)
    }

    /// The complete data sets held, ascending (see the module docs for the rule).
    pub fn data_sets(&self) -> Vec<Range<u32>> {
        let mut out = Vec::new();
        // `start` is Some while every index from it up to the cursor is present and it is a
        // known data-set boundary.
        let mut start: Option<u32> = None;
        let mut prev: Option<(u32, bool)> = None;
        for (&index, shred) in &self.shreds {
            let contiguous = prev.is_some_and(|(p, _)| p + 1 == index);
            let boundary = index == 0 || (contiguous && prev.is_some_and(|(_, complete)| complete));
            if boundary {
                start = Some(index);
            } else if !contiguous {
                start = None;
            }
            if shred.data_complete()
                && let Some(s) = start
            {
                out.push(s..index + 1);
            }
            prev = Some((index, shred.data_complete()));
        }
        out
    }

    /// Deshreds one of the ranges returned by [`Self::data_sets`] (or any range held).
    pub fn deshred(&self, range: &Range<u32>) -> Result<Vec<u8>> {
        let payloads = self.shreds.range(range.clone()).map(|(_, s)| s.payload());
        deshred(self.slot, range, payloads)
    }
}

/// Groups the data shreds of `shreds` by slot; code shreds are skipped.
pub fn group_by_slot<'a>(
    shreds: impl IntoIterator<Item = ShredRef<'a>>,
) -> BTreeMap<Slot, SlotShreds<'a>> {
    let mut slots: BTreeMap<Slot, SlotShreds<'a>> = BTreeMap::new();
    for shred in shreds {
        if !shred.is_data() {
            continue;
        }
        let entry = slots
            .entry(shred.slot())
            .or_insert_with(|| SlotShreds::new(shred.slot()));
        match entry.shreds.entry(shred.index().0) {
            std::collections::btree_map::Entry::Vacant(v) => {
                v.insert(shred);
            }
            std::collections::btree_map::Entry::Occupied(_) => entry.duplicates += 1,
        }
    }
    slots
}
