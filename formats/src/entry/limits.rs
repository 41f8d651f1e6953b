//! Bounds on the PoH work a slot may ask for, checked before any hashing.
//!
//! An entry's `num_hashes` is a plain u64 chosen by the leader: one entry claiming
//! `u64::MAX` hashes would keep a verifier busy for ages. With hashes per tick known, the
//! tick rules refuse such an entry on sight (`HashesPerTick` as soon as the hashes since
//! the last tick exceed it, tick or not; see `verify_slot_ticks`). Without it, these
//! limits do: they are derived from mainnet's 64 ticks × 62,500 hashes with an 8× margin.
//! At ~10 M hashes/s, the slot limit caps verification of one slot at about 3 s.

use super::PohDefect;
use super::tick::TickRules;

/// The most hashes a verifier accepts between two ticks, and in a whole slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HashLimits {
    /// Hashes from one tick to the next (counting the tick's own), when hashes per tick
    /// are not known. Also caps any single entry.
    pub max_hashes_per_tick: u64,
    /// The sum of `num_hashes` over a slot's entries.
    pub max_slot_hashes: u64,
}

impl HashLimits {
    /// 8 × mainnet's 62,500 hashes per tick.
    pub const DEFAULT_MAX_HASHES_PER_TICK: u64 = 8 * TickRules::MAINNET_HASHES_PER_TICK;
    /// 64 ticks of [`Self::DEFAULT_MAX_HASHES_PER_TICK`] (8 × mainnet's 4,000,000).
    pub const DEFAULT_MAX_SLOT_HASHES: u64 =
        TickRules::DEFAULT_TICKS_PER_SLOT * Self::DEFAULT_MAX_HASHES_PER_TICK;

    /// No bound at all (for callers that bound the work themselves).
    pub const UNLIMITED: Self = Self {
        max_hashes_per_tick: u64::MAX,
        max_slot_hashes: u64::MAX,
    };
}

impl HashLimits {
    /// The limits that apply under `rules`. With hashes per tick known, the tick rules
    /// bound the work themselves (no run of hashes since a tick may exceed hashes per tick,
    /// and at most `ticks_per_slot` ticks are taken, so a slot costs at most
    /// (`ticks_per_slot` + 1) × hashes per tick): [`Self::UNLIMITED`]. Otherwise `self`.
    pub fn under(&self, rules: &TickRules) -> Self {
        match rules.hashes_per_tick.filter(|&h| h > 0) {
            Some(_) => Self::UNLIMITED,
            None => *self,
        }
    }
}

impl Default for HashLimits {
    fn default() -> Self {
        Self {
            max_hashes_per_tick: Self::DEFAULT_MAX_HASHES_PER_TICK,
            max_slot_hashes: Self::DEFAULT_MAX_SLOT_HASHES,
        }
    }
}

/// Running hash counts of a chain of entries against [`HashLimits`]: hashes since the last
/// tick and in total. Counts saturate, so a `u64::MAX` entry stays over every limit.
#[derive(Debug, Clone, Copy, Default)]
pub struct HashTally {
    /// Hashes since the last tick (the pending tick's own included once it arrives).
    pub since_tick: u64,
    /// Hashes of every entry so far.
    pub total: u64,
}

impl HashTally {
    /// Counts the next entry; fails when the hashes since the last tick (checked first: one
    /// huge entry is named as such) or the slot total go over `limits`. A tick resets the count since the last tick.
    pub fn push(
        &mut self,
        num_hashes: u64,
        is_tick: bool,
        limits: &HashLimits,
    ) -> Result<(), PohDefect> {
        self.total = self.total.saturating_add(num_hashes);
        self.since_tick = self.since_tick.saturating_add(num_hashes);
        if self.since_tick > limits.max_hashes_per_tick {
            return Err(PohDefect::TickHashLimit {
                limit: limits.max_hashes_per_tick,
                found: self.since_tick,
            });
        }
        if self.total > limits.max_slot_hashes {
            return Err(PohDefect::SlotHashLimit {
                limit: limits.max_slot_hashes,
                found: self.total,
            });
        }
        if is_tick {
            self.since_tick = 0;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_mainnet_with_margin() {
        let l = HashLimits::default();
        assert_eq!(l.max_hashes_per_tick, 500_000);
        assert_eq!(l.max_slot_hashes, 32_000_000);
        // Known hashes per tick: the tick rules bound the work instead.
        assert_eq!(l.under(&TickRules::MAINNET), HashLimits::UNLIMITED);
        assert_eq!(l.under(&TickRules::default()), l);
    }

    #[test]
    fn a_huge_entry_fails_on_arrival_and_ticks_reset() {
        let limits = HashLimits {
            max_hashes_per_tick: 10,
            max_slot_hashes: 25,
        };
        let mut t = HashTally::default();
        assert_eq!(
            t.push(u64::MAX, false, &limits),
            Err(PohDefect::TickHashLimit {
                limit: 10,
                found: u64::MAX
            })
        );
        let mut t = HashTally::default();
        t.push(6, false, &limits).expect("under");
        t.push(4, true, &limits).expect("exactly the tick limit");
        t.push(10, true, &limits).expect("reset by the tick");
        assert_eq!(
            t.push(6, false, &limits),
            Err(PohDefect::SlotHashLimit {
                limit: 25,
                found: 26
            })
        );
        let mut t = HashTally::default();
        assert_eq!(
            t.push(11, true, &limits),
            Err(PohDefect::TickHashLimit {
                limit: 10,
                found: 11
            })
        );
    }
}
