//! A slot as Agave 4.x's `get_slot_components_with_shred_info` returns it: every completed
//! data set since a shred index, in order, as an entry batch or a typed block marker
//! (`docs/block-components.md`). One data set is one component.
//!
//! How a data set's kind is told apart is Agave's: a zero `u64` entry count is a marker,
//! anything else an entry batch; the 8-byte data set of a zero count alone is an aborted
//! block (`LedgerError::BlockAborted`); a zero count followed by bytes that are not a marker
//! is `InvalidShredData` with `DataDefect::Marker`. Whether markers are *allowed* in a slot
//! (Alpenglow active) is replay's question, not the fetch's.

use std::ops::Range;

use crate::block::{BlockMarker, UpdateParent};
use crate::entry::Entry;
use crate::error::Result;
use crate::fetch::decode::{Component, decode_component};
use crate::fetch::{AllowDead, FetchBuffer};
use crate::store::{Blockstore, KvEngine};
use crate::types::{Hash, Slot};

/// A component and the shred range it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlotComponent {
    /// Its shred range, `start..end` (end exclusive).
    pub range: Range<u32>,
    /// The component.
    pub component: Component,
}

/// The components completed since a shred index, with what Agave returns beside them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SlotComponents {
    /// Every data set completed since `start`, in order.
    pub components: Vec<SlotComponent>,
    /// `last.end - start`: how far the caller's running shred count advances.
    pub num_shreds: u64,
    /// The slot is full (and at least one data set was returned).
    pub is_full: bool,
}

impl SlotComponents {
    /// The markers, in order, with their shred ranges.
    pub fn markers(&self) -> impl Iterator<Item = (&Range<u32>, &BlockMarker)> {
        self.components.iter().filter_map(|c| match &c.component {
            Component::Marker(m) => Some((&c.range, m)),
            Component::EntryBatch(_) => None,
        })
    }

    /// The first UpdateParent of the slot and the shred range it came from: the new parent
    /// slot and block id (`getBlock` of Agave 4.4 starts there and takes its previous
    /// blockhash from that parent).
    pub fn update_parent(&self) -> Option<(&Range<u32>, &UpdateParent)> {
        self.markers()
            .find_map(|(range, m)| m.as_update_parent().map(|u| (range, u)))
    }

    /// Every entry of every batch, in order (what the entries API returns).
    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.components.iter().flat_map(|c| match &c.component {
            Component::EntryBatch(entries) => entries.as_slice(),
            Component::Marker(_) => &[],
        })
    }

    /// The hash of the last entry of the last batch (markers skipped), as Agave takes a
    /// slot's blockhash; `None` without any batch.
    pub fn last_entry_hash(&self) -> Option<Hash> {
        self.components
            .iter()
            .rev()
            .find_map(|c| match &c.component {
                Component::EntryBatch(entries) => entries.last().map(|e| e.hash),
                Component::Marker(_) => None,
            })
    }
}

/// Reading a slot as components.
pub trait ComponentFetch {
    /// Agave's `get_slot_components_with_shred_info`: the components completed since
    /// `start`, the shred count, and whether the slot is full. The first bad data set fails
    /// the whole call.
    fn get_slot_components_with_shred_info(
        &self,
        slot: Slot,
        start: u32,
        allow_dead: AllowDead,
    ) -> Result<SlotComponents>;
}

impl<E: KvEngine> ComponentFetch for Blockstore<E> {
    fn get_slot_components_with_shred_info(
        &self,
        slot: Slot,
        start: u32,
        allow_dead: AllowDead,
    ) -> Result<SlotComponents> {
        self.read_guarded(slot, || {
            let Some(plan) = self.plan(slot, start, allow_dead)? else {
                return Ok(SlotComponents::default());
            };
            if plan.ranges.is_empty() {
                return Ok(SlotComponents::default());
            }
            let mut buf = FetchBuffer::new();
            self.deshred_ranges(slot, &plan.ranges, &mut buf)?;
            let mut components = Vec::with_capacity(plan.ranges.len());
            for (range, span) in plan.ranges.iter().zip(&buf.spans) {
                let bytes = buf.data.get(span.clone()).unwrap_or_default();
                components.push(SlotComponent {
                    range: range.clone(),
                    component: decode_component(slot, range, bytes)?,
                });
            }
            let num_shreds = plan.ranges.last().map_or(0, |r| u64::from(r.end - start));
            Ok(SlotComponents {
                components,
                num_shreds,
                is_full: plan.is_full,
            })
        })
    }
}
