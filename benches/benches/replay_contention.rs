//! Replay's fetch under concurrent full-slot readers (RPC `getBlock`-like load), for the
//! serial design (replay fetches on its own thread; readers are gated and run at the lowest
//! priority) and, with `--features fetch-pool`, the pooled design (one bounded pool shared by
//! replay and the readers). One run answers the question of the original change:
//!
//! 1. A streaming report, printed first: the pipeline of `bstore demo` (paced inserter,
//!    replay following, K readers) with K = 0, 1, 4 for each design, plus the serial design
//!    without its controls. Replay's fetch time per call and per slot (p50, p99) and the
//!    readers' throughput (slots/s).
//! 2. criterion `replay_contention/full_slot/<design>/readers=K`: replaying one complete
//!    slot (fetch, PoH, execute) while K readers run; Throughput = shreds.
//!
//! Scale: `BSTORE_CONTENTION_SLOTS` (default 24) slots per streaming scenario.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bstore_ledger::entry::TickRules;
use bstore_ledger::fetch::AllowDead;
use bstore_ledger::store::{AccessMode, Blockstore};
use bstore_ledger::synth::{SlotGenerator, SlotSpec};
use bstore_ledger::{Hash, Slot};
use bstore_replay::{
    Completion, CountingExecutor, FetchMode, MetricsSink, ReplayDriver, ReplayOptions, SlotStatus,
};
use bstore_testkit::contention::{ReaderGate, ReaderPriority};
use bstore_testkit::pipeline::{PipelineConfig, Progress, run_pipeline};
use criterion::{Criterion, Throughput, criterion_main};
use rand::{Rng, SeedableRng};

const SHREDS_PER_SLOT: u32 = 1024;
const HASHES_PER_TICK: u64 = 2_500;
const READERS: [usize; 3] = [0, 1, 4];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Design {
    /// Serial fetch everywhere; readers gated to one at a time at the lowest priority.
    Serial,
    /// Serial fetch everywhere, no reader controls (what the controls buy).
    SerialUncontrolled,
    /// One bounded pool shared by replay and the readers.
    #[cfg(feature = "fetch-pool")]
    Pool,
}

impl Design {
    fn all() -> Vec<Self> {
        #[allow(unused_mut)]
        let mut all = vec![Self::Serial, Self::SerialUncontrolled];
        #[cfg(feature = "fetch-pool")]
        all.push(Self::Pool);
        all
    }

    fn name(self) -> &'static str {
        match self {
            Self::Serial => "serial",
            Self::SerialUncontrolled => "serial-uncontrolled",
            #[cfg(feature = "fetch-pool")]
            Self::Pool => "fetch-pool",
        }
    }

    /// Replay's fetch, the readers' fetch, reader permits and priority.
    fn setup(self) -> (FetchMode, FetchMode, Option<usize>, ReaderPriority) {
        match self {
            Self::Serial => (
                FetchMode::serial(),
                FetchMode::serial(),
                Some(ReaderGate::for_machine().permits()),
                ReaderPriority::Lowest,
            ),
            Self::SerialUncontrolled => (
                FetchMode::serial(),
                FetchMode::serial(),
                None,
                ReaderPriority::Normal,
            ),
            #[cfg(feature = "fetch-pool")]
            Self::Pool => {
                let pool = Arc::new(
                    bstore_ledger::fetch::FetchPool::new(
                        std::num::NonZeroUsize::new(
                            bstore_ledger::fetch::FetchPool::DEFAULT_THREADS,
                        )
                        .expect("a non-zero default"),
                        "fetch-pool",
                    )
                    .expect("a fetch pool"),
                );
                (
                    FetchMode::pooled(pool.clone()),
                    FetchMode::pooled(pool),
                    None,
                    ReaderPriority::Normal,
                )
            }
        }
    }
}

fn temp_store() -> (tempfile::TempDir, Arc<Blockstore>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = Blockstore::open(dir.path(), AccessMode::ReadWrite).expect("open");
    (dir, Arc::new(store))
}

/// Part 1: the streaming report.
fn streaming_report() {
    let slots = std::env::var("BSTORE_CONTENTION_SLOTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(24);
    println!(
        "\nreplay_contention streaming: {slots} slots x {SHREDS_PER_SLOT} shreds, one slot per \
         200 ms, {} cores",
        std::thread::available_parallelism().map_or(1, usize::from)
    );
    println!(
        "| design | readers | per call p50 µs | per call p99 µs | per slot p50 µs | per slot p99 µs | readers slots/s |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for design in Design::all() {
        for readers in READERS {
            if design == Design::SerialUncontrolled && readers != 4 {
                continue;
            }
            let (replay_fetch, reader_fetch, reader_permits, reader_priority) = design.setup();
            let (_dir, store) = temp_store();
            let config = PipelineConfig {
                slots,
                shreds_per_slot: SHREDS_PER_SLOT,
                hashes_per_tick: HASHES_PER_TICK,
                slot_time: Duration::from_millis(200),
                readers,
                reader_fetch,
                reader_permits,
                reader_priority,
                replay_fetch,
                metrics: MetricsSink::Off,
                ..PipelineConfig::default()
            };
            let report = run_pipeline(&store, &config, &Progress::default()).expect("pipeline");
            assert!(report.failures.is_empty(), "{:?}", report.failures);
            println!(
                "| {} | {readers} | {} | {} | {} | {} | {:.1} |",
                design.name(),
                report.fetch_per_call.p50,
                report.fetch_per_call.p99,
                report.fetch_per_slot.p50,
                report.fetch_per_slot.p99,
                report.readers.slots_per_sec()
            );
        }
    }
    println!();
}

/// A ledger of complete slots 1..=n (children of 0), with each slot's parent blockhash.
fn full_ledger(n: u64) -> (tempfile::TempDir, Arc<Blockstore>, Vec<(Slot, Hash)>) {
    let (dir, store) = temp_store();
    let mut generator = SlotGenerator::new(7, 1);
    let mut parent_hash = Hash([1; 32]);
    let mut seeds = Vec::new();
    for s in 1..=n {
        let spec = SlotSpec {
            data_shreds: SHREDS_PER_SLOT,
            hashes_per_tick: HASHES_PER_TICK,
            with_code: false,
        };
        let slot = generator
            .generate(Slot(s), Slot(s - 1), parent_hash, spec)
            .expect("generate");
        store.insert_shreds(&slot.data_shreds).expect("insert");
        seeds.push((Slot(s), parent_hash));
        parent_hash = slot.blockhash;
    }
    (dir, store, seeds)
}

/// Part 2: criterion, replaying complete slots while readers run.
fn bench_full_slot(c: &mut Criterion) {
    streaming_report();
    let (_dir, store, seeds) = full_ledger(16);
    let shreds = store.meta(Slot(1)).expect("meta").map_or(0, |m| m.consumed);
    let mut group = c.benchmark_group("replay_contention/full_slot");
    group.throughput(Throughput::Elements(shreds));
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(4));
    group.warm_up_time(Duration::from_secs(1));
    for design in Design::all() {
        for readers in READERS {
            if design == Design::SerialUncontrolled && readers == 0 {
                continue;
            }
            let (replay_fetch, reader_fetch, permits, priority) = design.setup();
            let stop = AtomicBool::new(false);
            let gate = permits.map(ReaderGate::new);
            std::thread::scope(|scope| {
                for r in 0..readers {
                    let (store, reader_fetch, gate, stop) = (&store, &reader_fetch, &gate, &stop);
                    scope.spawn(move || {
                        read_loop(store, reader_fetch, gate.as_ref(), priority, stop, r as u64)
                    });
                }
                group.bench_function(format!("{}/readers={readers}", design.name()), |b| {
                    let mut next = 0usize;
                    b.iter_custom(|iters| {
                        let mut total = Duration::ZERO;
                        for _ in 0..iters {
                            let (slot, parent_hash) = seeds[next % seeds.len()];
                            next += 1;
                            total += replay_once(&store, &replay_fetch, slot, parent_hash);
                        }
                        total
                    })
                });
                stop.store(true, Ordering::Relaxed);
            });
        }
    }
    group.finish();
}

fn read_loop(
    store: &Blockstore,
    fetch: &FetchMode,
    gate: Option<&ReaderGate>,
    priority: ReaderPriority,
    stop: &AtomicBool,
    seed: u64,
) {
    priority.apply_to_current_thread().ok();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    while !stop.load(Ordering::Relaxed) {
        let slot = Slot(rng.gen_range(1..=16));
        let _permit = gate.map(ReaderGate::enter);
        let read = fetch
            .read_slot(store, slot, 0, AllowDead::No)
            .map(|r| r.entries.len());
        std::hint::black_box(read.expect("full slot reads"));
    }
}

/// Replays one complete slot with a fresh driver; the time of the replay call.
fn replay_once(store: &Arc<Blockstore>, fetch: &FetchMode, slot: Slot, parent: Hash) -> Duration {
    let options = ReplayOptions {
        tick_rules: TickRules {
            ticks_per_slot: TickRules::DEFAULT_TICKS_PER_SLOT,
            hashes_per_tick: Some(HASHES_PER_TICK),
        },
        completion: Completion::Final,
        fetch: fetch.clone(),
        metrics: MetricsSink::Off,
        ..ReplayOptions::default()
    };
    let mut driver = ReplayDriver::new(store.clone(), options, CountingExecutor::new());
    driver.seed_blockhash(Slot(slot.0 - 1), parent);
    let start = Instant::now();
    let status = driver.replay(slot).expect("store ok");
    let elapsed = start.elapsed();
    assert!(matches!(status, SlotStatus::Replayed { .. }), "{status:?}");
    elapsed
}

/// The benchmark group `criterion_main!` runs.
#[allow(missing_docs)] // `criterion_group!` emits an undocumented `pub fn benches`.
pub mod group {
    criterion::criterion_group!(benches, super::bench_full_slot);
}
criterion_main!(group::benches);
