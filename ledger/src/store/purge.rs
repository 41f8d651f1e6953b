//! The store's side of a purge (`docs/on-disk-layout.md#purging-slots`): what a purge
//! reports, which columns it deletes a slot range from and their key bounds, the compaction
//! that gives the space back, and the cleaned-up checks readers make. The purge itself, which
//! also reads the purged slots back to find their history rows, is `crate::retention`.

use super::Column;
use super::blockstore::Blockstore;
use super::columns::{self, Meta};
use super::kv::{Direction, KvEngine};
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

/// Every column a purge deletes a slot range from: every family keyed by slot first.
pub(crate) fn purged_columns() -> impl Iterator<Item = &'static str> {
    columns::slot_keyed()
}

/// The exclusive upper key bound of slots `..=to` in every column: all keys start with the
/// slot, big-endian.
pub(crate) fn upper_key(to: Slot) -> Vec<u8> {
    match to.0.checked_add(1) {
        Some(next) => next.to_be_bytes().to_vec(),
        // Past every key of slot u64::MAX (keys are at most 48 bytes: `alt_data_shred`).
        None => vec![0xFF; 49],
    }
}

/// A key at or above every key of slot `to` and below every key of `to + 1`, for bounds
/// compared inclusively: the slot, then more 0xFF bytes than any key has after its slot.
/// (RocksDB's whole-file deletion uses it as a bound; `wake_followers` as a key inside a
/// purged range that no row can have.)
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

    /// Ends a purge of `..=to` whose compaction flushed the memtables: one more write, a
    /// point delete in every purged column of a key inside the range that no row can have
    /// ([`last_key`]: it changes nothing, not even a placeholder meta the purge kept), so a
    /// secondary following this store lets go of what it replayed of those columns before
    /// the purge.
    ///
    /// Why: a RocksDB secondary keeps the memtable it replayed from a write-ahead log until a
    /// newer log brings a write to the same column (then it drops it, its rows being in the
    /// files). The flush makes the log holding the purge's range deletion obsolete, and the
    /// writer may delete it before the secondary's next catch-up reads it; the secondary then
    /// never sees the deletion, and its old memtable goes on answering the purged rows of
    /// every column the writer does not write again. The secondary drops the sealed
    /// memtable only when the column's flush is at or after the log holding this write,
    /// which holds unless another write (a concurrent insert) moved the writer to a newer
    /// log between the column's flush and this write; then that column's old memtable
    /// stays until the column is flushed again.
    pub(crate) fn wake_followers(&self, to: Slot) -> Result<()> {
        let key = last_key(to);
        let mut batch = self.engine.batch()?;
        for cf in purged_columns() {
            batch.delete_raw(cf, &key)?;
        }
        self.engine.write(batch)
    }

    /// The lowest slot with a meta.
    pub fn lowest_slot(&self) -> Result<Option<Slot>> {
        let lower = Meta::encode_key(Slot(0));
        self.engine
            .range::<Meta, Slot>(lower, None, Direction::Forward, |k, _| Meta::decode_key(k))
            .next()
            .transpose()
    }
}
