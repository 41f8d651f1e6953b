//! One slot's state during an insert call (`insert/`), shared with the slot chaining
//! that runs at the call's end (`chain.rs`): the meta as it will be written and what the
//! call changed.

use std::collections::BTreeMap;
use std::collections::btree_map::Entry;

use super::columns::Meta;
use super::index_set::ShredIndexSet;
use super::kv::KvEngine;
use super::slot_meta::SlotMeta;
use super::typed::Engine;
use crate::error::Result;
use crate::types::Slot;

/// One slot's state during a call.
#[derive(Debug)]
pub(super) struct SlotWork {
    /// The meta as it will be written; `None` while the slot has none.
    pub(super) meta: Option<SlotMeta>,
    /// The stored meta was full before this call.
    pub(super) was_full: bool,
    /// `meta` must be written.
    pub(super) dirty: bool,
    /// The parent was set by this call: link the slot into its parent's `next_slots`.
    pub(super) new_parent: bool,
    pub(super) data: Option<ShredIndexSet>,
    pub(super) code: Option<ShredIndexSet>,
    pub(super) new_data: Vec<u32>,
    /// A shred of the slot was stored: its `index` row must be written.
    pub(super) stored_any: bool,
    /// `Some(true)`: the slot became an orphan (a placeholder parent), `Some(false)`: it
    /// stopped being one (it learned its parent); written to `orphans` as Agave does.
    pub(super) orphan: Option<bool>,
}

impl SlotWork {
    /// `consumed` counting the data shreds stored so far in this call (`finish` writes it);
    /// `None` while the slot has no meta or its data shreds are not loaded.
    pub(super) fn consumed_now(&self) -> Option<u64> {
        let (meta, present) = (self.meta.as_ref()?, self.data.as_ref()?);
        let consumed = u32::try_from(meta.consumed).unwrap_or(u32::MAX);
        Some(u64::from(present.first_absent_from(consumed)).max(meta.consumed))
    }

    /// Loads the slot's stored meta.
    pub(super) fn load<E: KvEngine>(engine: &Engine<E>, slot: Slot) -> Result<Self> {
        let meta = engine.get::<Meta>(slot)?;
        Ok(Self {
            was_full: meta.as_ref().is_some_and(SlotMeta::is_full),
            meta,
            dirty: false,
            new_parent: false,
            data: None,
            code: None,
            new_data: Vec::new(),
            stored_any: false,
            orphan: None,
        })
    }
}

/// The call's state of `slot`, loading its stored meta on first touch.
pub(super) fn slot_work<'m, E: KvEngine>(
    slots: &'m mut BTreeMap<Slot, SlotWork>,
    engine: &Engine<E>,
    slot: Slot,
) -> Result<&'m mut SlotWork> {
    Ok(match slots.entry(slot) {
        Entry::Occupied(e) => e.into_mut(),
        Entry::Vacant(e) => e.insert(SlotWork::load(engine, slot)?),
    })
}
