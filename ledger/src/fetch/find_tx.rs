//! One transaction of a stored block, found by its first signature without reading more of
//! the block than it must (`getTransaction`). On the scan read path (the default) one cursor
//! walks the block a data set at a time and stops after the set holding the transaction; on
//! the multi-get path the data sets are read in groups of growing size (1, 2, 4, … sets) and
//! the read stops at the group holding it. A transaction early in a block costs a fraction of
//! the whole fetch; one in the last set costs about the whole fetch. The answer is the one
//! [`fetch_block_views`](super::fetch_block_views) gives: the same meta read, dead check and
//! purge guard, the same checks on every data set read, and the transaction's position
//! counted among the block's transactions from its start
//! ([`block_start`](super::block_start)). The one difference: a damaged data set after the
//! transaction's group is never read, so it cannot fail the lookup as it fails a whole-block
//! fetch.

use crate::entry::TransactionView;
use crate::error::Result;
use crate::fetch::store_fetch::parse_views;
use crate::fetch::{AllowDead, FetchBuffer, block_start};
use crate::store::{Blockstore, KvEngine, ReadPath, SlotMeta};
use crate::types::Slot;

/// The largest group of data sets read at once: the doubling stops here, so a block of many
/// sets is read in calls of at most this many (each call is one bounded range read).
const MAX_GROUP: usize = 64;

/// A transaction found in a block: its position among the block's transactions and its
/// view over the caller's buffer.
#[derive(Debug)]
pub struct FoundTransaction<'b> {
    /// 0-based position among the block's transactions, from the block's start.
    pub index: u32,
    /// The transaction.
    pub transaction: TransactionView<'b>,
}

impl<E: KvEngine> Blockstore<E> {
    /// The transaction of `slot`'s block whose first signature is `signature` (`meta` is the
    /// slot's meta as the caller read it: it gives the block's start). `None` when the slot
    /// has no meta or the block has no such transaction; a dead slot is `DeadSlot` and a
    /// purged one `SlotCleanedUp`, as for a whole-block fetch.
    pub fn find_block_transaction<'b>(
        &self,
        slot: Slot,
        meta: &SlotMeta,
        signature: &[u8; 64],
        buf: &'b mut FetchBuffer,
    ) -> Result<Option<FoundTransaction<'b>>> {
        let start = block_start(meta);
        let found = self.read_guarded(slot, || {
            let Some(plan) = self.plan(slot, start, AllowDead::No)? else {
                return Ok(None);
            };
            // On the scan read path one cursor walks the block a data set at a time, so the
            // read stops right after the set holding the transaction; a multi-get reads each
            // group of its own, so groups double to bound the number of calls.
            let mut scan = match (self.read_path(), plan.ranges.first(), plan.ranges.last()) {
                (ReadPath::Scan, Some(first), Some(last)) => {
                    Some(self.data_shred_scan(slot, first.start, last.end))
                }
                _ => None,
            };
            let (mut first, mut group, mut before) = (0, 1, 0u32);
            while first < plan.ranges.len() {
                let end = plan.ranges.len().min(first.saturating_add(group));
                let ranges = plan.ranges.get(first..end).unwrap_or_default().to_vec();
                match scan.as_mut() {
                    Some(scan) => self.deshred_scanned(slot, &ranges, scan, buf)?,
                    None => self.deshred_ranges(slot, &ranges, buf)?,
                }
                let views = parse_views(slot, start, ranges.clone(), plan.is_full, buf)?;
                let mut seen = 0u32;
                for tx in views.sets.iter().flat_map(|set| set.entries.transactions()) {
                    if tx.first_signature() == Some(signature) {
                        return Ok(Some((ranges, plan.is_full, before.saturating_add(seen))));
                    }
                    seen = seen.saturating_add(1);
                }
                before = before.saturating_add(seen);
                first = end;
                if scan.is_none() {
                    group = group.saturating_mul(2).min(MAX_GROUP);
                }
            }
            Ok(None)
        })?;
        // The group holding the transaction is still in `buf`: parse it again to hand out a
        // view borrowing `buf` for `'b` (the loop's views could not outlive its iteration).
        let Some((ranges, is_full, index)) = found else {
            return Ok(None);
        };
        let views = parse_views(slot, start, ranges, is_full, buf)?;
        let transaction = views
            .sets
            .iter()
            .flat_map(|set| set.entries.transactions())
            .find(|tx| tx.first_signature() == Some(signature));
        Ok(transaction.map(|transaction| FoundTransaction { index, transaction }))
    }
}
