//! The tick rules of a full slot (`docs/formats-entries.md#proof-of-history`): how many ticks, how
//! many hashes between
//! ticks, and that the slot ends on a tick.

use super::PohDefect;
use super::limits::{HashLimits, HashTally};
use super::poh::PohEntry;
use crate::error::FormatError;

/// Tick rules of a cluster.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TickRules {
    /// Ticks in a full slot (64 on every public cluster).
    pub ticks_per_slot: u64,
    /// Hashes from one tick to the next, counting the tick's own; `None` (or `Some(0)`,
    /// which Agave treats alike) skips the check, as for a low-power development cluster.
    pub hashes_per_tick: Option<u64>,
}

impl TickRules {
    /// Ticks in a slot on mainnet-beta, testnet and devnet.
    pub const DEFAULT_TICKS_PER_SLOT: u64 = 64;
    /// Hashes per tick on mainnet-beta and testnet (4,000,000 hashes per 64-tick slot).
    pub const MAINNET_HASHES_PER_TICK: u64 = 62_500;

    /// 64 ticks of 62,500 hashes.
    pub const MAINNET: Self = Self {
        ticks_per_slot: Self::DEFAULT_TICKS_PER_SLOT,
        hashes_per_tick: Some(Self::MAINNET_HASHES_PER_TICK),
    };

    /// The rules for the block of `slot` built on `parent`: PoH runs on through skipped
    /// slots, so the block holds the ticks of every slot after its parent, `ticks_per_slot`
    /// times `slot - parent` (Agave: the bank's tick height starts at the parent's maximum,
    /// `(parent + 1) * ticks_per_slot`, and ends at `(slot + 1) * ticks_per_slot`). A parent
    /// not below the slot counts as the slot before it.
    pub fn for_block(&self, slot: u64, parent: u64) -> Self {
        let slots = slot.saturating_sub(parent).max(1);
        Self {
            ticks_per_slot: self.ticks_per_slot.saturating_mul(slots),
            hashes_per_tick: self.hashes_per_tick,
        }
    }
}

impl Default for TickRules {
    /// 64 ticks, hashes per tick unchecked.
    fn default() -> Self {
        Self {
            ticks_per_slot: Self::DEFAULT_TICKS_PER_SLOT,
            hashes_per_tick: None,
        }
    }
}

/// Checks a full slot's entries against `rules`: exactly `ticks_per_slot` ticks, with
/// `hashes_per_tick` set the `num_hashes` of each tick and the entries since the previous
/// tick sum to it, and the last entry is a tick. Errors are `FormatError::Poh` with the
/// 0-based position of the offending entry; too few ticks are reported one past the last
/// entry. Hash counts are bounded by the default [`HashLimits`] (see
/// [`verify_slot_ticks_with_limits`]).
pub fn verify_slot_ticks<E: PohEntry>(
    entries: impl IntoIterator<Item = E>,
    rules: &TickRules,
) -> crate::Result<()> {
    verify_slot_ticks_with_limits(entries, rules, &HashLimits::default())
}

/// [`verify_slot_ticks`] with explicit bounds. Each entry is first counted against
/// `limits.under(rules)` (no bound when hashes per tick are known: the tick rules bound the
/// work then, failing as soon as the hashes since the last tick exceed hashes per tick):
/// hashes since the last tick above the limit fail with `TickHashLimit` at the entry that
/// crosses it, a slot total above the limit with `SlotHashLimit`; both before any other
/// rule is looked at for that entry.
pub fn verify_slot_ticks_with_limits<E: PohEntry>(
    entries: impl IntoIterator<Item = E>,
    rules: &TickRules,
    limits: &HashLimits,
) -> crate::Result<()> {
    let hashes_per_tick = rules.hashes_per_tick.filter(|&h| h > 0);
    let limits = limits.under(rules);
    let mut tally = HashTally::default();
    let fail = |entry, defect| Err(FormatError::Poh { entry, defect });
    let mut ticks = 0u64;
    let mut hashes_since_tick = 0u64;
    let mut count = 0usize;
    let mut last_is_tick = false;
    for (i, entry) in entries.into_iter().enumerate() {
        count = i + 1;
        if let Err(defect) = tally.push(entry.num_hashes(), entry.is_tick(), &limits) {
            return fail(i, defect);
        }
        hashes_since_tick = hashes_since_tick.saturating_add(entry.num_hashes());
        last_is_tick = entry.is_tick();
        if !last_is_tick {
            // Already too many for the coming tick: fail now, before anyone hashes more.
            if let Some(expected) = hashes_per_tick
                && hashes_since_tick > expected
            {
                return fail(
                    i,
                    PohDefect::HashesPerTick {
                        expected,
                        found: hashes_since_tick,
                    },
                );
            }
            continue;
        }
        ticks += 1;
        if ticks > rules.ticks_per_slot {
            return fail(
                i,
                PohDefect::TickCount {
                    expected: rules.ticks_per_slot,
                    found: ticks,
                },
            );
        }
        if let Some(expected) = hashes_per_tick
            && hashes_since_tick != expected
        {
            return fail(
                i,
                PohDefect::HashesPerTick {
                    expected,
                    found: hashes_since_tick,
                },
            );
        }
        hashes_since_tick = 0;
    }
    if count > 0 && !last_is_tick {
        return fail(count - 1, PohDefect::DoesNotEndOnTick);
    }
    if ticks != rules.ticks_per_slot {
        return fail(
            count,
            PohDefect::TickCount {
                expected: rules.ticks_per_slot,
                found: ticks,
            },
        );
    }
    Ok(())
}
