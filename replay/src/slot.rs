//! The replay of one slot, one fetch call at a time: fetch the data sets completed since
//! the running shred count, verify their PoH and tick rules, execute, advance.

use std::time::Instant;

use bstore_ledger::entry::{HashLimits, PohEntry, TickRules, verify_poh_with_limits};
use bstore_ledger::fetch::{AllowDead, DataSetView, FetchBuffer, ViewFetch};
use bstore_ledger::store::Blockstore;
use bstore_ledger::{FormatError, Hash, LedgerError, Slot};

use crate::alpenglow::{Alpenglow, ComponentCheck, ComponentViolation, MarkerAction};
use crate::batch::EntryBatch;
use crate::error::ReplayError;
use crate::executor::Executor;
use crate::fetch_mode::{FetchMode, Kind};
use crate::known::{Known, ParentState};
use crate::stats::SlotStats;
use crate::ticks::{TickCheck, TickViolation};

/// Replay's fetch state: the mode and the reusable buffer of the serial fetch.
#[derive(Debug, Default)]
pub(crate) struct Fetcher {
    pub(crate) mode: FetchMode,
    buf: FetchBuffer,
}

impl Fetcher {
    pub(crate) fn new(mode: FetchMode) -> Self {
        Self {
            mode,
            buf: FetchBuffer::new(),
        }
    }
}

/// What one step did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// No data set completed since the last call.
    Nothing,
    /// Entries were replayed; the slot is not full yet.
    Progress,
    /// The slot is full and its last entry replayed; the tick rules held.
    Complete,
}

/// Running state of one slot under replay.
#[derive(Debug)]
pub(crate) struct SlotReplay {
    pub(crate) slot: Slot,
    /// The last verified entry hash (the parent's blockhash before the first entry).
    pub(crate) last_hash: Hash,
    /// Shreds consumed so far: the `start` of the next fetch, always on a data-set boundary.
    shreds: u64,
    /// Entries replayed so far (the slot-relative index of the next one).
    entries: usize,
    ticks: TickCheck,
    /// The order of the slot's components, and whether it is an Alpenglow block.
    components: ComponentCheck,
    pub(crate) stats: SlotStats,
    started: Instant,
}

fn micros(since: Instant) -> u64 {
    u64::try_from(since.elapsed().as_micros()).unwrap_or(u64::MAX)
}

impl SlotReplay {
    pub(crate) fn new(
        slot: Slot,
        parent: (Slot, Hash),
        start: u32,
        rules: &TickRules,
        limits: &HashLimits,
        alpenglow: Alpenglow,
    ) -> Self {
        // `start` is the meta's `replay_fec_set_index`: non-zero after an UpdateParent, where
        // Agave 4.4 replays from, on the new parent (the meta's parent).
        let components = match start {
            0 => ComponentCheck::new(alpenglow, slot, parent.0),
            _ => ComponentCheck::from_update_parent(alpenglow, slot, parent.0),
        };
        let ticks = if components.is_alpenglow() {
            TickCheck::alpenglow()
        } else {
            TickCheck::with_limits(&rules.for_block(slot.0, parent.0.0), limits)
        };
        Self {
            slot,
            last_hash: parent.1,
            shreds: u64::from(start),
            entries: 0,
            ticks,
            components,
            stats: SlotStats::new(slot),
            started: Instant::now(),
        }
    }

    /// Shreds replayed so far.
    pub(crate) fn shreds(&self) -> u64 {
        self.shreds
    }

    /// Closes the wall-clock statistic (at the slot's end, replayed or dead).
    pub(crate) fn finish_stats(&mut self) -> SlotStats {
        self.stats.replay_total_elapsed = micros(self.started);
        std::mem::take(&mut self.stats)
    }

    /// One fetch call and the processing of what it returned.
    pub(crate) fn step<E: Executor + ?Sized>(
        &mut self,
        blockstore: &Blockstore,
        fetcher: &mut Fetcher,
        executor: &mut E,
        parents: &mut Known,
    ) -> Result<Step, ReplayError> {
        let call = Instant::now();
        // The running count is below 2^15 (`docs/on-disk-layout.md#inserting-shreds` caps indices),
        // so this never saturates.
        let start = u32::try_from(self.shreds).unwrap_or(u32::MAX);
        let outcome = match &fetcher.mode.0 {
            Kind::Serial => {
                self.step_views(blockstore, &mut fetcher.buf, start, call, executor, parents)
            }
            // An Alpenglow block needs its data set boundaries and markers: views.
            #[cfg(feature = "fetch-pool")]
            Kind::Pool(_) if self.components.is_alpenglow() => {
                self.step_views(blockstore, &mut fetcher.buf, start, call, executor, parents)
            }
            #[cfg(feature = "fetch-pool")]
            Kind::Pool(pool) => {
                match blockstore.get_slot_entries_pooled(self.slot, start, AllowDead::No, pool) {
                    // The pooled fetch drops markers; a TowerBFT slot holding one is read
                    // again as views so the marker is seen in place (and kills the slot).
                    Ok(got) if got.markers > 0 => self.step_views(
                        blockstore,
                        &mut fetcher.buf,
                        start,
                        call,
                        executor,
                        parents,
                    ),
                    Ok(got) => {
                        let batch = EntryBatch::Owned(&got.entries);
                        self.fetched(call, batch, got.num_shreds, got.is_full, executor)
                    }
                    Err(e) => self.fetch_failed(call, e),
                }
            }
        };
        self.stats.confirmation_time_us += micros(call);
        outcome
    }

    /// One serial view fetch and its processing, data set by data set.
    fn step_views<E: Executor + ?Sized>(
        &mut self,
        blockstore: &Blockstore,
        buf: &mut FetchBuffer,
        start: u32,
        call: Instant,
        executor: &mut E,
        parents: &mut Known,
    ) -> Result<Step, ReplayError> {
        match blockstore.fetch_slot_views(self.slot, start, AllowDead::No, buf) {
            Ok(views) => {
                let fetch_us = micros(call);
                self.stats.fetch_entries_time += fetch_us;
                if views.num_shreds == 0 {
                    return Ok(Step::Nothing);
                }
                self.stats.fetch_calls_us.push(fetch_us);
                self.components_and_entries(
                    blockstore,
                    &views.sets,
                    views.is_full,
                    executor,
                    parents,
                )?;
                self.finish_call(views.num_shreds, views.is_full)
            }
            Err(e) => self.fetch_failed(call, e),
        }
    }

    /// Walks the call's data sets in order: markers through the component rules (an
    /// UpdateParent moves the PoH chain to the new parent's blockhash), runs of entry sets
    /// verified and executed between them.
    fn components_and_entries<E: Executor + ?Sized>(
        &mut self,
        blockstore: &Blockstore,
        sets: &[DataSetView<'_>],
        is_full: bool,
        executor: &mut E,
        parents: &mut Known,
    ) -> Result<(), ReplayError> {
        let slot = self.slot;
        let component = |violation| ReplayError::Component { slot, violation };
        let mut run_start = 0;
        for (i, set) in sets.iter().enumerate() {
            let Some(marker) = &set.marker else {
                let last = is_full && i + 1 == sets.len();
                let alpentick = last
                    && set.entries.len() == 1
                    && set
                        .entries
                        .get(0)
                        .is_some_and(|e| e.is_tick() && e.num_hashes() == 1);
                self.components
                    .on_entry_batch(alpentick)
                    .map_err(component)?;
                continue;
            };
            let before = sets.get(run_start..i).unwrap_or_default();
            self.run_entries(EntryBatch::Views(before), executor)?;
            run_start = i + 1;
            if let MarkerAction::Reparent(update) =
                self.components.on_marker(marker).map_err(component)?
            {
                let parent = update.new_parent_slot;
                let state = parents
                    .parent(blockstore, parent)
                    .map_err(|source| ReplayError::Storage { slot, source })?;
                self.last_hash = match state {
                    ParentState::Known(hash) => hash,
                    ParentState::Dead => return Err(ReplayError::ParentDead { slot, parent }),
                    ParentState::Unknown => {
                        return Err(ReplayError::ParentUnknown { slot, parent });
                    }
                };
                // A fresh bank on the new parent: its tick count starts over.
                self.ticks = TickCheck::alpenglow();
            }
        }
        let rest = sets.get(run_start..).unwrap_or_default();
        self.run_entries(EntryBatch::Views(rest), executor)
    }

    fn fetch_failed(&mut self, call: Instant, e: LedgerError) -> Result<Step, ReplayError> {
        self.stats.fetch_entries_fail_time += micros(call);
        Err(ReplayError::from_fetch(self.slot, e))
    }

    /// Books the fetch time of a successful owned fetch, then verifies and executes its
    /// entries.
    #[cfg(feature = "fetch-pool")]
    fn fetched<E: Executor + ?Sized>(
        &mut self,
        call: Instant,
        batch: EntryBatch<'_>,
        num_shreds: u64,
        is_full: bool,
        executor: &mut E,
    ) -> Result<Step, ReplayError> {
        let fetch_us = micros(call);
        self.stats.fetch_entries_time += fetch_us;
        if num_shreds == 0 {
            return Ok(Step::Nothing);
        }
        self.stats.fetch_calls_us.push(fetch_us);
        self.run_entries(batch, executor)?;
        self.finish_call(num_shreds, is_full)
    }

    /// Verifies (tick rules, then PoH) and executes a run of entries.
    fn run_entries<E: Executor + ?Sized>(
        &mut self,
        batch: EntryBatch<'_>,
        executor: &mut E,
    ) -> Result<(), ReplayError> {
        if batch.is_empty() {
            return Ok(());
        }
        let slot = self.slot;
        let first = self.entries;
        self.stats.num_execute_batches += 1;

        let poh = Instant::now();
        let verdict = self.verify(batch);
        self.stats.entry_poh_verification_time += micros(poh);
        verdict?;

        let run = Instant::now();
        let executed = executor.execute(slot, first, &batch);
        self.stats.replay_time += micros(run);
        executed.map_err(|e| ReplayError::Execute {
            slot,
            entry: e.entry,
            transaction: e.transaction,
            reason: e.reason,
        })?;

        self.entries += batch.len();
        self.stats.total_entries += batch.len() as u64;
        self.stats.total_transactions += batch.num_transactions() as u64;
        Ok(())
    }

    /// Advances past the call's shreds; at the slot's end, the whole-slot tick and
    /// component rules.
    fn finish_call(&mut self, num_shreds: u64, is_full: bool) -> Result<Step, ReplayError> {
        let slot = self.slot;
        self.shreds += num_shreds;
        self.stats.total_shreds = self.shreds;
        if !is_full {
            return Ok(Step::Progress);
        }
        // Full: the fetch returned every range up to the last-in-slot shred.
        let poh = Instant::now();
        let end = self.ticks.finish();
        self.stats.entry_poh_verification_time += micros(poh);
        end.map_err(|v| ticks_error(slot, v))?;
        self.components
            .on_final()
            .map_err(|violation: ComponentViolation| ReplayError::Component { slot, violation })?;
        Ok(Step::Complete)
    }

    /// The tick rules and hash limits, then the PoH chain from the running hash, over one
    /// batch. The tick pass reads only hash counts, so the batch's hashing work is bounded
    /// (as Agave checks tick hash counts before PoH) before any of it starts.
    fn verify(&mut self, batch: EntryBatch<'_>) -> Result<(), ReplayError> {
        let slot = self.slot;
        let first = self.entries;
        for entry in batch.entries() {
            self.ticks
                .push(entry.num_hashes(), entry.is_tick())
                .map_err(|v| ticks_error(slot, v))?;
        }
        // `self.ticks` has counted every entry of the batch against the limits already.
        let last = verify_poh_with_limits(&self.last_hash, batch.entries(), &HashLimits::UNLIMITED)
            .map_err(|e| match e {
                FormatError::Poh { entry, defect } => ReplayError::Poh {
                    slot,
                    entry: first + entry,
                    defect,
                },
                other => ReplayError::InvalidData {
                    slot,
                    source: other.into(),
                },
            })?;
        self.last_hash = last;
        Ok(())
    }
}

fn ticks_error(slot: Slot, v: TickViolation) -> ReplayError {
    ReplayError::Ticks {
        slot,
        entry: v.entry,
        defect: v.defect,
    }
}
