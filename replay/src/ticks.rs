//! The tick rules of `docs/formats-entries.md#proof-of-history`, checked as a slot's entries arrive
//! batch by batch.
//!
//! `bstore_ledger::entry::verify_slot_ticks` checks a whole slot at once; replay sees a slot
//! in pieces and should refuse a 65th tick as soon as it arrives, not after the slot is
//! full. [`TickCheck`] gives the same verdicts at the same entry positions (a property test
//! below holds it to `verify_slot_ticks`).

use bstore_ledger::entry::{HashLimits, HashTally, PohDefect, TickRules};

/// A tick-rule failure at a slot-relative entry position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TickViolation {
    /// Position of the entry in the slot where the rule broke (0-based).
    pub entry: usize,
    /// Which rule broke, with the expected and found counts.
    pub defect: PohDefect,
}

/// Running tick state of one slot.
#[derive(Debug, Clone)]
pub struct TickCheck {
    ticks_per_slot: u64,
    /// `None` when hashes per tick are not checked (unset or 0, as Agave treats them).
    hashes_per_tick: Option<u64>,
    /// `HashLimits::under` the rules: every entry is counted against them first.
    limits: HashLimits,
    tally: HashTally,
    ticks: u64,
    hashes_since_tick: u64,
    entries: usize,
    last_is_tick: bool,
    /// Alpenglow: every entry hashes exactly this many times (1), checked first.
    exact_hashes: Option<u64>,
}

impl TickCheck {
    /// A check for a new slot, with the default [`HashLimits`].
    pub fn new(rules: &TickRules) -> Self {
        Self::with_limits(rules, &HashLimits::default())
    }

    /// A check for a new slot whose hash counts are bounded by `limits.under(rules)`.
    pub fn with_limits(rules: &TickRules, limits: &HashLimits) -> Self {
        Self {
            ticks_per_slot: rules.ticks_per_slot,
            hashes_per_tick: rules.hashes_per_tick.filter(|&h| h > 0),
            limits: limits.under(rules),
            tally: HashTally::default(),
            ticks: 0,
            hashes_since_tick: 0,
            entries: 0,
            last_is_tick: false,
            exact_hashes: None,
        }
    }

    /// A check for an Alpenglow block (`docs/block-components.md#replay`): every entry
    /// hashes exactly once (Agave's `InvalidTickHashCount` otherwise, reported as
    /// `HashesPerTick { expected: 1, .. }` before the entry is hashed), the bank starts one
    /// tick short of the slot's end so the block holds exactly one tick, and it is the
    /// last entry. The per-tick hash count is not checked.
    pub fn alpenglow() -> Self {
        let rules = TickRules {
            ticks_per_slot: 1,
            hashes_per_tick: None,
        };
        Self {
            exact_hashes: Some(1),
            ..Self::with_limits(&rules, &HashLimits::default())
        }
    }

    /// Ticks seen so far.
    pub fn ticks(&self) -> u64 {
        self.ticks
    }

    /// Takes the next entry of the slot. Needs only the entry's hash count, so it runs
    /// before the entry is hashed: an entry over the hash limits never gets hashed.
    pub fn push(&mut self, num_hashes: u64, is_tick: bool) -> Result<(), TickViolation> {
        let entry = self.entries;
        self.entries += 1;
        if let Some(expected) = self.exact_hashes
            && num_hashes != expected
        {
            return Err(TickViolation {
                entry,
                defect: PohDefect::HashesPerTick {
                    expected,
                    found: num_hashes,
                },
            });
        }
        self.tally
            .push(num_hashes, is_tick, &self.limits)
            .map_err(|defect| TickViolation { entry, defect })?;
        self.hashes_since_tick = self.hashes_since_tick.saturating_add(num_hashes);
        self.last_is_tick = is_tick;
        if !is_tick {
            // Already too many for the coming tick: fail now, before the entry is hashed.
            return match self.hashes_per_tick {
                Some(expected) if self.hashes_since_tick > expected => Err(TickViolation {
                    entry,
                    defect: PohDefect::HashesPerTick {
                        expected,
                        found: self.hashes_since_tick,
                    },
                }),
                _ => Ok(()),
            };
        }
        self.ticks += 1;
        if self.ticks > self.ticks_per_slot {
            return Err(TickViolation {
                entry,
                defect: PohDefect::TickCount {
                    expected: self.ticks_per_slot,
                    found: self.ticks,
                },
            });
        }
        if let Some(expected) = self.hashes_per_tick
            && self.hashes_since_tick != expected
        {
            return Err(TickViolation {
                entry,
                defect: PohDefect::HashesPerTick {
                    expected,
                    found: self.hashes_since_tick,
                },
            });
        }
        self.hashes_since_tick = 0;
        Ok(())
    }

    /// The slot is complete: it must end on a tick and hold exactly `ticks_per_slot` ticks
    /// (too few are reported one past the last entry, as `verify_slot_ticks` does).
    pub fn finish(&self) -> Result<(), TickViolation> {
        if self.entries > 0 && !self.last_is_tick {
            return Err(TickViolation {
                entry: self.entries - 1,
                defect: PohDefect::DoesNotEndOnTick,
            });
        }
        if self.ticks != self.ticks_per_slot {
            return Err(TickViolation {
                entry: self.entries,
                defect: PohDefect::TickCount {
                    expected: self.ticks_per_slot,
                    found: self.ticks,
                },
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use bstore_ledger::Hash;
    use bstore_ledger::entry::{Entry, verify_slot_ticks_with_limits};
    use proptest::prelude::*;

    use super::*;

    fn whole_slot(
        entries: &[(u64, bool)],
        rules: &TickRules,
        limits: &HashLimits,
    ) -> Result<(), TickViolation> {
        let mut check = TickCheck::with_limits(rules, limits);
        for &(n, tick) in entries {
            check.push(n, tick)?;
        }
        check.finish()
    }

    fn reference(
        entries: &[(u64, bool)],
        rules: &TickRules,
        limits: &HashLimits,
    ) -> Result<(), TickViolation> {
        let owned: Vec<Entry> = entries
            .iter()
            .map(|&(num_hashes, tick)| Entry {
                num_hashes,
                hash: Hash::default(),
                transactions: if tick {
                    Vec::new()
                } else {
                    vec![bstore_ledger::synth::vote(
                        &mut rand::rngs::mock::StepRng::new(1, 1),
                        Hash::default(),
                    )]
                },
            })
            .collect();
        match verify_slot_ticks_with_limits(&owned, rules, limits) {
            Ok(()) => Ok(()),
            Err(bstore_ledger::FormatError::Poh { entry, defect }) => {
                Err(TickViolation { entry, defect })
            }
            Err(other) => panic!("unexpected error {other}"),
        }
    }

    #[test]
    fn a_valid_slot_passes_and_a_65th_tick_fails_at_once() {
        let rules = TickRules {
            ticks_per_slot: 4,
            hashes_per_tick: Some(10),
        };
        let slot = [(4, false), (6, true), (10, true), (10, true), (10, true)];
        assert_eq!(whole_slot(&slot, &rules, &HashLimits::default()), Ok(()));
        let mut check = TickCheck::new(&rules);
        for &(n, t) in &slot {
            check.push(n, t).expect("valid so far");
        }
        assert_eq!(
            check.push(10, true),
            Err(TickViolation {
                entry: 5,
                defect: PohDefect::TickCount {
                    expected: 4,
                    found: 5
                }
            })
        );
    }

    #[test]
    fn alpenglow_one_hash_per_entry_and_one_final_tick() {
        let run = |entries: &[(u64, bool)]| {
            let mut check = TickCheck::alpenglow();
            for &(n, tick) in entries {
                check.push(n, tick)?;
            }
            check.finish()
        };
        assert_eq!(run(&[(1, false), (1, false), (1, true)]), Ok(()));
        let hashes = run(&[(1, false), (2, false), (1, true)]).expect_err("two hashes");
        assert_eq!(
            hashes,
            TickViolation {
                entry: 1,
                defect: PohDefect::HashesPerTick {
                    expected: 1,
                    found: 2
                }
            }
        );
        // u64::MAX hashes is refused before anything is hashed.
        assert!(run(&[(u64::MAX, false)]).is_err());
        let two_ticks = run(&[(1, true), (1, false), (1, true)]).expect_err("two ticks");
        assert_eq!(
            two_ticks.defect,
            PohDefect::TickCount {
                expected: 1,
                found: 2
            }
        );
        assert_eq!(
            run(&[(1, false)]).expect_err("no tick").defect,
            PohDefect::DoesNotEndOnTick
        );
    }

    proptest! {
        #[test]
        fn same_verdict_as_verify_slot_ticks(
            entries in proptest::collection::vec((0u64..12, any::<bool>()), 0..24),
            ticks_per_slot in 0u64..6,
            hashes_per_tick in proptest::option::of(0u64..12),
            max_hashes_per_tick in 0u64..30,
            max_slot_hashes in 0u64..150,
        ) {
            let rules = TickRules { ticks_per_slot, hashes_per_tick };
            let limits = HashLimits { max_hashes_per_tick, max_slot_hashes };
            prop_assert_eq!(
                whole_slot(&entries, &rules, &limits),
                reference(&entries, &rules, &limits)
            );
        }
    }
}
