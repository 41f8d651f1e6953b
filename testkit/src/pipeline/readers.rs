//! Full-slot readers: RPC-like load. Each reader fetches a random full slot whole, owned
//! entries as `getBlock` decodes them, over and over until told to stop.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bstore_ledger::fetch::AllowDead;
use bstore_ledger::store::Blockstore;
use bstore_ledger::{LedgerError, Slot};
use bstore_replay::{FetchMode, Latency};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{Progress, ROOT};
use crate::contention::{ReaderGate, ReaderPriority};

/// What the readers did.
#[derive(Debug, Clone, Default)]
pub struct ReaderReport {
    /// Full slots read.
    pub reads: u64,
    /// Reads that failed.
    pub errors: u64,
    /// Time the readers ran (the longest of them).
    pub elapsed: Duration,
    /// Latency of one full-slot read (µs).
    pub read_latency: Latency,
    samples: Vec<u64>,
}

impl ReaderReport {
    /// Full slots read per second over the run.
    pub fn slots_per_sec(&self) -> f64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            self.reads as f64 / secs
        } else {
            0.0
        }
    }
}

pub(super) struct ReaderContext<'a> {
    pub(super) blockstore: &'a Blockstore,
    pub(super) fetch: &'a FetchMode,
    pub(super) gate: Option<&'a ReaderGate>,
    pub(super) priority: ReaderPriority,
    pub(super) highest_full: &'a AtomicU64,
    pub(super) stop: &'a AtomicBool,
    pub(super) progress: &'a Progress,
    pub(super) seed: u64,
    /// Pick among the newest this many full slots.
    pub(super) window: Option<u64>,
}

pub(super) fn run(ctx: &ReaderContext<'_>) -> ReaderReport {
    if let Err(e) = ctx.priority.apply_to_current_thread() {
        log::warn!("{e}");
    }
    let mut rng = ChaCha8Rng::seed_from_u64(ctx.seed);
    let mut report = ReaderReport::default();
    let started = Instant::now();
    while !ctx.stop.load(Ordering::Relaxed) {
        let highest = ctx.highest_full.load(Ordering::Relaxed);
        // Nothing full yet: the stream starts at the child of ROOT.
        if highest < ROOT.0 + 1 {
            std::thread::sleep(Duration::from_millis(5));
            continue;
        }
        let lowest = match ctx.window {
            Some(window) => highest
                .saturating_sub(window.saturating_sub(1))
                .max(ROOT.0 + 1),
            None => ROOT.0 + 1,
        };
        let slot = Slot(rng.gen_range(lowest..=highest));
        let _permit = ctx.gate.map(ReaderGate::enter);
        let read = Instant::now();
        let result = ctx.fetch.read_slot(ctx.blockstore, slot, 0, AllowDead::No);
        let us = u64::try_from(read.elapsed().as_micros()).unwrap_or(u64::MAX);
        match result {
            Ok(_) => {
                report.reads += 1;
                report.samples.push(us);
                ctx.progress.reads.fetch_add(1, Ordering::Relaxed);
                ctx.progress.record_read(us);
            }
            Err(LedgerError::SlotCleanedUp { .. }) => {
                ctx.progress.cleaned_reads.fetch_add(1, Ordering::Relaxed);
            }
            Err(e) => {
                report.errors += 1;
                log::warn!("reader: slot {slot}: {e}");
            }
        }
    }
    report.elapsed = started.elapsed();
    report
}

/// One report for all readers.
pub(super) fn merge(reports: impl IntoIterator<Item = ReaderReport>) -> ReaderReport {
    let mut all = ReaderReport::default();
    for r in reports {
        all.reads += r.reads;
        all.errors += r.errors;
        all.elapsed = all.elapsed.max(r.elapsed);
        all.samples.extend(r.samples);
    }
    all.read_latency = Latency::of(&mut all.samples);
    all
}
