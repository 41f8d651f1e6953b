//! Retention (`docs/on-disk-layout.md#purging-slots`): purge a slot range from every
//! slot-keyed column (bstore's and Agave's `bank_hashes`, `optimistic_slots`,
//! `perf_samples`, `rewards`) and the purged slots' rows of the signature-keyed history
//! columns (`purge_history.rs`) in one atomic write, then compact it so the disk space comes
//! back; and Agave's
//! `--limit-ledger-size`: keep about the newest N data shreds, purging the oldest slots, never
//! past the highest root.
//!
//! Readers never see a torn slot: the purge raises the blockstore's cleaned-up mark *before*
//! its batch is written, and every fetch checks the mark before and after it reads, so a read
//! that overlapped a purge of its slot fails with `LedgerError::SlotCleanedUp` instead of
//! returning part of the slot.

use std::sync::RwLock;
use std::sync::atomic::{AtomicBool, Ordering};

use super::Column;
use super::blockstore::Blockstore;
use super::columns::{self, DataShred, Meta};
use super::kv::{Direction, KvEngine};
use super::slot_meta::SlotMeta;
use crate::error::{LedgerError, Result};
use crate::types::Slot;

/// What a purge removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PurgeStats {
    /// First slot of the purged range (inclusive).
    pub from: Slot,
    /// Last slot of the purged range (inclusive).
    pub to: Slot,
    /// Slots of the range that had a meta.
    pub slots_with_meta: u64,
    /// Data shreds the purged metas counted (`received` summed).
    pub data_shreds: u64,
    /// Slots whose transactions did not read back (corrupt shreds), so their rows of the
    /// signature-keyed history columns could not be found and stay.
    pub history_unreadable: u64,
    /// Purged slots left as a placeholder meta (no parent, nothing received, only the
    /// `next_slots` above the range), because a child above the range survives.
    pub placeholders_kept: u64,
}

/// What a purge does to the links between the purged slots and the slots around them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Chaining {
    /// Agave 4.3+'s `purge_slots_cleanup_chaining` (agave-ledger-tool's `purge`): surviving
    /// parents below the range forget every child in the range, and a purged slot with a
    /// child above the range keeps a placeholder meta holding only those children, so the
    /// link comes back when the slot is inserted again.
    KeepForSurvivors,
    /// Retention from the bottom (Agave's cleanup service, `purge_slots` without chaining
    /// cleanup): surviving parents forget their purged children, nothing of the range stays.
    Drop,
}

/// Slot ranges purged by this process (inclusive, disjoint, ascending, adjacent ones
/// merged: retention purges from the bottom keep it one range). Only a purge whose write
/// failed takes its range back.
#[derive(Debug, Default)]
pub(crate) struct PurgedRanges {
    /// Whether any purge ran: readers skip the lock until one did.
    any: AtomicBool,
    ranges: RwLock<Vec<(u64, u64)>>,
}

impl PurgedRanges {
    fn add(&self, from: Slot, to: Slot) {
        let mut ranges = self.ranges.write().unwrap_or_else(|p| p.into_inner());
        ranges.push((from.0, to.0));
        ranges.sort_unstable();
        let mut merged: Vec<(u64, u64)> = Vec::with_capacity(ranges.len());
        for &(a, b) in ranges.iter() {
            match merged.last_mut() {
                Some(last) if a <= last.1.saturating_add(1) => last.1 = last.1.max(b),
                _ => merged.push((a, b)),
            }
        }
        *ranges = merged;
        self.any.store(true, Ordering::Release);
    }

    fn snapshot(&self) -> Vec<(u64, u64)> {
        self.ranges
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Puts back a [`Self::snapshot`] (a purge whose write failed).
    fn restore(&self, ranges: Vec<(u64, u64)>) {
        *self.ranges.write().unwrap_or_else(|p| p.into_inner()) = ranges;
    }

    fn contains(&self, slot: Slot) -> bool {
        if !self.any.load(Ordering::Acquire) {
            return false;
        }
        let ranges = self.ranges.read().unwrap_or_else(|p| p.into_inner());
        ranges.iter().any(|&(a, b)| (a..=b).contains(&slot.0))
    }

    fn highest(&self) -> Option<Slot> {
        let ranges = self.ranges.read().unwrap_or_else(|p| p.into_inner());
        ranges.last().map(|&(_, b)| Slot(b))
    }
}

/// Every column a purge deletes a slot range from: every family keyed by slot first.
pub(crate) fn purged_columns() -> impl Iterator<Item = &'static str> {
    columns::slot_keyed()
}

/// The exclusive upper key bound of slots `..=to` in every column: all keys start with the
/// slot, big-endian.
fn upper_key(to: Slot) -> Vec<u8> {
    match to.0.checked_add(1) {
        Some(next) => next.to_be_bytes().to_vec(),
        // Past every key of slot u64::MAX (keys are at most 48 bytes: `alt_data_shred`).
        None => vec![0xFF; 49],
    }
}

/// A key at or above every key of slot `to` and below every key of `to + 1`, for bounds
/// compared inclusively: the slot, then more 0xFF bytes than any key has after its slot.
/// (RocksDB's whole-file deletion is its only user.)
#[cfg(feature = "storage")]
pub(crate) fn last_key(to: Slot) -> Vec<u8> {
    let mut key = to.0.to_be_bytes().to_vec();
    key.extend_from_slice(&[0xFF; 48]);
    key
}

impl<E: KvEngine> Blockstore<E> {
    /// The highest slot this process purged, if any.
    pub fn purged_to(&self) -> Option<Slot> {
        self.purged.highest()
    }

    /// `Err(SlotCleanedUp)` when this process purged `slot`.
    pub(crate) fn check_not_cleaned_up(&self, slot: Slot) -> Result<()> {
        match self.purged.contains(slot) {
            true => Err(LedgerError::SlotCleanedUp { slot }),
            false => Ok(()),
        }
    }

    /// Runs a read of `slot` between two checks of the cleaned-up mark. A read that failed
    /// because its slot vanished under it (a purge by another process, seen through a
    /// secondary) is `SlotCleanedUp` as well.
    pub(crate) fn read_guarded<T>(
        &self,
        slot: Slot,
        read: impl FnOnce() -> Result<T>,
    ) -> Result<T> {
        self.check_not_cleaned_up(slot)?;
        let result = read();
        self.check_not_cleaned_up(slot)?;
        match result {
            Err(e)
                if !matches!(
                    e,
                    LedgerError::DeadSlot { .. } | LedgerError::Storage { .. }
                ) =>
            {
                match self.meta(slot)? {
                    None => Err(LedgerError::SlotCleanedUp { slot }),
                    Some(_) => Err(e),
                }
            }
            other => other,
        }
    }

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
        Ok(stats)
    }

    /// Compacts slots `from..=to` of every purged column, so the rows a purge deleted leave
    /// the disk.
    pub(crate) fn compact_slots(&self, from: Slot, to: Slot) -> Result<()> {
        if from > to {
            return Ok(());
        }
        let (lower, upper) = (from.0.to_be_bytes(), upper_key(to));
        for cf in purged_columns() {
            self.engine.kv().compact_range(cf, &lower, &upper)?;
        }
        Ok(())
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
        let mut placeholders: Vec<SlotMeta> = Vec::new();
        for meta in self.slot_metas(from..=to) {
            let meta = meta?;
            stats.slots_with_meta += 1;
            stats.data_shreds += meta.received;
            if let Some(parent) = meta.parent_slot.filter(|p| *p < from)
                && !parents.contains(&parent)
            {
                parents.push(parent);
            }
            let above: Vec<Slot> = meta
                .next_slots
                .iter()
                .copied()
                .filter(|c| *c > to)
                .collect();
            if chaining == Chaining::KeepForSurvivors && !above.is_empty() {
                let mut kept = SlotMeta::new_orphan(meta.slot);
                kept.next_slots = above;
                placeholders.push(kept);
            }
        }
        stats.placeholders_kept = placeholders.len() as u64;
        let (lower, upper) = (from.0.to_be_bytes(), upper_key(to));
        let mut batch = self.engine.batch()?;
        if self.has_history()? {
            let mut buf = crate::fetch::FetchBuffer::default();
            for slot in self.slot_metas(from..=to) {
                if !self.purge_history_rows(&mut batch, slot?.slot, &mut buf)? {
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
        Ok(stats)
    }

    /// The lowest slot with a meta.
    pub fn lowest_slot(&self) -> Result<Option<Slot>> {
        let lower = Meta::encode_key(Slot(0));
        self.engine
            .range::<Meta, Slot>(lower, None, Direction::Forward, |k, _| Meta::decode_key(k))
            .next()
            .transpose()
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
