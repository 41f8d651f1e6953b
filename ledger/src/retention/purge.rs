//! Purging a slot range (agave-ledger-tool's `purge`, Agave 4.3+'s chaining cleanup) and
//! retention from the bottom (Agave's `--limit-ledger-size`): every slot-keyed column, the
//! purged slots' history rows ([`super::purge_history`]), the links around the range and the
//! cleaned-up mark, in one atomic write (`docs/on-disk-layout.md#purging-slots`).
//!
//! Readers never see a torn slot: the purge raises the blockstore's cleaned-up mark *before*
//! its batch is written, and every fetch checks the mark before and after it reads, so a read
//! that overlapped a purge of its slot fails with `LedgerError::SlotCleanedUp` instead of
//! returning part of the slot.

use crate::error::Result;
use crate::fetch::FetchBuffer;
use crate::store::columns::{DataShred, Meta};
use crate::store::{
    Blockstore, Chaining, Column, KvEngine, PurgeStats, SlotMeta, purged_columns, upper_key,
};
use crate::types::Slot;

impl<E: KvEngine> Blockstore<E> {
    /// Deletes every row of slots `from..=to` (inclusive, as agave-ledger-tool's `purge`) from
    /// every slot-keyed column (bstore's and Agave's other slot-keyed ones), in one atomic
    /// write, removes the purged slots from their parents' `next_slots`, keeps a placeholder
    /// meta for a purged slot whose child lies above the range (as Agave 4.3+), then compacts
    /// the range. Waits for a running insert call; fails on a store not opened read-write.
    pub fn purge_slots(&self, from: Slot, to: Slot) -> Result<PurgeStats> {
        self.purge_slots_chained(from, to, Chaining::KeepForSurvivors)
    }

    /// [`Self::purge_slots`] with the given treatment of the links around the range.
    pub(crate) fn purge_slots_chained(
        &self,
        from: Slot,
        to: Slot,
        chaining: Chaining,
    ) -> Result<PurgeStats> {
        let stats = self.delete_slot_rows(from, to, chaining)?;
        self.compact_slots(from, to)?;
        if from <= to {
            self.wake_followers(to)?;
        }
        Ok(stats)
    }

    /// [`Self::purge_slots`] without the compaction: the rows of `from..=to` are deleted in
    /// one atomic write, the parents' `next_slots` updated and (with
    /// [`Chaining::KeepForSurvivors`]) the placeholders written; the disk space comes back
    /// when the range is compacted.
    pub(crate) fn delete_slot_rows(
        &self,
        from: Slot,
        to: Slot,
        chaining: Chaining,
    ) -> Result<PurgeStats> {
        let mut stats = PurgeStats {
            from,
            to,
            ..PurgeStats::default()
        };
        if from > to {
            return Ok(stats);
        }
        let mut cache = self.lock_writer();
        // Parents below the range, and the placeholders the range keeps (slot, children
        // above the range).
        let mut parents: Vec<Slot> = Vec::new();
        // The slots of the range that have a meta, for the history purge below.
        let mut slots: Vec<Slot> = Vec::new();
        let mut placeholders: Vec<SlotMeta> = Vec::new();
        for meta in self.slot_metas(from..=to) {
            let meta = meta?;
            slots.push(meta.slot);
            stats.data_shreds += meta.received;
            if let Some(parent) = meta.parent_slot.filter(|p| *p < from)
                && !parents.contains(&parent)
            {
                parents.push(parent);
            }
            if chaining == Chaining::KeepForSurvivors && meta.next_slots.iter().any(|c| *c > to) {
                let mut kept = SlotMeta::new_orphan(meta.slot);
                kept.next_slots = meta.next_slots.into_iter().filter(|c| *c > to).collect();
                placeholders.push(kept);
            }
        }
        stats.slots_with_meta = slots.len() as u64;
        stats.placeholders_kept = placeholders.len() as u64;
        let (lower, upper) = (from.0.to_be_bytes(), upper_key(to));
        let mut batch = self.engine.batch()?;
        if self.has_history()? {
            let mut buf = FetchBuffer::default();
            for &slot in &slots {
                if !self.purge_history_rows(&mut batch, slot, &mut buf)? {
                    stats.history_unreadable += 1;
                }
            }
        }
        for parent in parents {
            if let Some(mut meta) = self.meta(parent)? {
                meta.next_slots.retain(|c| *c < from || *c > to);
                batch.put::<Meta>(parent, &meta)?;
            }
        }
        for cf in purged_columns() {
            batch.delete_range_raw(cf, &lower, &upper)?;
        }
        // After the range deletion: a batch applies in order, so the placeholders stay.
        for kept in &placeholders {
            batch.put::<Meta>(kept.slot, kept)?;
        }
        // Readers must see the mark before any row goes; a write that fails deleted nothing,
        // so the mark is taken back.
        let before = self.purged.snapshot();
        self.purged.add(from, to);
        if let Err(e) = self.engine.write(batch) {
            self.purged.restore(before);
            return Err(e);
        }
        cache.forget(from, to);
        self.tx_memo.forget(from, to);
        Ok(stats)
    }

    /// Agave's `--limit-ledger-size`: when the store holds more than `max_shreds` data
    /// shreds, purges the oldest slots (from the lowest, by their metas' `received`) until
    /// about `max_shreds` remain, never a slot above the highest root. `None` when nothing
    /// was purged.
    pub fn purge_to_limit(&self, max_shreds: u64) -> Result<Option<PurgeStats>> {
        let total = self.engine.kv().estimate_num_keys(DataShred::NAME)?;
        let (Some(excess), Some(root)) = (total.checked_sub(max_shreds), self.max_root()?) else {
            return Ok(None);
        };
        let (Some(lowest), true) = (self.lowest_slot()?, excess > 0) else {
            return Ok(None);
        };
        let mut counted = 0u64;
        let mut cutoff = None;
        for meta in self.slot_metas(lowest..=root) {
            let meta = meta?;
            counted += meta.received;
            cutoff = Some(meta.slot);
            if counted >= excess {
                break;
            }
        }
        match cutoff {
            Some(to) => self
                .purge_slots_chained(lowest, to, Chaining::Drop)
                .map(Some),
            None => Ok(None),
        }
    }
}
