//! The per-shred half of an insert: a data or coding shred checked against what is stored
//! and what the call added before it, then put into the call's batch.

use super::{Verdict, Work};
use crate::FormatError;
use crate::defect::InsertDefect;
use crate::error::{LedgerError, Result};
use crate::shred::{ShredDefect, ShredKind, ShredRef};
use crate::store::agave_meta::ErasureMeta;
use crate::store::columns::{CodeShred, DataShred};
use crate::store::index_set::ShredIndexSet;
use crate::store::kv::KvEngine;
use crate::store::parent_info::{self, ParentUpdate};
use crate::store::presence::ShredColumn;
use crate::store::sets::Origin;
use crate::store::shape_rules::{self};
use crate::store::slot_meta::SlotMeta;
use crate::store::slot_work::slot_work;
use crate::types::{ShredIndex, Slot};

/// The `erasure_meta` a coding shred describes (`None` for a data shred).
fn erasure_shape(shred: &ShredRef<'_>) -> Option<ErasureMeta> {
    let index = shred.index().0;
    Some(ErasureMeta {
        fec_set_index: shred.fec_set_index(),
        // `parse` checked position ≤ index.
        first_coding_index: u64::from(index.checked_sub(u32::from(shred.position()?))?),
        first_received_coding_index: u64::from(index),
        num_data: u64::from(shred.num_data()?),
        num_coding: u64::from(shred.num_code()?),
    })
}

fn reject(slot: Slot, index: u32, defect: InsertDefect) -> Verdict {
    Verdict::Rejected(LedgerError::ShredRejected {
        slot,
        index: ShredIndex(index),
        defect,
    })
}

/// Data and coding indices share the per-slot bitmap's bound (32,768).
fn index_too_large(shred: &ShredRef<'_>) -> Option<Verdict> {
    let index = shred.index().0;
    (index >= ShredIndexSet::CAPACITY).then(|| {
        Verdict::Rejected(LedgerError::Format(FormatError::InvalidShred {
            slot: Some(shred.slot()),
            index: Some(shred.index()),
            defect: ShredDefect::IndexTooLarge(index),
        }))
    })
}

/// The `docs/on-disk-layout.md#inserting-shreds` checks of a new data shred against the slot's
/// meta.
fn check_data(
    meta: &SlotMeta,
    index: u32,
    last_in_slot: bool,
    parent: Slot,
) -> Option<InsertDefect> {
    let index = u64::from(index);
    if let Some(last_index) = meta.last_index {
        if index > last_index {
            return Some(InsertDefect::PastLastIndex { last_index });
        }
        if last_in_slot && index != last_index {
            return Some(InsertDefect::SecondLastInSlot { last_index });
        }
    }
    if last_in_slot && meta.received > index + 1 {
        return Some(InsertDefect::LastInSlotBelowReceived {
            received: meta.received,
        });
    }
    match meta.parent_slot {
        // After an UpdateParent the meta holds the marker's parent, which is at or below the
        // shred header's (`parent_info::ParentInfo::validate`): shreds keep the header's.
        Some(expected) if meta.replay_fec_set_index > 0 && parent >= expected => None,
        Some(expected) if expected != parent => Some(InsertDefect::ParentMismatch {
            expected,
            found: parent,
        }),
        _ => None,
    }
}

impl<E: KvEngine> Work<'_, '_, '_, E> {
    pub(in crate::store) fn add_data(
        &mut self,
        shred: &ShredRef<'_>,
        origin: Origin,
    ) -> Result<Verdict> {
        let (slot, index) = (shred.slot(), shred.index().0);
        let Some(parent) = shred.parent_slot() else {
            // `parse` guarantees a data shred's parent; kept as an error, not a panic.
            return Ok(Verdict::Rejected(LedgerError::Format(
                FormatError::InvalidShred {
                    slot: Some(slot),
                    index: Some(shred.index()),
                    defect: ShredDefect::WrongKind { expected: "data" },
                },
            )));
        };
        if let Some(defect) = shape_rules::check(shred, self.options.shape) {
            return Ok(reject(slot, index, defect));
        }
        let (engine, cache, now_ms) = (self.engine, self.cache, self.now_ms);
        let w = slot_work(&mut self.slots, engine, slot)?;
        if w.data.is_none() {
            w.data = Some(cache.load(engine, slot, ShredColumn::Data, w.meta.as_ref())?);
        }
        let present = w.data.get_or_insert_with(ShredIndexSet::new);
        if present.contains(index) {
            return self.occupied(shred);
        }
        if let Some(rejected) = index_too_large(shred) {
            return Ok(rejected);
        }
        let set_root = self
            .sets
            .load(engine, (slot, shred.fec_set_index()))?
            .merkle;
        let known = || {
            cache
                .root(slot, shred.fec_set_index())
                .or(set_root.and_then(|m| m.merkle_root))
        };
        let root = match self
            .roots
            .check(shred, &self.options, known, engine, present)?
        {
            Ok(root) => root,
            Err(e) => return self.refused(shred, e),
        };
        let meta = w.meta.get_or_insert_with(|| SlotMeta::new(slot, None));
        if let Some(defect) = check_data(meta, index, shred.last_in_slot(), parent) {
            return Ok(reject(slot, index, defect));
        }
        let (sets, inputs) = (&self.sets, self.inputs);
        let neighbour = |i| sets.payload(engine, inputs, slot, ShredKind::Data, i);
        let max_root = || parent_info::max_root(engine);
        let marker_parent =
            match parent_info::parent_update(shred, parent, meta, max_root, neighbour)? {
                ParentUpdate::Keep => None,
                ParentUpdate::Set(info) => Some(info),
                ParentUpdate::Conflict(defect) => {
                    // As Agave 4.4: the dead flag is written, the shred dropped, the call goes on.
                    self.dead.insert(slot);
                    return Ok(reject(slot, index, InsertDefect::ParentInfo(defect)));
                }
            };
        self.batch
            .put_bytes::<DataShred>((slot, shred.index()), shred.payload())?;
        self.roots.accept(shred, root);
        present.insert(index);
        w.new_data.push(index);
        w.dirty = true;
        w.stored_any = true;
        if meta.parent_slot.is_none() {
            meta.parent_slot = Some(parent);
            w.new_parent = parent != slot;
        }
        if let Some(info) = marker_parent {
            info.apply(meta);
        }
        if meta.first_shred_timestamp == 0 {
            meta.first_shred_timestamp = now_ms;
        }
        meta.received = meta.received.max(u64::from(index) + 1);
        if shred.last_in_slot() {
            meta.last_index = Some(u64::from(index));
        }
        if shred.data_complete() {
            meta.completed_data_indexes.insert(index);
        }
        self.sets.stored(engine, shred, origin, root)?;
        Ok(Verdict::Inserted)
    }

    pub(super) fn add_code(&mut self, shred: &ShredRef<'_>, origin: Origin) -> Result<Verdict> {
        let (slot, index) = (shred.slot(), shred.index().0);
        if let Some(defect) = shape_rules::check(shred, self.options.shape) {
            return Ok(reject(slot, index, defect));
        }
        let (engine, cache) = (self.engine, self.cache);
        let w = slot_work(&mut self.slots, engine, slot)?;
        if w.code.is_none() {
            w.code = Some(cache.load(engine, slot, ShredColumn::Code, None)?);
        }
        if w.code.as_ref().is_some_and(|p| p.contains(index)) {
            return self.occupied(shred);
        }
        if let Some(rejected) = index_too_large(shred) {
            return Ok(rejected);
        }
        if w.data.is_none() {
            w.data = Some(cache.load(engine, slot, ShredColumn::Data, w.meta.as_ref())?);
        }
        let data_present = w.data.get_or_insert_with(ShredIndexSet::new);
        let key = (slot, shred.fec_set_index());
        let set = self.sets.load(engine, key)?;
        let set_root = set.merkle.and_then(|m| m.merkle_root);
        let known = || cache.root(slot, shred.fec_set_index()).or(set_root);
        let root = match self
            .roots
            .check(shred, &self.options, known, engine, data_present)?
        {
            Ok(root) => root,
            Err(e) => return self.refused(shred, e),
        };
        let Some(shape) = erasure_shape(shred) else {
            return Ok(Verdict::Rejected(LedgerError::Format(
                FormatError::InvalidShred {
                    slot: Some(slot),
                    index: Some(shred.index()),
                    defect: ShredDefect::WrongKind { expected: "code" },
                },
            )));
        };
        if let Some(refused) = self.check_erasure(shred, key, shape)? {
            return Ok(refused);
        }
        self.batch
            .put_bytes::<CodeShred>((slot, shred.index()), shred.payload())?;
        self.roots.accept(shred, root);
        if let Some(w) = self.slots.get_mut(&slot) {
            w.code.get_or_insert_with(ShredIndexSet::new).insert(index);
            w.stored_any = true;
        }
        self.sets.stored(engine, shred, origin, root)?;
        Ok(Verdict::Inserted)
    }
}
