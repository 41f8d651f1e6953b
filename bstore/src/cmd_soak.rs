//! `bstore bench soak`: the retention soak. The whole pipeline (inserter, replay, the
//! completed-data-sets service, full-slot readers) runs over many generated slots with a
//! ledger limit; a sampler records disk use, resident memory and the readers' fetch p99 per
//! interval, writes them as CSV and SVG charts, and at the end checks that every slot within
//! the limit is still whole.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bstore_ledger::Slot;
use bstore_ledger::fetch::EntryFetch;
use bstore_ledger::store::{AccessMode, Blockstore};
use bstore_metrics::plot::{Line, render_svg};
use bstore_replay::{Latency, MetricsSink};
use bstore_testkit::pipeline::{PipelineConfig, Progress, Retention, run_pipeline};
use clap::Args;
use serde_json::json;

use crate::cmd_bench::rss;
use bstore_ledger::store::space_reserve::bytes_on_disk;

/// Arguments of `bstore bench soak`.
#[derive(Debug, Args)]
pub(crate) struct SoakArgs {
    /// Slots to generate and insert.
    #[arg(long, default_value_t = 10_000)]
    slots: u64,
    /// About this many data shreds per slot (whole FEC sets of 32).
    #[arg(long, default_value_t = 64)]
    shreds_per_slot: u32,
    /// The limit, in slots' worth of data shreds (`--limit-ledger-size` = this × shreds per
    /// slot).
    #[arg(long, default_value_t = 1_000)]
    limit_slots: u64,
    /// Full-slot reader threads (reading among the newest `limit_slots / 2` slots).
    #[arg(long, default_value_t = 2)]
    readers: usize,
    /// Sample every this many inserted slots.
    #[arg(long, default_value_t = 250)]
    sample_every: u64,
    /// Where the CSV and charts go.
    #[arg(long, default_value = "soak-out")]
    out: PathBuf,
    /// Keep the ledger in this new directory (default: a temporary one, removed at the end).
    #[arg(long, value_name = "DIR")]
    ledger: Option<PathBuf>,
}

/// One sample of the run.
struct Sample {
    slots: u64,
    disk_bytes: u64,
    rss_bytes: u64,
    read_p99_us: u64,
    reads: usize,
}

/// Runs the soak.
pub(crate) fn run(args: SoakArgs) -> Result<(), Box<dyn std::error::Error>> {
    let temp;
    let ledger: &Path = match &args.ledger {
        Some(dir) if dir.exists() => {
            return Err(format!("{} exists: the soak needs a new ledger", dir.display()).into());
        }
        Some(dir) => dir,
        None => {
            temp = tempfile::tempdir()?;
            temp.path()
        }
    };
    let store = Arc::new(Blockstore::open(ledger, AccessMode::ReadWrite)?);
    let max_shreds = args.limit_slots * u64::from(args.shreds_per_slot);
    let retention = Retention {
        max_shreds,
        root_lag: 32,
        interval: 50,
    };
    let config = PipelineConfig {
        slots: args.slots,
        shreds_per_slot: args.shreds_per_slot,
        slot_time: Duration::ZERO,
        readers: args.readers,
        reader_window: Some((args.limit_slots / 2).max(1)),
        retention: Some(retention),
        metrics: MetricsSink::Off,
        ..PipelineConfig::default()
    };
    let progress = Progress::default();
    let done = AtomicBool::new(false);
    let started = Instant::now();
    let db = ledger.join("rocksdb");
    let (report, samples) = std::thread::scope(|scope| {
        let sampler = scope.spawn(|| sample(&db, &progress, &done, args.sample_every));
        let report = run_pipeline(&store, &config, &progress);
        done.store(true, Ordering::Release);
        (report, sampler.join().unwrap_or_default())
    });
    let report = report?;
    let per_slot = report
        .generated
        .shreds
        .div_ceil(report.generated.slots.max(1))
        .max(1);
    let kept = check_retained(&store, args.slots, max_shreds / per_slot)?;
    std::fs::create_dir_all(&args.out)?;
    write_outputs(&args.out, &samples)?;
    let flat = |f: fn(&Sample) -> u64| {
        // Second half of the run against its first half (after the limit was reached).
        let late: Vec<u64> = samples.iter().skip(samples.len() / 2).map(f).collect();
        let early: Vec<u64> = samples
            .iter()
            .take(samples.len() / 2)
            .skip(samples.len() / 4)
            .map(f)
            .collect();
        let max = |v: &[u64]| v.iter().copied().max().unwrap_or(0);
        (max(&early), max(&late))
    };
    let summary = json!({
        "slots": args.slots,
        "limit_shreds": max_shreds,
        "elapsed_s": started.elapsed().as_secs_f64(),
        "replayed": report.replayed,
        "failures": report.failures.len(),
        "purged_slots": progress.purged_slots.load(Ordering::Relaxed),
        "reads": report.readers.reads,
        "read_errors": report.readers.errors,
        "reads_of_purged_slots": progress.cleaned_reads.load(Ordering::Relaxed),
        "read_p99_us": report.readers.read_latency.p99,
        "slots_checked_whole": kept,
        "disk_bytes_max_q2_vs_late": flat(|s| s.disk_bytes),
        "rss_bytes_max_q2_vs_late": flat(|s| s.rss_bytes),
        "read_p99_us_max_q2_vs_late": flat(|s| s.read_p99_us),
        "out": args.out.display().to_string(),
    });
    println!("{summary}");
    if report.readers.errors > 0 || !report.failures.is_empty() {
        return Err(format!(
            "{} read errors, {} slots not replayed (first: {:?})",
            report.readers.errors,
            report.failures.len(),
            report.failures.first()
        )
        .into());
    }
    Ok(())
}

fn sample(db: &Path, progress: &Progress, done: &AtomicBool, every: u64) -> Vec<Sample> {
    let mut samples = Vec::new();
    let mut next = every.max(1);
    loop {
        let finished = done.load(Ordering::Acquire);
        let slots = progress.inserted.load(Ordering::Relaxed);
        if slots >= next || finished {
            let mut reads = progress.take_recent_reads();
            let latency = Latency::of(&mut reads);
            samples.push(Sample {
                slots,
                disk_bytes: bytes_on_disk(db).unwrap_or(0),
                rss_bytes: rss().0,
                read_p99_us: latency.p99,
                reads: reads.len(),
            });
            next = slots + every.max(1);
        }
        if finished {
            return samples;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Every slot among the newest `fit - 1` — those whose data shreds fit in the limit, less
/// one slot of slack for the limit's slot granularity — must be whole: full, and fetching
/// its entries. Returns how many were checked.
fn check_retained(
    store: &Blockstore,
    newest: u64,
    fit: u64,
) -> Result<u64, Box<dyn std::error::Error>> {
    let keep = fit.saturating_sub(1).min(newest);
    for slot in newest + 1 - keep..=newest {
        let meta = store
            .meta(Slot(slot))?
            .ok_or_else(|| format!("slot {slot}, within the limit, was purged"))?;
        if !meta.is_full() {
            return Err(format!("slot {slot}, within the limit, is not whole: {meta:?}").into());
        }
        if store.get_slot_entries(Slot(slot), 0)?.is_empty() {
            return Err(format!("slot {slot}, within the limit, has no entries").into());
        }
    }
    Ok(keep)
}

fn write_outputs(out: &Path, samples: &[Sample]) -> std::io::Result<()> {
    let mut csv = String::from("slots,disk_bytes,rss_bytes,read_p99_us,reads\n");
    for s in samples {
        csv.push_str(&format!(
            "{},{},{},{},{}\n",
            s.slots, s.disk_bytes, s.rss_bytes, s.read_p99_us, s.reads
        ));
    }
    std::fs::write(out.join("soak.csv"), csv)?;
    let chart = |name: &str, title: &str, y: &str, f: &dyn Fn(&Sample) -> f64| {
        let line = Line {
            label: "bstore".to_string(),
            points: samples.iter().map(|s| (s.slots, f(s))).collect(),
        };
        std::fs::write(out.join(name), render_svg(title, y, &[line]))
    };
    if samples.is_empty() {
        return Ok(());
    }
    chart(
        "disk.svg",
        "Ledger disk use over inserted slots",
        "MiB",
        &|s| s.disk_bytes as f64 / 1048576.0,
    )?;
    chart(
        "rss.svg",
        "Resident memory over inserted slots",
        "MiB",
        &|s| s.rss_bytes as f64 / 1048576.0,
    )?;
    chart(
        "read_p99.svg",
        "Full-slot read p99 per interval",
        "µs",
        &|s| s.read_p99_us as f64,
    )
}
