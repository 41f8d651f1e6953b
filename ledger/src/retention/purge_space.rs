//! A purge that gives the disk space back on a full disk
//! (`docs/damage-and-repair.md#a-full-disk`): the order of its steps keeps the room it needs
//! small and frees whatever needs no room first.

use crate::error::Result;
use crate::store::{Blockstore, Chaining, PurgeStats, RocksEngine, last_key, purged_columns};
use crate::types::Slot;

impl Blockstore<RocksEngine> {
    /// [`Blockstore::purge_slots`], then every byte the purge can give back:
    ///
    /// 1. the rows of `from..=to` are deleted in one atomic write (a few range deletions
    ///    in the log, plus the history rows of the purged slots' transactions);
    /// 2. every SST file whose keys all lie in the range is deleted whole, writing nothing;
    /// 3. each column's range is compacted, one column at a time, so only the files that
    ///    reach outside the range are rewritten, and the room one column needs is free again
    ///    before the next starts;
    /// 4. every memtable is flushed, so the write-ahead logs that held writes replayed at
    ///    open are no longer needed and RocksDB deletes them;
    /// 5. one small write tells a following secondary to drop what it replayed before the
    ///    purge (`Blockstore::wake_followers`).
    ///
    /// A step that finds no room fails with the storage error naming the file RocksDB could
    /// not write; the rows are already deleted by then (step 1 is atomic), so running the
    /// purge again with more room finishes giving the space back.
    pub fn purge_slots_reclaiming(&self, from: Slot, to: Slot) -> Result<PurgeStats> {
        let stats = self.delete_slot_rows(from, to, Chaining::KeepForSurvivors)?;
        if from > to {
            return Ok(stats);
        }
        let (first, last) = (from.0.to_be_bytes(), last_key(to));
        for cf in purged_columns() {
            self.kv().delete_files_in_range(cf, &first, &last)?;
        }
        self.compact_slots(from, to)?;
        self.flush()?;
        self.wake_followers(to)?;
        Ok(stats)
    }
}
