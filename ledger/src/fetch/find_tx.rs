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
//!
//! Each walk of a full block is remembered (`store/tx_memo.rs`: each transaction's data set
//! and the transactions before it, and where the walk stopped). A later lookup in the same
//! block reads the one set its hint names, or resumes the walk where the last one stopped;
//! a hint that does not hold (the signature is not in that set) costs one set read, then
//! the block is walked from its start as without the memo. The answer never depends on the
//! memo: the transaction is always found in the set read, and its position is the count of
//! transactions before that set, recorded by a walk of the same block version.

use std::ops::Range;

use crate::entry::TransactionView;
use crate::error::Result;
use crate::fetch::store_fetch::Plan;
use crate::fetch::store_fetch::parse_views;
use crate::fetch::{AllowDead, DataSetView, FetchBuffer, block_start};
use crate::store::{
    Blockstore, Hint, KvEngine, MemoKey, ReadPath, SetHint, SlotMeta, signature_prefix,
};
use crate::types::{Hash, Slot};

/// The largest group of data sets read at once: the doubling stops here, so a block of many
/// sets is read in calls of at most this many (each call is one bounded range read).
const MAX_GROUP: usize = 64;

/// Where a walk found the transaction: the data sets read last (still in the buffer), whether
/// the block is full, and the transaction's position in the block.
type Found = (Vec<Range<u32>>, bool, u32);

/// What one walk over some of a block's data sets learned.
struct Walk {
    found: Option<Found>,
    /// Each transaction read (signature prefix, its set), when recording.
    seen: Vec<(u64, SetHint)>,
    /// Where a later walk goes on: the set holding the transaction found (its transactions
    /// after that one were not read), else the first set not read (`None`: the walk read
    /// to the block's end).
    resume: Option<SetHint>,
}

/// A transaction found in a block: its position among the block's transactions and its
/// view over the caller's buffer.
#[derive(Debug)]
pub struct FoundTransaction<'b> {
    /// 0-based position among the block's transactions, from the block's start.
    pub index: u32,
    /// The transaction.
    pub transaction: TransactionView<'b>,
}

/// What [`Blockstore::find_located_transaction`] gives.
#[derive(Debug)]
pub enum Located<'b> {
    /// The transaction, read from the one data set the memo names.
    Found(FoundTransaction<'b>),
    /// The memo does not locate it (or its hint did not hold): nothing was walked; ask
    /// [`Blockstore::find_block_transaction`].
    Unlocated,
}

/// The block a walk reads: its slot, the shred index it starts at and its read plan.
#[derive(Clone, Copy)]
struct Target<'p> {
    slot: Slot,
    start: u32,
    plan: &'p Plan,
}

/// Whether a lookup may walk the block or only read a set the memo names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reach {
    Walk,
    HintedSet,
}

impl<E: KvEngine> Blockstore<E> {
    /// The transaction of `slot`'s block whose first signature is `signature` (`meta` is the
    /// slot's meta as the caller read it: it gives the block's start and data sets, and is
    /// not read again). `None` when the block has no such transaction; a dead slot is
    /// `DeadSlot`, and a purged one (or one whose meta is gone since the caller read it)
    /// `SlotCleanedUp`, as for a whole-block fetch.
    pub fn find_block_transaction<'b>(
        &self,
        slot: Slot,
        meta: &SlotMeta,
        signature: &[u8; 64],
        buf: &'b mut FetchBuffer,
    ) -> Result<Option<FoundTransaction<'b>>> {
        self.find_in(slot, meta, signature, Reach::Walk, buf)
    }

    /// [`Self::find_block_transaction`] bounded to one data set: the answer when the
    /// transaction memo names the set holding the transaction and the set holds it, else
    /// [`Located::Unlocated`] with nothing more read (at most the one set). Same errors.
    pub fn find_located_transaction<'b>(
        &self,
        slot: Slot,
        meta: &SlotMeta,
        signature: &[u8; 64],
        buf: &'b mut FetchBuffer,
    ) -> Result<Located<'b>> {
        let found = self.find_in(slot, meta, signature, Reach::HintedSet, buf)?;
        Ok(found.map_or(Located::Unlocated, Located::Found))
    }

    /// The lookup of both: `None` when a walk ends without the transaction, or when the
    /// one hinted set (with [`Reach::HintedSet`]) does not hold it or none is hinted.
    fn find_in<'b>(
        &self,
        slot: Slot,
        meta: &SlotMeta,
        signature: &[u8; 64],
        reach: Reach,
        buf: &'b mut FetchBuffer,
    ) -> Result<Option<FoundTransaction<'b>>> {
        let start = block_start(meta);
        let found = self.read_guarded(slot, || {
            // The caller's meta (read just before) gives the ranges: not read again.
            let plan = self.plan_of(slot, meta, start, AllowDead::No)?;
            // Only a full block's data sets are final, so only full blocks are remembered.
            let key = (plan.is_full && self.tx_memo.enabled())
                .then(|| MemoKey::new(start, plan.first_shred_timestamp, &plan.ranges));
            let target = Target {
                slot,
                start,
                plan: &plan,
            };
            if let Some(key) = key {
                let set =
                    |hint: SetHint| plan.ranges.iter().position(|r| r.start == hint.set_start);
                let hinted = match (self.tx_memo.lookup(slot, key, signature), reach) {
                    (Hint::Set(h), _) => set(h).map(|i| (i, i + 1, h.tx_base, false)),
                    (Hint::ResumeAt(h), Reach::Walk) => {
                        set(h).map(|i| (i, plan.ranges.len(), h.tx_base, true))
                    }
                    _ => None,
                };
                if let Some((from, to, before, resumed)) = hinted {
                    let walk = self.walk(&target, (from, to), before, signature, resumed, buf)?;
                    if resumed {
                        self.tx_memo
                            .record(slot, key, &walk.seen, walk.resume, true);
                    }
                    if walk.found.is_some() {
                        return Ok(walk.found);
                    }
                }
            }
            if reach == Reach::HintedSet {
                return Ok(None);
            }
            let all = (0, plan.ranges.len());
            let walk = self.walk(&target, all, 0, signature, key.is_some(), buf)?;
            if let Some(key) = key {
                self.tx_memo
                    .record(slot, key, &walk.seen, walk.resume, false);
            }
            Ok(walk.found)
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

    /// The blockhash a whole read of `slot`'s full block left in the memo, if the block is
    /// still remembered under the key of `meta` and `ranges` (its data sets from `start`).
    pub(crate) fn remembered_blockhash(
        &self,
        slot: Slot,
        meta: &SlotMeta,
        start: u32,
        ranges: &[Range<u32>],
    ) -> Option<Hash> {
        if !meta.is_full() {
            return None;
        }
        let key = MemoKey::new(start, meta.first_shred_timestamp, ranges);
        self.tx_memo.blockhash(slot, key)
    }

    /// Remembers where every transaction of a full block read whole sits (`getBlock`, the
    /// archive's block records), as a walk to the block's end would: a later
    /// `getTransaction` in the block reads only the set holding its transaction; and the
    /// block's `blockhash`, which a read of its child takes as its previous blockhash.
    /// `ranges` are the block's data sets from `start` as the read planned them, `sets` the
    /// views read. Nothing is recorded when the memo is off; only the blockhash when it
    /// already knows the whole block.
    pub(crate) fn remember_block_read(
        &self,
        slot: Slot,
        meta: &SlotMeta,
        start: u32,
        ranges: &[Range<u32>],
        sets: &[DataSetView<'_>],
        blockhash: Hash,
    ) {
        if !meta.is_full() || !self.tx_memo.enabled() {
            return;
        }
        let key = MemoKey::new(start, meta.first_shred_timestamp, ranges);
        if self.tx_memo.note_blockhash_if_whole(slot, key, blockhash) {
            return;
        }
        let mut seen = Vec::new();
        let mut before = 0u32;
        for set in sets {
            let here = SetHint {
                set_start: set.range.start,
                tx_base: before,
            };
            for tx in set.entries.transactions() {
                if let Some(s) = tx.first_signature() {
                    seen.push((signature_prefix(s), here));
                }
                before = before.saturating_add(1);
            }
        }
        self.tx_memo.record(slot, key, &seen, None, false);
        self.tx_memo.note_blockhash(slot, key, blockhash);
    }

    /// Reads the target's data sets `from..to` in order until one holds `signature`
    /// (`before`: the block's transactions before set `from`). With `record`, every
    /// transaction read is noted with its set, for the memo.
    fn walk(
        &self,
        target: &Target<'_>,
        (from, to): (usize, usize),
        mut before: u32,
        signature: &[u8; 64],
        record: bool,
        buf: &mut FetchBuffer,
    ) -> Result<Walk> {
        let Target { slot, start, plan } = *target;
        let mut walk = Walk {
            found: None,
            seen: Vec::new(),
            resume: None,
        };
        let to = to.min(plan.ranges.len());
        // On the scan read path one cursor walks the sets one at a time, so the read stops
        // right after the set holding the transaction; a multi-get reads each group of its
        // own, so groups double to bound the number of calls.
        let mut scan = match (
            self.read_path(),
            plan.ranges.get(from),
            plan.ranges.get(to.wrapping_sub(1)),
        ) {
            (ReadPath::Scan, Some(first), Some(last)) if from < to => {
                Some(self.data_shred_scan(slot, first.start, last.end))
            }
            _ => None,
        };
        let (mut first, mut group) = (from, 1);
        'groups: while first < to {
            let end = to.min(first.saturating_add(group));
            let ranges = plan.ranges.get(first..end).unwrap_or_default().to_vec();
            match scan.as_mut() {
                Some(scan) => self.deshred_scanned(slot, &ranges, scan, buf)?,
                None => self.deshred_ranges(slot, &ranges, buf)?,
            }
            let views = parse_views(slot, start, ranges.clone(), plan.is_full, buf)?;
            for set in &views.sets {
                let here = SetHint {
                    set_start: set.range.start,
                    tx_base: before,
                };
                for tx in set.entries.transactions() {
                    let first_signature = tx.first_signature();
                    if let (true, Some(s)) = (record, first_signature) {
                        walk.seen.push((signature_prefix(s), here));
                    }
                    if first_signature == Some(signature) {
                        // The rest of this set is not decoded: a later walk resumes here.
                        walk.found = Some((ranges, plan.is_full, before));
                        walk.resume = Some(here);
                        break 'groups;
                    }
                    before = before.saturating_add(1);
                }
            }
            first = end;
            if scan.is_none() {
                group = group.saturating_mul(2).min(MAX_GROUP);
            }
        }
        if walk.found.is_none() {
            walk.resume = plan.ranges.get(first).map(|r| SetHint {
                set_start: r.start,
                tx_base: before,
            });
        }
        Ok(walk)
    }
}

#[cfg(all(test, feature = "synth"))]
#[path = "find_tx_tests.rs"]
mod tests;
