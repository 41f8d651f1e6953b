//! Which unrooted slots are `confirmed`, from the ledger alone.
//!
//! Agave's RPC answers `confirmed` from its optimistically confirmed bank: the highest slot
//! whose votes passed two thirds of the stake (once its bank is frozen), and, for blocks and
//! statuses, that bank's ancestors (`status_cache_ancestors`). Its vote listener records
//! each such slot in the ledger's `optimistic_slots` column right after it tells the RPC, so
//! bstore reads the same view there:
//!
//! - **Votes** (the writer records `optimistic_slots`: an Agave validator, with Alpenglow
//!   off or on): the confirmed tip is the highest recorded slot above the confirmed floor
//!   that holds a full, not-dead block; the confirmed unrooted slots are that tip and its
//!   ancestors above the floor, by parent links. A full slot of another fork is not
//!   confirmed, as in Agave.
//! - **Full slots** (the column is empty: a ledger bstore wrote, or a writer that records
//!   no votes): every full, not-dead slot above the floor counts, as before.
//!
//! The floor is the highest root, raised to the bottom of the confirmed window, so both
//! reads are bounded by the window. The tip is read once per request; the ancestor walk
//! (one meta per slot between the tip and the root) only when a request asks whether an
//! unrooted slot is confirmed, and on a secondary once per catch-up for a given tip
//! (`Blockstore::remembered_chain`).

use std::ops::Bound;

use bstore_ledger::Slot;
use bstore_ledger::store::{ChainKey, KvEngine};

use super::Chain;
use crate::error::RpcError;

/// How the ledger tells the confirmed unrooted slots apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ConfirmedBy {
    /// By `optimistic_slots`: the tip, if a recorded slot above the floor holds a block.
    Votes(Option<Slot>),
    /// By being full and not dead (nothing recorded in `optimistic_slots`).
    FullSlots,
}

impl<E: KvEngine> Chain<'_, E> {
    /// How this ledger tells confirmed slots, with the confirmed tip (read once per request).
    pub(super) fn confirmed_by(&self) -> Result<ConfirmedBy, RpcError> {
        if let Some(by) = self.confirmed_by.get() {
            return Ok(*by);
        }
        let by = self.read_confirmed_by()?;
        Ok(*self.confirmed_by.get_or_init(|| by))
    }

    fn read_confirmed_by(&self) -> Result<ConfirmedBy, RpcError> {
        let Some(highest) = self.store.highest_optimistic_slot()? else {
            return Ok(ConfirmedBy::FullSlots);
        };
        let floor = self.confirmed_floor(self.max_root()?)?;
        let lower = floor.map_or(Bound::Unbounded, Bound::Excluded);
        // A recorded slot whose block is not full yet (votes seen before the block was
        // replayed) is not the tip: Agave's tracker waits for the bank to freeze.
        for slot in self
            .store
            .optimistic_slots_rev((lower, Bound::Included(highest)))
            .take(self.window_len())
        {
            let slot = slot?;
            if let Some(meta) = self.store.meta(slot)?
                && self.is_servable(&meta)?
            {
                return Ok(ConfirmedBy::Votes(Some(slot)));
            }
        }
        Ok(ConfirmedBy::Votes(None))
    }

    /// The confirmed unrooted slots above the floor, ascending: by votes the tip and its
    /// ancestors (read once per request, and on a secondary once per catch-up for the same
    /// tip: `Blockstore::remembered_chain`); `None` when every full, not-dead slot counts.
    pub(super) fn confirmed_chain(&self) -> Result<Option<&[Slot]>, RpcError> {
        let ConfirmedBy::Votes(tip) = self.confirmed_by()? else {
            return Ok(None);
        };
        if self.confirmed_chain.get().is_none() {
            let key = ChainKey {
                window: self.window,
                tip,
            };
            let chain = self
                .store
                .remembered_chain(key, || self.read_ancestors(tip))?;
            let _ = self.confirmed_chain.set(chain);
        }
        Ok(self.confirmed_chain.get().map(|c| &c[..]))
    }

    /// `tip` and its ancestors above the confirmed floor, ascending (at most the window's
    /// length of them; a parent link that does not go down ends the walk).
    fn read_ancestors(&self, tip: Option<Slot>) -> Result<Vec<Slot>, RpcError> {
        let floor = self.confirmed_floor(self.max_root()?)?;
        let above = |slot: Slot| floor.is_none_or(|f| slot > f);
        let mut chain = Vec::new();
        let mut next = tip.filter(|s| above(*s));
        while let Some(slot) = next {
            chain.push(slot);
            if chain.len() >= self.window_len() {
                break;
            }
            next = match self.store.meta(slot)?.and_then(|m| m.parent_slot) {
                Some(parent) if parent < slot && above(parent) => Some(parent),
                _ => None,
            };
        }
        chain.reverse();
        Ok(chain)
    }

    /// Whether unrooted `slot` (above the floor, servable) is confirmed.
    pub(super) fn confirmed_unrooted(&self, slot: Slot) -> Result<bool, RpcError> {
        Ok(match self.confirmed_chain()? {
            Some(chain) => chain.binary_search(&slot).is_ok(),
            None => true,
        })
    }

    /// The window's length in slots, as a count.
    fn window_len(&self) -> usize {
        usize::try_from(self.window).unwrap_or(usize::MAX)
    }
}
