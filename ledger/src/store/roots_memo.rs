//! Rooted slots and their block times, remembered across calls on a store whose view
//! changes only by catching up (read-only and secondary stores).
//!
//! An RPC history answer asks `is_root` and `block_time` of every slot it names
//! (`getSignaturesForAddress` of ten entries makes about twenty point reads, a quarter of
//! its work on a live secondary). Both facts are stable once true: a rooted slot stays
//! rooted, and its block time is the one its rooted bank wrote, until the slot is purged.
//! So only positive facts are kept (a slot found not rooted, or without a time, is read
//! again next time: the writer may root it or write its time later).
//!
//! Invariants:
//! - A remembered slot counts only between the store's current lowest and highest roots
//!   (`Bounds`, themselves remembered per catch-up), and every catch-up drops what lies
//!   outside them. Purges remove root rows with the rest of a slot: Agave's cleanup
//!   service and bstore's retention purge from the bottom, so the lowest root rises above
//!   every purged slot; a purge from a slot to the top (rolling a ledger back for a
//!   cluster restart) lowers the highest root below it. A purge of a middle range while a
//!   secondary follows leaves that range's roots remembered; it changes no answer but the
//!   kind of error for those slots (their other rows are gone), and lasts until the process
//!   restarts or the range drops below the lowest root.
//! - A block time is remembered only for a slot remembered as rooted.
//! - At most the capacity ([`MAX_SLOTS`] unless set) slots are held; the lowest go first.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

use crate::types::Slot;

/// Slots remembered at most by default (about 40 bytes each with the map's overhead:
/// under 3 MiB).
pub const MAX_SLOTS: usize = 1 << 16;

/// The memo (one per store).
#[derive(Debug)]
pub(super) struct RootsMemo {
    /// Rooted slot → its block time once read.
    slots: Mutex<BTreeMap<u64, Option<i64>>>,
    /// The most slots held; 0 remembers nothing.
    capacity: AtomicUsize,
}

impl Default for RootsMemo {
    fn default() -> Self {
        Self {
            slots: Mutex::default(),
            capacity: AtomicUsize::new(MAX_SLOTS),
        }
    }
}

/// The lowest and highest rooted slots of the store's current view: a remembered slot
/// counts only between them (inclusive).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Bounds {
    pub lowest: Slot,
    pub highest: Slot,
}

impl Bounds {
    fn contain(self, slot: Slot) -> bool {
        self.lowest <= slot && slot <= self.highest
    }
}

impl RootsMemo {
    fn lock(&self) -> MutexGuard<'_, BTreeMap<u64, Option<i64>>> {
        // Every update leaves the map consistent, so a poisoned lock's map is sound.
        self.slots.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// `Some(block time if remembered)` when `slot` is remembered as rooted and lies within
    /// `bounds`; `None` when nothing is known.
    pub(super) fn rooted(&self, slot: Slot, bounds: Bounds) -> Option<Option<i64>> {
        if !bounds.contain(slot) {
            return None;
        }
        self.lock().get(&slot.0).copied()
    }

    /// Remembers that `slot` (within `bounds`) is rooted.
    pub(super) fn remember_root(&self, slot: Slot, bounds: Bounds) {
        let capacity = self.capacity.load(Ordering::Relaxed);
        if capacity == 0 || !bounds.contain(slot) {
            return;
        }
        let mut slots = self.lock();
        slots.entry(slot.0).or_insert(None);
        while slots.len() > capacity {
            slots.pop_first();
        }
    }

    /// Holds at most `slots` slots from now on (0: nothing), dropping the lowest.
    pub(super) fn set_capacity(&self, slots: usize) {
        self.capacity.store(slots, Ordering::Relaxed);
        let mut held = self.lock();
        while held.len() > slots {
            held.pop_first();
        }
    }

    /// Remembers `slot`'s block time when the slot is remembered as rooted (within
    /// `bounds`).
    pub(super) fn remember_block_time(&self, slot: Slot, time: i64, bounds: Bounds) {
        if !bounds.contain(slot) {
            return;
        }
        if let Some(known) = self.lock().get_mut(&slot.0) {
            *known = Some(time);
        }
    }

    /// Whether nothing is remembered.
    pub(super) fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }

    /// Keeps only the slots within `bounds` (`None`: nothing is rooted, keep nothing).
    pub(super) fn retain_within(&self, bounds: Option<Bounds>) {
        let mut slots = self.lock();
        let Some(b) = bounds else {
            slots.clear();
            return;
        };
        if slots
            .first_key_value()
            .is_some_and(|(&s, _)| s < b.lowest.0)
        {
            *slots = slots.split_off(&b.lowest.0);
        }
        if let Some(above) = b.highest.0.checked_add(1) {
            drop(slots.split_off(&above));
        }
    }

    /// Slots held (tests).
    #[cfg(test)]
    fn len(&self) -> usize {
        self.lock().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn within(lowest: u64, highest: u64) -> Bounds {
        Bounds {
            lowest: Slot(lowest),
            highest: Slot(highest),
        }
    }

    #[test]
    fn only_rooted_slots_within_the_bounds_are_known() {
        let memo = RootsMemo::default();
        let all = within(0, 100);
        assert_eq!(memo.rooted(Slot(5), all), None);
        memo.remember_block_time(Slot(5), 100, all);
        assert_eq!(
            memo.rooted(Slot(5), all),
            None,
            "a time alone is not a root"
        );
        memo.remember_root(Slot(5), all);
        assert_eq!(memo.rooted(Slot(5), all), Some(None));
        memo.remember_block_time(Slot(5), 100, all);
        assert_eq!(memo.rooted(Slot(5), all), Some(Some(100)));
        memo.remember_root(Slot(50), all);
        // The lowest root moved above slot 5 (a purge from the bottom), or the highest
        // fell below 50 (a purge to the top): they no longer count...
        assert_eq!(memo.rooted(Slot(5), within(6, 100)), None);
        assert_eq!(memo.rooted(Slot(50), within(0, 49)), None);
        memo.remember_root(Slot(3), within(6, 100));
        memo.remember_root(Slot(60), within(6, 49));
        assert_eq!(memo.len(), 2, "outside the bounds is never remembered");
        // ... and a catch-up drops them.
        memo.retain_within(Some(within(6, 49)));
        assert_eq!(memo.len(), 0);
        memo.remember_root(Slot(9), all);
        memo.retain_within(None);
        assert!(memo.is_empty(), "nothing rooted: nothing remembered");
    }

    #[test]
    fn retain_keeps_the_slots_within_inclusive_bounds() {
        let memo = RootsMemo::default();
        let all = within(0, u64::MAX);
        for s in [1, 2, 3, 7, 8, u64::MAX] {
            memo.remember_root(Slot(s), all);
        }
        memo.retain_within(Some(within(2, 7)));
        assert_eq!(memo.len(), 3);
        for s in [2, 3, 7] {
            assert_eq!(memo.rooted(Slot(s), all), Some(None), "{s}");
        }
        memo.remember_root(Slot(u64::MAX), all);
        memo.retain_within(Some(all));
        assert_eq!(memo.rooted(Slot(u64::MAX), all), Some(None));
    }

    #[test]
    fn the_lowest_slots_go_first_past_the_bound() {
        let memo = RootsMemo::default();
        let top = MAX_SLOTS as u64 + 10;
        let all = within(0, top);
        for s in 0..top {
            memo.remember_root(Slot(s), all);
        }
        assert_eq!(memo.len(), MAX_SLOTS);
        assert_eq!(memo.rooted(Slot(9), all), None);
        assert_eq!(memo.rooted(Slot(10), all), Some(None));
        assert_eq!(memo.rooted(Slot(top - 1), all), Some(None));
        memo.set_capacity(2);
        assert_eq!(memo.len(), 2);
        assert_eq!(memo.rooted(Slot(top - 2), all), Some(None));
        memo.set_capacity(0);
        memo.remember_root(Slot(top), within(0, top));
        assert!(memo.is_empty(), "capacity 0 remembers nothing");
    }
}
