//! What a driver knows of finished slots — the blockhashes children chain from and the dead
//! marks — held as a bounded cache over the ledger.
//!
//! Invariants:
//! - `floor`: no finished slot at or above it was ever evicted, so there the cache is the
//!   whole truth (a slot it does not hold was not replayed by this driver). Below it the
//!   cache may have forgotten slots, and the ledger answers instead.
//! - Seeds (blockhashes given by the caller, e.g. from a snapshot) are never evicted: they
//!   may be nowhere in the ledger.
//! - Dead marks are evicted only when the blockstore holds them too (`DeadSlots::Mark`);
//!   with `DeadSlots::Report` they exist nowhere else and are kept.

use std::collections::{BTreeMap, BTreeSet};

use bstore_ledger::fetch::{FetchBuffer, parent_blockhash};
use bstore_ledger::store::Blockstore;
use bstore_ledger::{Hash, LedgerError, Slot};

/// How much a driver keeps of the slots it has finished (replayed or dead).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retention {
    /// Finished slots are kept while they are at most this many slots below the lower of
    /// the ledger's newest root and the driver's newest finished slot.
    pub margin: u64,
    /// At most this many finished slots are kept (blockhashes and dead marks together);
    /// past it the lowest go first, whatever the root.
    pub max_slots: usize,
}

impl Retention {
    /// Keeps everything (the driver's state grows with every slot).
    pub const UNBOUNDED: Self = Self {
        margin: u64::MAX,
        max_slots: usize::MAX,
    };
}

impl Default for Retention {
    /// 512 slots below the root (about 3.4 minutes of a cluster at 400 ms a slot), at most 8192 slots.
    fn default() -> Self {
        Self {
            margin: 512,
            max_slots: 8192,
        }
    }
}

/// What a driver holds, for monitoring and tests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Retained {
    /// Blockhashes of replayed slots held (seeds not counted).
    pub blockhashes: usize,
    /// Dead marks held.
    pub dead: usize,
    /// Seeded blockhashes (never evicted).
    pub seeds: usize,
    /// Slots under replay (never evicted).
    pub active: usize,
    /// Below this slot, finished slots may have been evicted.
    pub floor: Slot,
    /// The most blockhashes and dead marks held at once.
    pub peak: usize,
    /// Finished slots evicted so far.
    pub evicted: u64,
    /// Parent blockhashes read back from the ledger (parents evicted earlier).
    pub from_ledger: u64,
}

/// Where a parent stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ParentState {
    /// Its blockhash: held, or read back from the ledger.
    Known(Hash),
    /// Dead (held mark or the blockstore's flag).
    Dead,
    /// Not replayed by this driver, as far as the driver and the ledger can tell.
    Unknown,
}

#[derive(Debug)]
pub(crate) struct Known {
    retention: Retention,
    /// Dead marks are also in the blockstore, so they may be evicted.
    durable_dead: bool,
    seeds: BTreeMap<Slot, Hash>,
    blockhashes: BTreeMap<Slot, Hash>,
    dead: BTreeSet<Slot>,
    floor: Slot,
    /// The ledger's newest root, as last read.
    root: Option<Slot>,
    /// The highest slot this driver finished.
    frontier: Option<Slot>,
    peak: usize,
    evicted: u64,
    from_ledger: u64,
}

impl Known {
    pub(crate) fn new(retention: Retention, durable_dead: bool) -> Self {
        Self {
            retention,
            durable_dead,
            seeds: BTreeMap::new(),
            blockhashes: BTreeMap::new(),
            dead: BTreeSet::new(),
            floor: Slot(0),
            root: None,
            frontier: None,
            peak: 0,
            evicted: 0,
            from_ledger: 0,
        }
    }

    pub(crate) fn seed(&mut self, slot: Slot, blockhash: Hash) {
        self.seeds.insert(slot, blockhash);
    }

    /// The blockhash of a seeded slot, or of a replayed slot still held.
    pub(crate) fn blockhash(&self, slot: Slot) -> Option<Hash> {
        self.seeds
            .get(&slot)
            .or_else(|| self.blockhashes.get(&slot))
            .copied()
    }

    pub(crate) fn holds_dead(&self, slot: Slot) -> bool {
        self.dead.contains(&slot)
    }

    pub(crate) fn retained(&self, active: usize) -> Retained {
        Retained {
            blockhashes: self.blockhashes.len(),
            dead: self.dead.len(),
            seeds: self.seeds.len(),
            active,
            floor: self.floor,
            peak: self.peak,
            evicted: self.evicted,
            from_ledger: self.from_ledger,
        }
    }

    /// Records the ledger's newest root and evicts what fell out of the margin.
    pub(crate) fn set_root(&mut self, root: Slot) {
        if self.root.is_some_and(|r| r >= root) {
            return;
        }
        self.root = Some(root);
        self.evict();
    }

    pub(crate) fn replayed(&mut self, slot: Slot, blockhash: Hash) {
        self.blockhashes.insert(slot, blockhash);
        self.finished(slot);
    }

    pub(crate) fn dead(&mut self, slot: Slot) {
        self.dead.insert(slot);
        self.finished(slot);
    }

    fn finished(&mut self, slot: Slot) {
        self.frontier = Some(self.frontier.map_or(slot, |f| f.max(slot)));
        self.evict();
        self.peak = self.peak.max(self.held());
    }

    fn held(&self) -> usize {
        self.blockhashes.len() + self.dead.len()
    }

    /// Raises the floor to the margin below `min(root, frontier)`, then further while more
    /// than `max_slots` are held, and drops everything below it.
    fn evict(&mut self) {
        if let (Some(root), Some(frontier)) = (self.root, self.frontier) {
            let target = Slot(root.min(frontier).0.saturating_sub(self.retention.margin));
            if target > self.floor || self.lowest_evictable().is_some_and(|s| s < self.floor) {
                self.raise_floor(target);
            }
        }
        while self.held() > self.retention.max_slots {
            // With only kept dead marks left, nothing may go.
            let Some(lowest) = self.lowest_evictable() else {
                break;
            };
            let before = self.held();
            self.raise_floor(Slot(lowest.0.saturating_add(1)));
            if self.held() == before {
                break;
            }
        }
    }

    /// The lowest held slot that may be evicted.
    fn lowest_evictable(&self) -> Option<Slot> {
        let dead = self.dead.first().filter(|_| self.durable_dead);
        [self.blockhashes.keys().next(), dead]
            .into_iter()
            .flatten()
            .min()
            .copied()
    }

    /// Drops everything below `max(floor, self.floor)`: also a slot replayed again below
    /// the floor, so a loop raising the floor past its lowest entry always shrinks the cache.
    fn raise_floor(&mut self, floor: Slot) {
        self.floor = self.floor.max(floor);
        let before = self.held();
        self.blockhashes = self.blockhashes.split_off(&self.floor);
        if self.durable_dead {
            self.dead = self.dead.split_off(&self.floor);
        }
        self.evicted += (before - self.held()) as u64;
    }

    /// The parent's blockhash, or why there is none. A parent below the floor that the
    /// cache no longer holds is read back from the ledger (see [`Self::read_back`]).
    pub(crate) fn parent(
        &mut self,
        store: &Blockstore,
        parent: Slot,
    ) -> Result<ParentState, LedgerError> {
        if let Some(hash) = self.blockhash(parent) {
            return Ok(ParentState::Known(hash));
        }
        if self.dead.contains(&parent) || store.is_dead(parent)? {
            return Ok(ParentState::Dead);
        }
        if parent >= self.floor {
            // Nothing at or above the floor was evicted: this driver never replayed it.
            return Ok(ParentState::Unknown);
        }
        self.read_back(store, parent)
    }

    /// A parent below the floor, not dead: trusted from the ledger when its chain of full,
    /// not-dead ancestors reaches a slot this driver holds (a seed or a replayed slot still
    /// kept) or a slot the ledger roots at or above the lowest seed. Its blockhash is then
    /// its last entry's hash as the ledger stores it now. Anything else (not full, purged,
    /// a dead ancestor, a chain that ends elsewhere) is `Unknown`, as it would be for a
    /// driver that never evicts and did not replay it.
    fn read_back(&mut self, store: &Blockstore, parent: Slot) -> Result<ParentState, LedgerError> {
        if !self.chain_holds(store, parent)? {
            return Ok(ParentState::Unknown);
        }
        // One small buffer per read-back: these are rare (a parent more than the margin
        // below the newest root), so the driver keeps no buffer for them.
        match parent_blockhash(store, Some(parent), &mut FetchBuffer::new())? {
            Some(hash) => {
                self.from_ledger += 1;
                log::debug!("parent slot {parent}: blockhash {hash} read back from the ledger");
                Ok(ParentState::Known(hash))
            }
            None => Ok(ParentState::Unknown),
        }
    }

    /// Walks `start`'s ancestors (each full and not dead) down to an anchor: a held slot,
    /// or a root at or above the lowest seed. Each step goes strictly down, so it ends.
    fn chain_holds(&self, store: &Blockstore, start: Slot) -> Result<bool, LedgerError> {
        let Some(&lowest_seed) = self.seeds.keys().next() else {
            // With no seed this driver cannot have replayed anything.
            return Ok(false);
        };
        let mut slot = start;
        loop {
            let Some(meta) = store.meta(slot)? else {
                return Ok(false);
            };
            if !meta.is_full() || self.dead.contains(&slot) || store.is_dead(slot)? {
                return Ok(false);
            }
            if slot >= lowest_seed && store.is_root(slot)? {
                return Ok(true);
            }
            let Some(up) = meta.parent_slot.filter(|&up| up < slot) else {
                return Ok(false);
            };
            if self.blockhash(up).is_some() {
                return Ok(true);
            }
            slot = up;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hash(slot: u64) -> Hash {
        Hash([u8::try_from(slot % 251).unwrap_or(0); 32])
    }

    fn slots(known: &Known) -> Vec<u64> {
        known.blockhashes.keys().map(|s| s.0).collect()
    }

    #[test]
    fn the_margin_counts_from_the_lower_of_root_and_frontier() {
        let retention = Retention {
            margin: 3,
            max_slots: usize::MAX,
        };
        let mut known = Known::new(retention, true);
        known.seed(Slot(0), hash(0));
        for s in 1..=10 {
            known.replayed(Slot(s), hash(s));
        }
        assert_eq!(known.floor, Slot(0), "no root yet: nothing evicted");
        // A root ahead of the driver: the margin is kept below the driver's own position.
        known.set_root(Slot(50));
        assert_eq!(slots(&known), [7, 8, 9, 10]);
        assert_eq!(known.floor, Slot(7));
        // Replayed again below the floor: dropped at once, the floor stays.
        known.replayed(Slot(2), hash(2));
        assert_eq!(slots(&known), [7, 8, 9, 10]);
        assert_eq!(known.floor, Slot(7));
        assert_eq!(known.blockhash(Slot(0)), Some(hash(0)), "seeds stay");
        assert_eq!(known.retained(0).evicted, 7);
        assert_eq!(known.retained(0).peak, 10);
    }

    #[test]
    fn the_size_cap_drops_the_lowest_and_raises_the_floor() {
        let retention = Retention {
            margin: u64::MAX,
            max_slots: 4,
        };
        let mut known = Known::new(retention, true);
        for s in [3, 9, 5, 12, 7] {
            known.replayed(Slot(s), hash(s));
        }
        known.dead(Slot(8));
        // 3, then 5 went (each time the lowest); the floor is just past the last one.
        assert_eq!(slots(&known), [7, 9, 12]);
        assert_eq!(known.dead.iter().map(|s| s.0).collect::<Vec<_>>(), [8]);
        assert_eq!(known.floor, Slot(6));
        assert_eq!(known.retained(0).peak, 4);
        assert_eq!(known.retained(0).evicted, 2);
    }

    #[test]
    fn dead_marks_kept_nowhere_else_are_never_evicted() {
        let retention = Retention {
            margin: 1,
            max_slots: 2,
        };
        let mut known = Known::new(retention, false);
        for s in 1..=5 {
            known.dead(Slot(s));
        }
        known.set_root(Slot(5));
        assert_eq!(known.dead.len(), 5, "report-only marks stay");
        known.replayed(Slot(6), hash(6));
        assert!(
            known.blockhashes.is_empty(),
            "over the cap, the blockhash goes"
        );
        assert!(known.holds_dead(Slot(1)));
    }
}
