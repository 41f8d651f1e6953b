//! The ledger's ends (highest and lowest root, highest slot, highest optimistically
//! confirmed slot, first available block),
//! remembered while the store's view of the ledger cannot change.
//!
//! A read-only store never changes and a secondary changes only when it catches up, so
//! between two catch-ups each of these values is read from the columns once and then
//! served from memory: an RPC request no longer seeks to both ends of the `root` and `meta`
//! columns (a reverse seek over the memtables is the costly part of a small request). A
//! read-write store is changed by its own writes, so nothing is remembered for it.
//!
//! Invariant: a remembered value is tagged with the catch-up generation current when it
//! was asked for; the generation moves on after every catch-up, before the call returns,
//! so a request that starts after a catch-up never sees a value read before it. (A value
//! read during a catch-up may be newer than its tag; a request of the older generation
//! then gets the newer value, which it could have read itself.)

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::types::Slot;

/// What is remembered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LedgerEnd {
    /// The highest rooted slot.
    MaxRoot,
    /// The lowest rooted slot.
    LowestRoot,
    /// The highest slot with a meta.
    HighestSlot,
    /// RPC's first available block (computed by the caller from the columns).
    FirstAvailableBlock,
    /// The highest slot in `optimistic_slots`.
    HighestOptimisticSlot,
}

const ENDS: usize = 5;

/// The memo itself (one per store).
#[derive(Debug, Default)]
pub(super) struct EndsMemo {
    /// Catch-ups completed (or attempted: a failed one may have moved the view too).
    generation: AtomicU64,
    /// The generation the values belong to, and each value once read.
    values: Mutex<(u64, [Option<Option<Slot>>; ENDS])>,
    /// RPC's confirmed chain (see [`ChainKey`]) with the generation it was read in.
    chain: Mutex<Option<RememberedChain>>,
}

/// A remembered chain: the generation it was read in, its key, its slots.
type RememberedChain = (u64, ChainKey, Arc<[Slot]>);

/// What RPC's confirmed chain (the confirmed tip and its unrooted ancestors) was computed
/// from, besides the view: the confirmed window and the tip the caller found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChainKey {
    /// The confirmed window, in slots.
    pub window: u64,
    /// The confirmed tip the chain descends from.
    pub tip: Option<Slot>,
}

impl EndsMemo {
    /// The slots `read` computes for `key`: remembered when `stable`, for the current
    /// generation and that key only; else read every time. A failed read is not kept.
    pub(super) fn chain<Err>(
        &self,
        stable: bool,
        key: ChainKey,
        read: impl FnOnce() -> Result<Vec<Slot>, Err>,
    ) -> Result<Arc<[Slot]>, Err> {
        if !stable {
            return Ok(read()?.into());
        }
        let generation = self.generation.load(Ordering::Acquire);
        {
            let chain = self.chain.lock().unwrap_or_else(|p| p.into_inner());
            if let Some((g, k, slots)) = chain.as_ref()
                && *g == generation
                && *k == key
            {
                return Ok(Arc::clone(slots));
            }
        }
        let slots: Arc<[Slot]> = read()?.into();
        let mut chain = self.chain.lock().unwrap_or_else(|p| p.into_inner());
        if chain.as_ref().is_none_or(|(g, _, _)| *g <= generation) {
            *chain = Some((generation, key, Arc::clone(&slots)));
        }
        Ok(slots)
    }

    /// A catch-up has just run: everything remembered is stale.
    pub(super) fn advance(&self) {
        self.generation.fetch_add(1, Ordering::AcqRel);
    }

    /// `end`'s value: remembered when `stable` (the view can change only by catching up),
    /// else read every time.
    pub(super) fn get<Err>(
        &self,
        stable: bool,
        end: LedgerEnd,
        read: impl FnOnce() -> Result<Option<Slot>, Err>,
    ) -> Result<Option<Slot>, Err> {
        if !stable {
            return read();
        }
        let generation = self.generation.load(Ordering::Acquire);
        let i = end as usize;
        {
            let values = self.values.lock().unwrap_or_else(|p| p.into_inner());
            if values.0 == generation
                && let Some(v) = values.1[i]
            {
                return Ok(v);
            }
        }
        let v = read()?;
        let mut values = self.values.lock().unwrap_or_else(|p| p.into_inner());
        if values.0 < generation {
            *values = (generation, [None; ENDS]);
        }
        if values.0 == generation {
            values.1[i] = Some(v);
        }
        Ok(v)
    }
}
