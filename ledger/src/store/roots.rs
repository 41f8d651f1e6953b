//! Rooted-slot queries over the `root` column, for consumers that need the finalized chain
//! (RPC `getBlocks`, `getSlot` at `finalized`, first available block).

use std::ops::{Bound, RangeBounds};

use super::blockstore::{Blockstore, DefaultEngine};
use super::column::Column;
use super::columns::{self, Root};
use super::ends_memo::LedgerEnd;
use super::kv::{Direction, KvEngine};
use super::typed::RangeIter;
use crate::error::Result;
use crate::types::Slot;

/// Rooted slots in slot order (see [`Blockstore::rooted_slots`]). A `root` entry whose value
/// is `false` is skipped; a key or value that does not decode is an `Err` item.
pub struct RootIter<'a, E: KvEngine = DefaultEngine>(RangeIter<'a, E, Root, Option<Slot>>);

impl<E: KvEngine> Iterator for RootIter<'_, E> {
    type Item = Result<Slot>;
    fn next(&mut self) -> Option<Result<Slot>> {
        loop {
            match self.0.next()? {
                Ok(Some(slot)) => return Some(Ok(slot)),
                Ok(None) => continue,
                Err(e) => return Some(Err(e)),
            }
        }
    }
}

impl<E: KvEngine> std::fmt::Debug for RootIter<'_, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RootIter")
    }
}

fn decode_root(key: &[u8], value: &[u8]) -> Result<Option<Slot>> {
    let slot = Root::decode_key(key)?;
    Ok(Root::decode_value(slot, value)?.then_some(slot))
}

/// `range` as RocksDB key bounds: inclusive lower, exclusive upper (`None`: to the end).
/// `None` overall when the range is empty by construction (`Excluded(u64::MAX)` start).
pub(super) fn key_bounds(range: &impl RangeBounds<Slot>) -> Option<(u64, Option<u64>)> {
    let lower = match range.start_bound() {
        Bound::Included(s) => Some(s.0),
        Bound::Excluded(s) => s.0.checked_add(1),
        Bound::Unbounded => Some(0),
    }?;
    let upper = match range.end_bound() {
        Bound::Included(s) => s.0.checked_add(1),
        Bound::Excluded(s) => Some(s.0),
        Bound::Unbounded => None,
    };
    Some((lower, upper))
}

impl<E: KvEngine> Blockstore<E> {
    fn roots_in(&self, range: impl RangeBounds<Slot>, direction: Direction) -> RootIter<'_, E> {
        let (lower, upper) = key_bounds(&range).unwrap_or((u64::MAX, Some(u64::MAX)));
        RootIter(self.engine.range::<Root, Option<Slot>>(
            columns::slot_key(Slot(lower)),
            upper.map(|u| columns::slot_key(Slot(u))),
            direction,
            decode_root,
        ))
    }

    /// Rooted slots in `range`, ascending.
    pub fn rooted_slots(&self, range: impl RangeBounds<Slot>) -> RootIter<'_, E> {
        self.roots_in(range, Direction::Forward)
    }

    /// Rooted slots in `range`, descending.
    pub fn rooted_slots_rev(&self, range: impl RangeBounds<Slot>) -> RootIter<'_, E> {
        self.roots_in(range, Direction::Reverse)
    }

    /// The highest rooted slot, `None` when nothing is rooted.
    pub fn max_root(&self) -> Result<Option<Slot>> {
        self.remembered_end(LedgerEnd::MaxRoot, || {
            self.rooted_slots_rev(..).next().transpose()
        })
    }

    /// The lowest rooted slot, `None` when nothing is rooted.
    pub fn lowest_root(&self) -> Result<Option<Slot>> {
        self.remembered_end(LedgerEnd::LowestRoot, || {
            self.rooted_slots(..).next().transpose()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_iterate_in_order_within_bounds() {
        let store = Blockstore::in_memory();
        assert_eq!(store.max_root().expect("max"), None);
        assert_eq!(store.lowest_root().expect("low"), None);
        store
            .set_roots([Slot(7), Slot(3), Slot(12), Slot(u64::MAX)])
            .expect("roots");
        let all: Vec<Slot> = store.rooted_slots(..).map(|r| r.expect("root")).collect();
        assert_eq!(all, vec![Slot(3), Slot(7), Slot(12), Slot(u64::MAX)]);
        let mid: Vec<Slot> = store
            .rooted_slots(Slot(4)..=Slot(12))
            .map(|r| r.expect("root"))
            .collect();
        assert_eq!(mid, vec![Slot(7), Slot(12)]);
        let rev: Vec<Slot> = store
            .rooted_slots_rev(..Slot(12))
            .map(|r| r.expect("root"))
            .collect();
        assert_eq!(rev, vec![Slot(7), Slot(3)]);
        assert_eq!(store.max_root().expect("max"), Some(Slot(u64::MAX)));
        assert_eq!(store.lowest_root().expect("low"), Some(Slot(3)));
        let none: Vec<_> = store
            .rooted_slots((Bound::Excluded(Slot(u64::MAX)), Bound::Unbounded))
            .collect();
        assert!(none.is_empty());
    }
}
