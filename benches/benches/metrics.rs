//! bstore-metrics costs: what a producer (the replay path) pays per point, and how many
//! points per second the agent serialises and writes.
//!
//! `submit/*` time producer-side calls only: each measured run of submits is followed by an
//! untimed flush, so the channel never fills and no call takes the (cheaper) drop path.

use std::sync::Arc;
use std::time::{Duration, Instant};

use bstore_metrics::writer::{MemoryWriter, Retention};
use bstore_metrics::{AgentOptions, DataPoint, HostId, MetricsAgent, create_datapoint};
use criterion::{BatchSize, Criterion, Throughput, criterion_main};

/// Submits per timed run; well under the channel capacity.
const RUN: u64 = 4096;

/// Enables every level so the macros' `log_enabled!` check passes, as on a node logging at
/// info; records nothing.
struct AllLevels;
impl log::Log for AllLevels {
    fn enabled(&self, _: &log::Metadata<'_>) -> bool {
        true
    }
    fn log(&self, _: &log::Record<'_>) {}
    fn flush(&self) {}
}
static LOGGER: AllLevels = AllLevels;

fn agent() -> (MetricsAgent, Arc<MemoryWriter>) {
    let writer = Arc::new(MemoryWriter::new(Retention::CountsOnly));
    let options = AgentOptions {
        write_frequency: Duration::from_secs(3600),
        max_points_per_sec: usize::MAX / 8, // no rate limit: measure the agent, not the cap
        host_id: HostId::Fixed("bench-host".into()),
        ..AgentOptions::default()
    };
    (
        MetricsAgent::new(Arc::clone(&writer), options).expect("agent"),
        writer,
    )
}

/// A `replay-slot-stats` point as replay builds it: eight integer fields and a tag.
fn slot_stats(slot: u64) -> DataPoint {
    create_datapoint!(
        @point "replay-slot-stats",
        "kind" => "full",
        ("slot", slot, i64),
        ("fetch_entries_time", 1200 + slot % 97, i64),
        ("fetch_entries_fail_time", slot % 5, i64),
        ("num_execute_batches", 12, i64),
        ("confirmation_time_us", 8000 + slot % 13, i64),
        ("replay_total_elapsed", 11_000 + slot % 7, i64),
        ("total_shreds", 300 + slot % 11, i64),
        ("entries", 64, i64),
    )
}

/// Times `RUN`-sized runs of `op`, flushing (untimed) between runs.
fn timed_runs(agent: &MetricsAgent, iters: u64, mut op: impl FnMut(u64)) -> Duration {
    let mut total = Duration::ZERO;
    let mut done = 0;
    while done < iters {
        let n = RUN.min(iters - done);
        let start = Instant::now();
        for i in done..done + n {
            op(i);
        }
        total += start.elapsed();
        done += n;
        agent.flush().expect("memory writer accepts");
    }
    total
}

fn submit(c: &mut Criterion) {
    log::set_logger(&LOGGER).expect("one logger");
    log::set_max_level(log::LevelFilter::Info);
    let (agent, _writer) = agent();
    let mut group = c.benchmark_group("metrics/submit");
    group.throughput(Throughput::Elements(1));
    group.bench_function("prebuilt_point", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            let mut done = 0;
            while done < iters {
                let run: Vec<DataPoint> = (done..iters.min(done + RUN)).map(slot_stats).collect();
                done += run.len() as u64;
                let start = Instant::now();
                for p in run {
                    agent.submit(p, log::Level::Info);
                }
                total += start.elapsed();
                agent.flush().expect("memory writer accepts");
            }
            total
        });
    });
    group.bench_function("build_and_submit_slot_stats", |b| {
        b.iter_custom(|iters| {
            timed_runs(&agent, iters, |i| {
                if log::log_enabled!(log::Level::Info) {
                    agent.submit(slot_stats(i), log::Level::Info);
                }
            })
        });
    });
    group.bench_function("disabled_level_macro", |b| {
        b.iter(|| bstore_metrics::datapoint_debug!("replay-slot-stats", ("slot", 1u64, i64)));
    });
    group.finish();
    agent.flush().expect("flush");
    assert_eq!(agent.stats().points_lost, 0, "no submit took the drop path");
}

fn throughput(c: &mut Criterion) {
    const POINTS: u64 = 20_000;
    let mut group = c.benchmark_group("metrics/agent");
    group.throughput(Throughput::Elements(POINTS));
    group.sample_size(20);
    let (agent, writer) = agent();
    let points: Vec<DataPoint> = (0..POINTS).map(slot_stats).collect();
    group.bench_function("serialise_and_write_slot_stats", |b| {
        b.iter_batched(
            || points.clone(),
            |batch| {
                for p in batch {
                    agent.submit(p, log::Level::Info);
                }
                agent.flush().expect("memory writer accepts");
            },
            BatchSize::PerIteration,
        );
    });
    group.finish();
    assert_eq!(agent.stats().points_lost, 0);
    assert!(writer.line_count() > 0 && writer.bytes() > 0);
}

fn serialise(c: &mut Criterion) {
    const POINTS: u64 = 20_000;
    let points: Vec<DataPoint> = (0..POINTS).map(slot_stats).collect();
    let mut group = c.benchmark_group("metrics/line_protocol");
    group.throughput(Throughput::Elements(POINTS));
    group.sample_size(20);
    group.bench_function("serialise_slot_stats", |b| {
        b.iter(|| bstore_metrics::line_protocol::to_body(&points, Some("bench-host")));
    });
    group.finish();
}

/// The benchmark group `criterion_main!` runs.
#[allow(missing_docs)] // `criterion_group!` emits an undocumented `pub fn benches`.
pub mod group {
    criterion::criterion_group!(benches, super::submit, super::serialise, super::throughput);
}
criterion_main!(group::benches);
