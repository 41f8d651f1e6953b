//! Slot chaining during an insert call: parents learn their children (`next_slots`, with a
//! placeholder meta for a parent not seen yet) and connected flags spread down the chain.
//!
//! A slot is *connected* when it is full and its parent is connected; slot 0 starts
//! parent-connected. When a slot becomes connected, each child becomes parent-connected,
//! and connected too if it is already full, and so on down. Roots (`set_roots`) do not set
//! connected flags: a ledger that starts at a snapshot slot other than 0 has no connected
//! slots unless its first slot's meta is marked by other means.

use std::collections::{BTreeMap, VecDeque};

use super::kv::KvEngine;
use super::slot_meta::SlotMeta;
use super::slot_work::{SlotWork, slot_work};
use super::typed::Engine;
use crate::error::Result;
use crate::types::Slot;

/// Adds every slot whose parent this call set to its parent's `next_slots`, creating the
/// parent's placeholder meta when missing, and inherits the parent's connectedness.
pub(super) fn link_parents<E: KvEngine>(
    slots: &mut BTreeMap<Slot, SlotWork>,
    engine: &Engine<E>,
) -> Result<()> {
    let links: Vec<(Slot, Slot)> = slots
        .iter()
        .filter(|(_, w)| w.new_parent)
        .filter_map(|(&child, w)| Some((child, w.meta.as_ref()?.parent_slot?)))
        .collect();
    for (child, parent) in links {
        // The child has its parent now: if it was a placeholder, it is no orphan any more.
        slot_work(slots, engine, child)?.orphan = Some(false);
        let pw = slot_work(slots, engine, parent)?;
        let pmeta = pw.meta.get_or_insert_with(|| SlotMeta::new_orphan(parent));
        if pmeta.parent_slot.is_none() {
            pw.orphan = Some(true);
        }
        if !pmeta.next_slots.contains(&child) {
            pmeta.next_slots.push(child);
            pw.dirty = true;
        }
        if pmeta.is_connected() {
            let cw = slot_work(slots, engine, child)?;
            if let Some(cmeta) = cw.meta.as_mut() {
                cmeta.connected_flags |= SlotMeta::PARENT_CONNECTED;
                cw.dirty = true;
            }
        }
    }
    Ok(())
}

/// Marks connected every full, parent-connected slot of the call, and spreads the flags to
/// descendants (loading their metas as needed). Terminates on any `next_slots` graph: a
/// slot is expanded only when it turns connected, which happens once.
pub(super) fn propagate_connected<E: KvEngine>(
    slots: &mut BTreeMap<Slot, SlotWork>,
    engine: &Engine<E>,
) -> Result<()> {
    let ready = |m: &SlotMeta| m.is_full() && m.is_parent_connected() && !m.is_connected();
    let mut queue: VecDeque<Slot> = slots
        .iter()
        .filter(|(_, w)| w.meta.as_ref().is_some_and(ready))
        .map(|(&slot, _)| slot)
        .collect();
    while let Some(slot) = queue.pop_front() {
        let w = slot_work(slots, engine, slot)?;
        let Some(meta) = w.meta.as_mut().filter(|m| ready(m)) else {
            continue;
        };
        meta.connected_flags |= SlotMeta::CONNECTED;
        w.dirty = true;
        let children = meta.next_slots.clone();
        for child in children {
            let cw = slot_work(slots, engine, child)?;
            if let Some(cmeta) = cw.meta.as_mut() {
                if !cmeta.is_parent_connected() {
                    cmeta.connected_flags |= SlotMeta::PARENT_CONNECTED;
                    cw.dirty = true;
                }
                queue.push_back(child);
            }
        }
    }
    Ok(())
}
