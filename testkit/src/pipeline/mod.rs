//! The whole pipeline at work, for `bstore demo` and the contention benchmark: an inserter
//! thread writes a generated, mainnet-like slot stream FEC set by FEC set (shuffled within a
//! window, as turbine delivers), replay follows it on its own thread, the
//! completed-data-sets service reports signatures, and K reader threads fetch whole slots
//! as RPC `getBlock` would. The report has every slot's statistics and the latencies that
//! matter: replay's fetch time per call and per slot, and the readers' throughput.

mod inserter;
mod readers;

pub use readers::ReaderReport;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bstore_ledger::entry::TickRules;
use bstore_ledger::store::Blockstore;
use bstore_ledger::{Hash, Slot};

use bstore_replay::{
    CompletedDataSetsService, Completion, CountingExecutor, DataSetsStats, FetchMode, Latency,
    MetricsSink, ReplayDriver, ReplayOptions, SlotStats, SlotStatus, completed_data_sets_channel,
    follow,
};

use crate::contention::{ReaderGate, ReaderPriority};
use crate::error::TestkitError;

/// What to run.
#[derive(Debug, Clone)]
pub struct PipelineConfig {
    /// Slots to generate and insert (children of slot 0, whose blockhash is seeded).
    pub slots: u64,
    /// About this many data shreds per slot (whole FEC sets of 32).
    pub shreds_per_slot: u32,
    /// Hashes between ticks of the generated slots (replay checks it).
    pub hashes_per_tick: u64,
    /// Time over which one slot's shreds are inserted (mainnet: 400 ms); zero inserts as
    /// fast as the store takes them.
    pub slot_time: Duration,
    /// Shreds are shuffled within windows of this many (turbine's reordering).
    pub shuffle_window: usize,
    /// Seed of the generated stream.
    pub seed: u64,
    /// Full-slot reader threads.
    pub readers: usize,
    /// How readers fetch (`FetchMode::read_slot`).
    pub reader_fetch: FetchMode,
    /// At most this many full-slot reads at once (`None`: no gate).
    pub reader_permits: Option<usize>,
    /// Scheduling priority of the reader threads.
    pub reader_priority: ReaderPriority,
    /// How replay fetches.
    pub replay_fetch: FetchMode,
    /// Where replay's datapoints go.
    pub metrics: MetricsSink,
    /// Readers pick among the newest this many full slots (`None`: any full slot).
    pub reader_window: Option<u64>,
    /// Keep the ledger bounded while it runs (`None`: it only grows).
    pub retention: Option<Retention>,
}

/// Retention during a run, as a validator runs it: slots are rooted `root_lag` slots behind
/// the newest inserted one (consensus lag), and every `interval` slots the inserter purges
/// the oldest slots down to `max_shreds` data shreds (`Blockstore::purge_to_limit`, Agave's
/// `--limit-ledger-size`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retention {
    /// Data shreds the ledger keeps at most after each purge.
    pub max_shreds: u64,
    /// How many slots behind the newest inserted one the root is set.
    pub root_lag: u64,
    /// Slots inserted between two purges.
    pub interval: u64,
}

impl Default for PipelineConfig {
    fn default() -> Self {
        Self {
            slots: 100,
            shreds_per_slot: 1024,
            hashes_per_tick: 2_500,
            slot_time: Duration::from_millis(400),
            shuffle_window: 64,
            seed: 1,
            readers: 2,
            reader_fetch: FetchMode::default(),
            reader_permits: Some(1),
            reader_priority: ReaderPriority::Lowest,
            replay_fetch: FetchMode::default(),
            metrics: MetricsSink::Global,
            reader_window: None,
            retention: None,
        }
    }
}

/// Live counters, for a progress display.
#[derive(Debug, Default)]
pub struct Progress {
    /// Slots fully inserted.
    pub inserted: AtomicU64,
    /// Slots replayed, dead or refused.
    pub finished: AtomicU64,
    /// Full-slot reads done.
    pub reads: AtomicU64,
    /// Reads of a slot purged under them (`SlotCleanedUp`): expected with retention, not
    /// errors.
    pub cleaned_reads: AtomicU64,
    /// Slots purged by retention.
    pub purged_slots: AtomicU64,
    /// Latency (µs) of each read since the last [`Progress::take_recent_reads`].
    recent_reads: Mutex<Vec<u64>>,
}

impl Progress {
    /// The read latencies recorded since the last call (a sampler's interval).
    pub fn take_recent_reads(&self) -> Vec<u64> {
        std::mem::take(&mut *self.recent_reads.lock().unwrap_or_else(|p| p.into_inner()))
    }

    pub(crate) fn record_read(&self, us: u64) {
        self.recent_reads
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(us);
    }
}

/// What the generated stream held (to check replay and the service against).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Generated {
    /// Slots generated and inserted.
    pub slots: u64,
    /// Data shreds over those slots.
    pub shreds: u64,
    /// Entries over those slots, ticks included.
    pub entries: u64,
    /// Transactions over those slots.
    pub transactions: u64,
}

/// What a run measured.
#[derive(Debug, Clone)]
pub struct PipelineReport {
    /// Statistics of every slot that finished (replayed or dead), in slot order.
    pub slots: Vec<SlotStats>,
    /// Slots replayed whole.
    pub replayed: usize,
    /// Slots that did not replay (dead, refused, unfinished), with why.
    pub failures: Vec<(Slot, String)>,
    /// Replay's fetch time per call that returned data sets (µs).
    pub fetch_per_call: Latency,
    /// Replay's fetch time per replayed slot (µs, `fetch_entries_time`).
    pub fetch_per_slot: Latency,
    /// What the concurrent full-slot readers did and how long their reads took.
    pub readers: ReaderReport,
    /// The completed-data-set service's counters at the end.
    pub data_sets: DataSetsStats,
    /// What the generated stream held, to compare replay's totals with.
    pub generated: Generated,
    /// Wall-clock time of the whole run.
    pub elapsed: Duration,
}

/// The parent every generated stream starts from, and its blockhash.
pub const ROOT: Slot = Slot(0);
const ROOT_HASH: Hash = Hash([0x5e; 32]);

/// Runs the pipeline on `blockstore` (empty, opened read-write) and waits for the end.
pub fn run_pipeline(
    blockstore: &Arc<Blockstore>,
    config: &PipelineConfig,
    progress: &Progress,
) -> Result<PipelineReport, TestkitError> {
    let started = Instant::now();
    let (updates_tx, updates_rx) = crossbeam_channel::unbounded();
    let (sets_tx, sets_rx) = completed_data_sets_channel();
    let exit = Arc::new(AtomicBool::new(false));
    let readers_stop = AtomicBool::new(false);
    let highest_full = AtomicU64::new(0);
    let gate = config.reader_permits.map(ReaderGate::new);
    let service = CompletedDataSetsService::spawn(
        Arc::clone(blockstore),
        sets_rx,
        Vec::new(),
        Arc::clone(&exit),
    )
    .map_err(|_| TestkitError::Stopped("cannot start the data-sets service"))?;

    let options = ReplayOptions {
        tick_rules: TickRules {
            ticks_per_slot: TickRules::DEFAULT_TICKS_PER_SLOT,
            hashes_per_tick: Some(config.hashes_per_tick),
        },
        completion: Completion::Streaming,
        fetch: config.replay_fetch.clone(),
        metrics: config.metrics.clone(),
        ..ReplayOptions::default()
    };
    let mut driver = ReplayDriver::new(Arc::clone(blockstore), options, CountingExecutor::new());
    driver.seed_blockhash(ROOT, ROOT_HASH);

    let (generated, finished, readers) = std::thread::scope(|scope| {
        let inserter = {
            let highest_full = &highest_full;
            // Moves the senders in: they close when the inserter is done, which ends
            // `follow` and the data-sets service.
            scope.spawn(move || {
                inserter::run(
                    blockstore,
                    config,
                    ROOT_HASH,
                    &updates_tx,
                    &sets_tx,
                    highest_full,
                    progress,
                )
            })
        };
        let reader_threads: Vec<_> = (0..config.readers)
            .map(|i| {
                let ctx = readers::ReaderContext {
                    blockstore,
                    fetch: &config.reader_fetch,
                    gate: gate.as_ref(),
                    priority: config.reader_priority,
                    highest_full: &highest_full,
                    stop: &readers_stop,
                    progress,
                    seed: config.seed.wrapping_add(i as u64),
                    window: config.reader_window,
                };
                scope.spawn(move || readers::run(&ctx))
            })
            .collect();

        let mut finished = Vec::new();
        let followed = follow(&mut driver, &updates_rx, &exit, |slot, status| {
            progress.finished.fetch_add(1, Ordering::Relaxed);
            finished.push((slot, status));
        })
        .map(|summary| {
            for slot in summary.unfinished {
                finished.push((slot, SlotStatus::InProgress { shreds: 0 }));
            }
        });
        let generated = inserter.join().unwrap_or_else(|_| {
            log::error!("inserter thread panicked");
            Err(TestkitError::Stopped("the inserter thread panicked"))
        });
        readers_stop.store(true, Ordering::Relaxed);
        let readers = readers::merge(reader_threads.into_iter().map(|t| {
            t.join().unwrap_or_else(|_| {
                log::error!("reader thread panicked");
                ReaderReport::default()
            })
        }));
        (generated, followed.map(|_| finished), readers)
    });
    let data_sets = service.join();
    let (generated, finished) = (generated?, finished?);
    Ok(report(finished, readers, data_sets, generated, started))
}

fn report(
    finished: Vec<(Slot, SlotStatus)>,
    readers: ReaderReport,
    data_sets: DataSetsStats,
    generated: Generated,
    started: Instant,
) -> PipelineReport {
    let mut slots = Vec::new();
    let mut replayed = 0;
    let mut failures = Vec::new();
    let mut per_call = Vec::new();
    let mut per_slot = Vec::new();
    for (slot, status) in finished {
        match status {
            SlotStatus::Replayed { stats, .. } => {
                per_call.extend_from_slice(&stats.fetch_calls_us);
                per_slot.push(stats.fetch_entries_time);
                slots.push(stats);
                replayed += 1;
            }
            SlotStatus::Dead { stats, error } => {
                failures.push((slot, error.to_string()));
                slots.push(stats);
            }
            SlotStatus::Refused { error } => failures.push((slot, error.to_string())),
            _ => failures.push((slot, "unfinished when the stream ended".to_string())),
        }
    }
    slots.sort_by_key(|s| s.slot);
    PipelineReport {
        slots,
        replayed,
        failures,
        fetch_per_call: Latency::of(&mut per_call),
        fetch_per_slot: Latency::of(&mut per_slot),
        readers,
        data_sets,
        generated,
        elapsed: started.elapsed(),
    }
}
