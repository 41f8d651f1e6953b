//! What the ledger says about slots, in RPC terms. bstore has no banks and no votes, so
//! commitment is read from the blockstore alone:
//!
//! - **finalized**: rooted slots (the `root` column); the tip is the highest root.
//! - **confirmed**: rooted slots, plus the unrooted slots above the highest root, within
//!   the confirmed window (the `window` slots up to the highest stored slot), that the
//!   validator's `optimistic_slots` rows confirm: the highest recorded slot holding a full,
//!   not-dead block and its ancestors (`chain/confirmed.rs`). A ledger with no such row
//!   (its writer records no votes) counts every full, not-dead slot there.
//! - **processed** (only `getSlot` and statuses' context use it): the highest full,
//!   not-dead slot above the highest root, within the window.
//!
//! A block is *available* when its slot is full and not dead and it is part of the
//! requested commitment. Errors for unavailable slots follow Agave's order: at or above the
//! highest root it is "not available"; between two roots and not rooted it was "skipped";
//! below the first available block it was "cleaned up".
//!
//! Scan bounds (each query's cost is bounded whatever the ledger holds): unrooted metas are
//! read only inside the confirmed window; `getBlocks` spans at most `MAX_BLOCKS_RANGE`
//! slots and `getBlocksWithLimit` looks at most `MAX_BLOCKS_RANGE` slots past its start;
//! `first_available_block` reads at most `FIRST_BLOCK_SCAN` metas; a block height walks
//! at most `MAX_HEIGHT_WALK` parents.
//!
//! One `Chain` serves one request: the highest root, the highest stored slot, the lowest
//! root and the first available block are read once and kept for the request's lifetime,
//! so every step of an answer sees the same ledger tip (a secondary catching up between
//! two steps cannot make one answer mix two tips) and an answer of N entries does not seek
//! N times to the ends of the `root` and `meta` columns. On a secondary (or read-only)
//! store the blockstore itself remembers them between catch-ups
//! (`Blockstore::remembered_end`), so most requests read none of them from the columns.

use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::Bound;
use std::sync::Arc;

use bstore_ledger::Slot;
use bstore_ledger::store::{Blockstore, DefaultEngine, KvEngine, LedgerEnd, SlotMeta};

use crate::error::RpcError;
use crate::params::Commitment;

mod confirmed;

use confirmed::ConfirmedBy;

/// Agave's `MAX_GET_CONFIRMED_BLOCKS_RANGE`: the most slots `getBlocks` spans.
pub(crate) const MAX_BLOCKS_RANGE: u64 = 500_000;

/// How many metas `first_available_block` looks at for the lowest slot that received
/// shreds (placeholder metas of absent parents come first) before falling back to the
/// highest root.
const FIRST_BLOCK_SCAN: usize = 1024;

/// Slots whose facts one request remembers at most ([`Chain::counts`],
/// [`Chain::block_time`]); past it, facts are read again each time (a bound on memory, not
/// on correctness).
const MEMO_SLOTS: usize = 4096;

/// A slot that may be served: its meta and where it stands.
#[derive(Debug, Clone)]
pub(crate) struct Available {
    pub meta: SlotMeta,
    /// Whether the slot is rooted (else it is confirmed, above the highest root).
    pub rooted: bool,
}

/// Ledger queries for the RPC methods, for one request (see the module docs: the ledger's
/// ends are read once per `Chain`), over any storage engine `E`.
#[derive(Debug)]
pub(crate) struct Chain<'a, E: KvEngine = DefaultEngine> {
    store: &'a Blockstore<E>,
    /// `Limits::confirmed_window_slots` (at least 1).
    window: u64,
    /// Read on first use, then fixed for this request.
    max_root: OnceCell<Option<Slot>>,
    highest_slot: OnceCell<Option<Slot>>,
    lowest_root: OnceCell<Option<Slot>>,
    first_available: OnceCell<Slot>,
    /// How the ledger tells confirmed slots, and the confirmed tip (`confirmed.rs`).
    confirmed_by: OnceCell<ConfirmedBy>,
    /// The confirmed unrooted slots by votes, ascending (`confirmed.rs`).
    confirmed_chain: OnceCell<Arc<[Slot]>>,
    /// Per-slot facts read during this request (at most [`MEMO_SLOTS`] slots).
    slots: RefCell<HashMap<Slot, SlotFacts, BuildHasherDefault<SlotHasher>>>,
}

/// Hashes a slot number with one multiplication (SipHash, the default, took more than the
/// rest of each lookup). The slots of a request are the ledger's or a range's, never a
/// client's chosen set, and the table holds at most [`MEMO_SLOTS`] of them.
#[derive(Debug, Default)]
struct SlotHasher(u64);

impl Hasher for SlotHasher {
    fn finish(&self) -> u64 {
        // The product's high bits depend on every bit of the slot; the table indexes by the
        // low bits, so they are rotated down.
        self.0.rotate_left(26)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// What one request learned about one slot; `None`: not read yet.
#[derive(Debug, Clone, Copy, Default)]
struct SlotFacts {
    rooted: Option<bool>,
    confirmed: Option<bool>,
    block_time: Option<Option<i64>>,
}

/// The value in `cell`, read by `read` on first use. A failed read is not kept: the next
/// call reads again.
fn memo<T: Copy>(
    cell: &OnceCell<T>,
    read: impl FnOnce() -> Result<T, RpcError>,
) -> Result<T, RpcError> {
    if let Some(v) = cell.get() {
        return Ok(*v);
    }
    let v = read()?;
    Ok(*cell.get_or_init(|| v))
}

impl<'a, E: KvEngine> Chain<'a, E> {
    /// Queries over `store`; unrooted slots count as confirmed (or processed) only within
    /// `window` slots of the highest stored slot.
    pub(crate) fn new(store: &'a Blockstore<E>, window: u64) -> Self {
        Self {
            store,
            window: window.max(1),
            max_root: OnceCell::new(),
            highest_slot: OnceCell::new(),
            lowest_root: OnceCell::new(),
            first_available: OnceCell::new(),
            confirmed_by: OnceCell::new(),
            confirmed_chain: OnceCell::new(),
            slots: RefCell::new(HashMap::default()),
        }
    }

    /// The fact `pick` selects about `slot`, read by `read` on first use in this request.
    fn slot_fact<T: Copy>(
        &self,
        slot: Slot,
        pick: fn(&mut SlotFacts) -> &mut Option<T>,
        read: impl FnOnce() -> Result<T, RpcError>,
    ) -> Result<T, RpcError> {
        if let Some(v) = self
            .slots
            .borrow_mut()
            .get_mut(&slot)
            .and_then(|f| *pick(f))
        {
            return Ok(v);
        }
        let v = read()?;
        let mut slots = self.slots.borrow_mut();
        if slots.len() < MEMO_SLOTS || slots.contains_key(&slot) {
            *pick(slots.entry(slot).or_default()) = Some(v);
        }
        Ok(v)
    }

    /// Whether `slot` is rooted (read once per request).
    pub(crate) fn is_root(&self, slot: Slot) -> Result<bool, RpcError> {
        self.slot_fact(slot, |f| &mut f.rooted, || Ok(self.store.is_root(slot)?))
    }

    /// Whether a transaction in `slot` counts at `commitment` (Agave's rule for statuses
    /// and address signatures): the slot is rooted, or at `confirmed` it is available as a
    /// confirmed block. Read once per request.
    pub(crate) fn counts(&self, slot: Slot, commitment: Commitment) -> Result<bool, RpcError> {
        if self.is_root(slot)? {
            return Ok(true);
        }
        if commitment != Commitment::Confirmed {
            return Ok(false);
        }
        self.slot_fact(
            slot,
            |f| &mut f.confirmed,
            || Ok(self.available(slot, Commitment::Confirmed).is_ok()),
        )
    }

    /// Reads the block times of `slots` not yet known in one multi-get, for
    /// [`Self::block_time`] to answer from memory.
    pub(crate) fn read_block_times(&self, slots: &[Slot]) -> Result<(), RpcError> {
        let mut unknown: Vec<Slot> = {
            let known = self.slots.borrow();
            slots
                .iter()
                .copied()
                .filter(|s| known.get(s).is_none_or(|f| f.block_time.is_none()))
                .collect()
        };
        unknown.sort_unstable();
        unknown.dedup();
        unknown.truncate(MEMO_SLOTS);
        let times = self.store.block_times(&unknown)?;
        let mut known = self.slots.borrow_mut();
        for (slot, time) in unknown.into_iter().zip(times) {
            if known.len() < MEMO_SLOTS || known.contains_key(&slot) {
                known.entry(slot).or_default().block_time = Some(time);
            }
        }
        Ok(())
    }

    /// The slot's block time (read once per request).
    pub(crate) fn block_time(&self, slot: Slot) -> Result<Option<i64>, RpcError> {
        self.slot_fact(
            slot,
            |f| &mut f.block_time,
            || Ok(self.store.block_time(slot)?),
        )
    }

    /// The highest rooted slot (read once per request).
    pub(crate) fn max_root(&self) -> Result<Option<Slot>, RpcError> {
        memo(&self.max_root, || Ok(self.store.max_root()?))
    }

    /// The highest slot with a meta (read once per request).
    fn highest_slot(&self) -> Result<Option<Slot>, RpcError> {
        memo(&self.highest_slot, || Ok(self.store.highest_slot()?))
    }

    /// The lowest rooted slot (read once per request).
    fn lowest_root(&self) -> Result<Option<Slot>, RpcError> {
        memo(&self.lowest_root, || Ok(self.store.lowest_root()?))
    }

    pub(crate) fn store(&self) -> &'a Blockstore<E> {
        self.store
    }

    /// The exclusive lower bound of confirmed unrooted slots: the highest root, raised to
    /// just below the window. `None`: every slot may count (nothing rooted, short ledger).
    fn confirmed_floor(&self, max_root: Option<Slot>) -> Result<Option<Slot>, RpcError> {
        let window_floor = self
            .highest_slot()?
            .and_then(|h| h.0.checked_sub(self.window))
            .map(Slot);
        Ok(max_root.max(window_floor))
    }

    fn is_servable(&self, meta: &SlotMeta) -> Result<bool, RpcError> {
        Ok(meta.is_full() && !self.store.is_dead(meta.slot)?)
    }

    /// The highest slot at `commitment`, if any slot qualifies: the highest root
    /// (finalized); the confirmed tip (`confirmed.rs`), else the highest root (confirmed);
    /// the highest full, not-dead slot above the root, else the highest root (processed).
    pub(crate) fn tip(&self, commitment: Commitment) -> Result<Option<Slot>, RpcError> {
        let max_root = self.max_root()?;
        let votes = match commitment {
            Commitment::Finalized => return Ok(max_root),
            Commitment::Confirmed => self.confirmed_by()?,
            Commitment::Processed => ConfirmedBy::FullSlots,
        };
        let above = match votes {
            ConfirmedBy::Votes(tip) => tip,
            ConfirmedBy::FullSlots => self
                .full_slots_above(max_root, None, usize::MAX)?
                .last()
                .copied(),
        };
        Ok(above.or(max_root))
    }

    /// Confirmed unrooted slots above `after` and the confirmed floor, at most `end`,
    /// ascending, at most `limit` of them (`confirmed.rs` says which count).
    fn confirmed_above(
        &self,
        after: Option<Slot>,
        end: Option<Slot>,
        limit: usize,
    ) -> Result<Vec<Slot>, RpcError> {
        match self.confirmed_chain()? {
            Some(chain) => Ok(chain
                .iter()
                .copied()
                .filter(|s| after.is_none_or(|a| *s > a) && end.is_none_or(|e| *s <= e))
                .take(limit)
                .collect()),
            None => self.full_slots_above(after, end, limit),
        }
    }

    /// Full, not-dead, unrooted slots above `after` and the confirmed floor, at most `end`,
    /// ascending, at most `limit` of them. Reads at most `window` metas.
    fn full_slots_above(
        &self,
        after: Option<Slot>,
        end: Option<Slot>,
        limit: usize,
    ) -> Result<Vec<Slot>, RpcError> {
        let max_root = self.max_root()?;
        let floor = self.confirmed_floor(max_root)?.max(after);
        let lower = floor.map_or(Bound::Unbounded, Bound::Excluded);
        let upper = end.map_or(Bound::Unbounded, Bound::Included);
        let mut out = Vec::new();
        for meta in self.store.slot_metas((lower, upper)) {
            if out.len() >= limit {
                break;
            }
            let meta = meta?;
            if self.is_servable(&meta)? {
                out.push(meta.slot);
            }
        }
        Ok(out)
    }

    /// Agave's `get_first_available_block`: from the lowest slot that received shreds, the
    /// first root if it is genesis (slot 0), else the second root — the first root's block
    /// can never be complete, its parent's blockhash is not in the ledger. 0 when there is
    /// no such root. Reads at most `FIRST_BLOCK_SCAN` metas, once per request.
    pub(crate) fn first_available_block(&self) -> Result<Slot, RpcError> {
        memo(&self.first_available, || {
            let first = self
                .store
                .remembered_end(LedgerEnd::FirstAvailableBlock, || {
                    self.read_first_available_block().map(Some)
                })?;
            Ok(first.unwrap_or_default())
        })
    }

    fn read_first_available_block(&self) -> Result<Slot, RpcError> {
        let mut lowest = None;
        for meta in self.store.slot_metas(..).take(FIRST_BLOCK_SCAN) {
            let meta = meta?;
            if meta.received > 0 {
                lowest = Some(meta.slot);
                break;
            }
        }
        let Some(lowest) = lowest.or(self.max_root()?) else {
            return Ok(Slot(0));
        };
        let mut roots = self.store.rooted_slots(lowest..);
        let first = roots.next().transpose()?.unwrap_or_default();
        if first == Slot(0) {
            return Ok(first);
        }
        Ok(roots.next().transpose()?.unwrap_or_default())
    }

    /// The block at `slot` if it is available at `commitment`, else the error Agave gives.
    pub(crate) fn available(
        &self,
        slot: Slot,
        commitment: Commitment,
    ) -> Result<Available, RpcError> {
        let max_root = self.max_root()?;
        let rooted = self.is_root(slot)?;
        let confirmed_floor = self.confirmed_floor(max_root)?;
        let above_root = confirmed_floor.is_none_or(|f| slot > f);
        if let Some(meta) = self.store.meta(slot)?
            && self.is_servable(&meta)?
            && (rooted
                || (commitment != Commitment::Finalized
                    && above_root
                    && self.confirmed_unrooted(slot)?))
        {
            // Agave's `check_slot_cleaned_up` runs on every rooted answer.
            let first_available = self.first_available_block()?;
            if rooted && slot < first_available {
                return Err(RpcError::BlockCleanedUp {
                    slot,
                    first_available,
                });
            }
            return Ok(Available { meta, rooted });
        }
        Err(self.unavailable(slot, max_root, rooted)?)
    }

    /// Agave's `check_blockstore_root` then `check_slot_cleaned_up`, in that order.
    fn unavailable(
        &self,
        slot: Slot,
        max_root: Option<Slot>,
        rooted: bool,
    ) -> Result<RpcError, RpcError> {
        let Some(max_root) = max_root else {
            return Ok(RpcError::BlockNotAvailable { slot });
        };
        if slot >= max_root {
            return Ok(RpcError::BlockNotAvailable { slot });
        }
        let lowest_root = self.lowest_root()?.unwrap_or_default();
        if !rooted && slot > lowest_root {
            return Ok(RpcError::SlotSkipped { slot });
        }
        let first_available = self.first_available_block()?;
        if slot < first_available {
            return Ok(RpcError::BlockCleanedUp {
                slot,
                first_available,
            });
        }
        Ok(RpcError::BlockNotAvailable { slot })
    }

    /// `getBlocks`: available slots in `start..=end` (end defaults to start + 500,000 and
    /// is capped by the commitment's tip).
    pub(crate) fn blocks(
        &self,
        start: Slot,
        end: Option<Slot>,
        commitment: Commitment,
    ) -> Result<Vec<Slot>, RpcError> {
        let max_root = self.max_root()?;
        let tip = match commitment {
            Commitment::Finalized => max_root,
            _ => self.tip(commitment)?,
        };
        let Some(tip) = tip else {
            return Ok(Vec::new());
        };
        let end = end
            .unwrap_or(Slot(start.0.saturating_add(MAX_BLOCKS_RANGE)))
            .min(tip);
        if end < start {
            return Ok(Vec::new());
        }
        if end.0 - start.0 > MAX_BLOCKS_RANGE {
            return Err(RpcError::invalid_params(format!(
                "Slot range too large; max {MAX_BLOCKS_RANGE}"
            )));
        }
        let from = start.max(self.first_available_block()?);
        let mut out = self.servable_roots(from, Some(end), usize::MAX)?;
        if commitment != Commitment::Finalized {
            let after = out.last().copied().max(max_root);
            out.extend(
                self.confirmed_above(after, Some(end), usize::MAX)?
                    .into_iter()
                    .filter(|s| *s >= start),
            );
        }
        Ok(out)
    }

    /// `getBlocksWithLimit`: up to `limit` available slots in `start ..= start +
    /// MAX_BLOCKS_RANGE` (the bound keeps a run of roots without blocks from making the
    /// scan unbounded).
    pub(crate) fn blocks_with_limit(
        &self,
        start: Slot,
        limit: usize,
        commitment: Commitment,
    ) -> Result<Vec<Slot>, RpcError> {
        if limit as u64 > MAX_BLOCKS_RANGE {
            return Err(RpcError::invalid_params(format!(
                "Limit too large; max {MAX_BLOCKS_RANGE}"
            )));
        }
        let from = start.max(self.first_available_block()?);
        let end = Slot(start.0.saturating_add(MAX_BLOCKS_RANGE));
        let mut out = self.servable_roots(from, Some(end), limit)?;
        if commitment != Commitment::Finalized && out.len() < limit {
            // Unrooted candidates start after the last root served and at `start`.
            let below_start = start.0.checked_sub(1).map(Slot);
            let after = out.last().copied().max(self.max_root()?).max(below_start);
            out.extend(self.confirmed_above(after, Some(end), limit - out.len())?);
        }
        Ok(out)
    }

    /// Rooted slots from `from` (to `end`) that hold a full, live block, at most `limit`.
    /// Roots with no block (a snapshot slot) are not blocks, as in Agave's ledger.
    fn servable_roots(
        &self,
        from: Slot,
        end: Option<Slot>,
        limit: usize,
    ) -> Result<Vec<Slot>, RpcError> {
        let upper = end.map_or(Bound::Unbounded, Bound::Included);
        let mut out = Vec::new();
        for root in self.store.rooted_slots((Bound::Included(from), upper)) {
            if out.len() >= limit {
                break;
            }
            let root = root?;
            if let Some(meta) = self.store.meta(root)?
                && self.is_servable(&meta)?
            {
                out.push(root);
            }
        }
        Ok(out)
    }

    /// The block height of `slot`: its `block_height` column, else that of its nearest
    /// ancestor that has one plus the number of blocks between them (each parent link is
    /// one block). `None` when no ancestor within `MAX_HEIGHT_WALK` links has one.
    pub(crate) fn block_height(&self, slot: Slot) -> Result<Option<u64>, RpcError> {
        const MAX_HEIGHT_WALK: u64 = 1024;
        let mut current = slot;
        for distance in 0..=MAX_HEIGHT_WALK {
            if let Some(h) = self.store.block_height(current)? {
                return Ok(h.checked_add(distance));
            }
            match self.store.meta(current)?.and_then(|m| m.parent_slot) {
                Some(parent) if parent < current => current = parent,
                _ => return Ok(None),
            }
        }
        Ok(None)
    }
}
