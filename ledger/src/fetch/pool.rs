//! Feature `fetch-pool`: a bounded rayon pool that deshreds + decodes the ranges of one fetch
//! in parallel, for callers that ask for it (e.g. an RPC node serving large slots).
//!
//! The multi-get, the completed-range plan and the missing-shred check still run on the
//! caller's thread; only the per-range deshred + decode fans out. The pool's size is the
//! caller's choice (default [`FetchPool::DEFAULT_THREADS`]) and is never derived from the core
//! count. Replay should not share a pool with RPC readers: a pool is a plain value, so each
//! consumer owns its own.

use std::num::NonZeroUsize;
use std::ops::Range;

use rayon::prelude::*;

use crate::entry::Entry;
use crate::error::{LedgerError, Result};
use crate::fetch::decode::{Component, decode_component};
use crate::fetch::store_fetch::check_ranges;
use crate::fetch::{AllowDead, SlotEntries, deshred_into};
use crate::store::{Blockstore, KvEngine};
use crate::types::{ShredIndex, Slot};

/// A bounded pool of fetch workers.
#[derive(Debug)]
pub struct FetchPool {
    pool: rayon::ThreadPool,
    threads: usize,
}

impl FetchPool {
    /// The default size: small, and independent of the machine.
    pub const DEFAULT_THREADS: usize = 2;

    /// A pool of exactly `threads` workers named `{name}-{i}`.
    pub fn new(threads: NonZeroUsize, name: &str) -> Result<Self> {
        let prefix = name.to_string();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.get())
            .thread_name(move |i| format!("{prefix}-{i}"))
            .build()
            .map_err(|e| LedgerError::PoolBuild {
                name: name.to_string(),
                source: Box::new(e),
            })?;
        Ok(Self {
            pool,
            threads: threads.get(),
        })
    }

    /// Number of workers.
    pub fn threads(&self) -> usize {
        self.threads
    }
}

impl<E: KvEngine> Blockstore<E> {
    /// `get_slot_entries_with_shred_info` ([`crate::fetch::EntryFetch`]) with the ranges
    /// deshredded and decoded in parallel on `pool`. Same results and errors (the first
    /// failing range in slot order wins); never partial entries.
    pub fn get_slot_entries_pooled(
        &self,
        slot: Slot,
        start: u32,
        allow_dead: AllowDead,
        pool: &FetchPool,
    ) -> Result<SlotEntries> {
        self.read_guarded(slot, || self.pooled(slot, start, allow_dead, pool))
    }

    fn pooled(
        &self,
        slot: Slot,
        start: u32,
        allow_dead: AllowDead,
        pool: &FetchPool,
    ) -> Result<SlotEntries> {
        let Some(plan) = self.plan(slot, start, allow_dead)? else {
            return Ok(SlotEntries::default());
        };
        let (Some(first), Some(last)) = (plan.ranges.first(), plan.ranges.last()) else {
            return Ok(SlotEntries::default());
        };
        check_ranges(slot, &plan.ranges)?;
        let pinned = self.multi_get_data_shreds(slot, first.start, last.end)?;
        let mut work = Vec::with_capacity(plan.ranges.len());
        for range in &plan.ranges {
            work.push((range, range_payloads(slot, first.start, range, &pinned)?));
        }
        // Collect every range's result, then take them in slot order, so the error reported
        // is the first failing range's (rayon's own Result collection picks any).
        let results: Vec<Result<Option<Vec<Entry>>>> = pool.pool.install(|| {
            work.par_iter()
                .map(|(range, payloads)| {
                    let mut buf = Vec::new();
                    deshred_into(slot, range, payloads.iter().copied(), &mut buf)?;
                    Ok(match decode_component(slot, range, &buf)? {
                        Component::EntryBatch(entries) => Some(entries),
                        Component::Marker(_) => None,
                    })
                })
                .collect()
        });
        let mut entries = Vec::new();
        let mut markers = 0;
        for set in results {
            match set? {
                Some(set) => entries.extend(set),
                None => markers += 1,
            }
        }
        let num_shreds = u64::from(last.end - start);
        Ok(SlotEntries {
            entries,
            num_shreds,
            is_full: plan.is_full,
            markers,
        })
    }
}

/// The pinned payloads of `range` out of a multi-get that started at `first`; a hole is
/// `MissingShred` (Agave panics there).
fn range_payloads<'p, P: AsRef<[u8]>>(
    slot: Slot,
    first: u32,
    range: &Range<u32>,
    pinned: &'p [Option<P>],
) -> Result<Vec<&'p [u8]>> {
    let lo = (range.start - first) as usize;
    let hi = (range.end - first) as usize;
    let values = pinned.get(lo..hi).unwrap_or_default();
    let mut payloads = Vec::with_capacity(values.len());
    for (i, value) in values.iter().enumerate() {
        match value {
            Some(bytes) => payloads.push(bytes.as_ref()),
            None => {
                let index = ShredIndex(range.start + i as u32);
                return Err(LedgerError::MissingShred { slot, index });
            }
        }
    }
    Ok(payloads)
}
