//! The writer's cache of which shred indices each recent slot holds.
//!
//! Insertion needs presence for three checks: duplicates, advancing `consumed`, and whether a
//! data set just completed. Instead of Agave's `index` column, presence is derived from the
//! shred keys: on a slot's first touch, data presence is `0..consumed` plus a key scan of
//! `consumed..received`; code presence is a key scan of the slot. The sets are then kept
//! here and updated only after a write batch committed, so the cache never runs ahead of
//! the database. Bounded: past `MAX_SLOTS` the lowest slots are dropped (and rebuilt from
//! the database if touched again).

use std::collections::BTreeMap;

use super::column::Column;
use super::columns::{CodeShred, DataShred, shred_key};
use super::index_set::ShredIndexSet;
use super::kv::{Direction, KvEngine};
use super::slot_meta::SlotMeta;
use super::typed::Engine;
use crate::error::Result;
use crate::types::{Hash, ShredIndex, Slot};

/// Slots kept (each up to 2 × 4 KiB of presence plus 32 bytes per FEC set root).
const MAX_SLOTS: usize = 512;

/// Which kind of shred a presence set is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ShredColumn {
    Data,
    Code,
}

#[derive(Debug, Default)]
struct SlotPresence {
    data: Option<ShredIndexSet>,
    code: Option<ShredIndexSet>,
    /// Merkle roots of the slot's FEC sets, by `fec_set_index`, as accepted by insert.
    roots: BTreeMap<u32, Hash>,
}

/// Presence sets of recently written slots. Owned by the writer mutex.
#[derive(Debug, Default)]
pub(crate) struct PresenceCache {
    slots: BTreeMap<Slot, SlotPresence>,
}

impl PresenceCache {
    /// Forgets everything (after a writer panicked mid-call).
    pub(crate) fn clear(&mut self) {
        self.slots.clear();
    }

    /// A copy of the slot's presence set for `column`, from the cache or built from the
    /// database. `meta` is the slot's stored meta (data presence is built from it).
    pub(crate) fn load<E: KvEngine>(
        &self,
        engine: &Engine<E>,
        slot: Slot,
        column: ShredColumn,
        meta: Option<&SlotMeta>,
    ) -> Result<ShredIndexSet> {
        let cached = self.slots.get(&slot).and_then(|p| match column {
            ShredColumn::Data => p.data.as_ref(),
            ShredColumn::Code => p.code.as_ref(),
        });
        if let Some(set) = cached {
            return Ok(set.clone());
        }
        match column {
            ShredColumn::Data => {
                // Meta and shreds are written in one batch, so no meta means no shreds, and
                // `0..consumed` are present by definition.
                let Some(meta) = meta else {
                    return Ok(ShredIndexSet::new());
                };
                let consumed = clamp_index(meta.consumed);
                let mut set = ShredIndexSet::with_prefix(consumed);
                if meta.received > meta.consumed {
                    scan::<E, DataShred>(engine, slot, consumed, &mut set)?;
                }
                Ok(set)
            }
            ShredColumn::Code => {
                let mut set = ShredIndexSet::new();
                scan::<E, CodeShred>(engine, slot, 0, &mut set)?;
                Ok(set)
            }
        }
    }

    /// The root insert accepted for set `fec` of `slot`, when still cached.
    pub(crate) fn root(&self, slot: Slot, fec: u32) -> Option<Hash> {
        self.slots.get(&slot)?.roots.get(&fec).copied()
    }

    /// Records a root of a committed write.
    pub(crate) fn store_root(&mut self, slot: Slot, fec: u32, root: Hash) {
        self.slots.entry(slot).or_default().roots.insert(fec, root);
        self.evict();
    }

    /// Records the sets of a committed write.
    pub(crate) fn store(&mut self, slot: Slot, column: ShredColumn, set: ShredIndexSet) {
        let entry = self.slots.entry(slot).or_default();
        match column {
            ShredColumn::Data => entry.data = Some(set),
            ShredColumn::Code => entry.code = Some(set),
        }
        self.evict();
    }

    /// Forgets the slots `from..=to` (they were purged).
    pub(crate) fn forget(&mut self, from: Slot, to: Slot) {
        self.slots.retain(|slot, _| *slot < from || *slot > to);
    }

    fn evict(&mut self) {
        while self.slots.len() > MAX_SLOTS {
            self.slots.pop_first();
        }
    }
}

fn clamp_index(v: u64) -> u32 {
    u32::try_from(v)
        .unwrap_or(u32::MAX)
        .min(ShredIndexSet::CAPACITY)
}

fn decode_index<C: Column<Key = (Slot, ShredIndex)>>(key: &[u8], _value: &[u8]) -> Result<u32> {
    C::decode_key(key).map(|(_, index)| index.0)
}

/// Adds the indices `≥ from` of `slot` stored in column `C` to `set`.
fn scan<E: KvEngine, C: Column<Key = (Slot, ShredIndex), KeyBytes = [u8; 16]>>(
    engine: &Engine<E>,
    slot: Slot,
    from: u32,
    set: &mut ShredIndexSet,
) -> Result<()> {
    let lower = shred_key(slot, ShredIndex(from));
    let upper = slot
        .0
        .checked_add(1)
        .map(|s| shred_key(Slot(s), ShredIndex(0)));
    for index in engine.range::<C, u32>(lower, upper, Direction::Forward, decode_index::<C>) {
        set.insert(index?);
    }
    Ok(())
}
