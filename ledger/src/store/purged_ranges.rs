//! The slot ranges this process purged: the cleaned-up mark every fetch checks before and
//! after it reads, so a read that overlapped a purge of its slot fails with
//! `LedgerError::SlotCleanedUp` instead of returning part of the slot.

use std::sync::RwLock;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::types::Slot;

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
    pub(crate) fn add(&self, from: Slot, to: Slot) {
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

    pub(crate) fn snapshot(&self) -> Vec<(u64, u64)> {
        self.ranges
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Puts back a [`Self::snapshot`] (a purge whose write failed).
    pub(crate) fn restore(&self, ranges: Vec<(u64, u64)>) {
        *self.ranges.write().unwrap_or_else(|p| p.into_inner()) = ranges;
    }

    pub(crate) fn contains(&self, slot: Slot) -> bool {
        if !self.any.load(Ordering::Acquire) {
            return false;
        }
        let ranges = self.ranges.read().unwrap_or_else(|p| p.into_inner());
        ranges.iter().any(|&(a, b)| (a..=b).contains(&slot.0))
    }

    pub(crate) fn highest(&self) -> Option<Slot> {
        let ranges = self.ranges.read().unwrap_or_else(|p| p.into_inner());
        ranges.last().map(|&(_, b)| Slot(b))
    }
}
