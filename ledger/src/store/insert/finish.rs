//! The end of an insert: `consumed`, completed data sets, full slots, chaining, and every
//! changed meta, index, set and dead-slot row into the call's batch.

use super::{CompletedDataSet, InsertOutcome, Work};
use crate::error::Result;
use crate::store::agave_meta::SlotIndex;
use crate::store::chain;
use crate::store::columns::{
    DeadSlots, ErasureMetaColumn, Index, MerkleRootMetaColumn, Meta, Orphans,
};
use crate::store::data_sets::newly_completed;
use crate::store::kv::KvEngine;
use crate::store::presence::ShredColumn;

impl<E: KvEngine> Work<'_, '_, '_, E> {
    /// Advances `consumed`, finds completed data sets and full slots, chains parents and
    /// connected flags, and puts every changed meta into the batch.
    pub(super) fn finish(&mut self, outcome: &mut InsertOutcome) -> Result<()> {
        for (&slot, w) in &mut self.slots {
            if w.new_data.is_empty() {
                continue;
            }
            let Some(consumed) = w.consumed_now() else {
                continue;
            };
            let (Some(meta), Some(present)) = (w.meta.as_mut(), w.data.as_ref()) else {
                continue;
            };
            meta.consumed = consumed;
            for (start, end) in newly_completed(present, &meta.completed_data_indexes, &w.new_data)
            {
                outcome
                    .completed_data_sets
                    .push(CompletedDataSet { slot, start, end });
            }
            if !w.was_full && meta.is_full() {
                outcome.slots_full.push(slot);
            }
        }
        chain::link_parents(&mut self.slots, self.engine)?;
        chain::propagate_connected(&mut self.slots, self.engine)?;
        for (&slot, w) in &mut self.slots {
            if let (true, Some(meta)) = (w.dirty, w.meta.as_ref()) {
                self.batch.put::<Meta>(slot, meta)?;
            }
            match w.orphan {
                Some(true) => self.batch.put::<Orphans>(slot, &true)?,
                Some(false) => self.batch.delete::<Orphans>(slot)?,
                None => {}
            }
            if w.stored_any {
                let (engine, cache) = (self.engine, self.cache);
                if w.data.is_none() {
                    w.data = Some(cache.load(engine, slot, ShredColumn::Data, w.meta.as_ref())?);
                }
                if w.code.is_none() {
                    w.code = Some(cache.load(engine, slot, ShredColumn::Code, None)?);
                }
                if let (Some(data), Some(code)) = (&w.data, &w.code) {
                    let row = SlotIndex::encode_sets(slot, data, code);
                    self.batch.put_bytes::<Index>(slot, &row)?;
                }
            }
        }
        for (&key, set) in &self.sets.sets {
            if let (true, Some(erasure)) = (set.erasure_new, set.erasure.as_ref()) {
                self.batch.put::<ErasureMetaColumn>(key, erasure)?;
            }
            if let (true, Some(merkle)) = (set.merkle_new, set.merkle.as_ref()) {
                self.batch.put::<MerkleRootMetaColumn>(key, merkle)?;
            }
        }
        let dups = std::mem::take(&mut self.dups);
        outcome.duplicate_slots = dups.write(&mut self.batch)?;
        for &slot in &self.dead {
            self.batch.put::<DeadSlots>(slot, &true)?;
        }
        outcome.slots_marked_dead = self.dead.iter().copied().collect();
        Ok(())
    }
}
