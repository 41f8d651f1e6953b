//! `bstore demo`: the main job. Generates a mainnet-like slot stream and inserts it FEC set
//! by FEC set from an inserter thread, while replay, the completed-data-sets service and K
//! full-slot readers (RPC-like load) run concurrently on the same blockstore. Ends with the
//! per-slot statistics, replay's fetch-time percentiles per call and per slot, the readers'
//! throughput, and a chart of `fetch_entries_time` per slot.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use bstore_ledger::store::{AccessMode, Blockstore};
use bstore_metrics::plot::{self, ChartSpec, REPLAY_SLOT_STATS};
use bstore_replay::{Latency, MetricsSink};
use bstore_testkit::contention::ReaderPriority;
use bstore_testkit::pipeline::{PipelineConfig, PipelineReport, Progress, Retention, run_pipeline};

/// `bstore demo ...`
#[derive(Debug, clap::Args)]
pub(crate) struct DemoArgs {
    /// Slots to generate, insert and replay.
    #[arg(long, default_value_t = 120)]
    pub slots: u64,
    /// Data shreds per slot (about; whole FEC sets of 32).
    #[arg(long, default_value_t = 1024)]
    pub shreds_per_slot: u32,
    /// Full-slot reader threads (RPC getBlock-like load).
    #[arg(long, default_value_t = 2)]
    pub rpc_readers: usize,
    /// Time over which one slot's shreds arrive, in ms (mainnet: 400; 0 = as fast as
    /// possible).
    #[arg(long, default_value_t = 400)]
    pub slot_time_ms: u64,
    /// Hashes between ticks of the generated slots.
    #[arg(long, default_value_t = 2_500)]
    pub hashes_per_tick: u64,
    /// Full-slot reads allowed at once (0 = no limit).
    #[arg(long, default_value_t = 1)]
    pub reader_permits: usize,
    /// Run the readers at normal priority instead of the lowest.
    #[arg(long)]
    pub readers_normal_priority: bool,
    /// Seed of the generated stream.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Ledger directory (must not exist yet); a temporary one when not given.
    #[arg(long, value_name = "DIR")]
    pub ledger: Option<PathBuf>,
    /// Where the chart goes.
    #[arg(long, value_name = "DIR", default_value = "demo-out")]
    pub out: PathBuf,
    /// Keep about this many data shreds (Agave's `--limit-ledger-size`): slots are rooted 32
    /// behind the newest and the oldest rooted ones purged every 50 slots.
    #[arg(long, value_name = "SHREDS")]
    pub limit_ledger_size: Option<u64>,
}

/// Runs `bstore demo`.
pub(crate) fn run(args: DemoArgs) -> Result<(), Box<dyn std::error::Error>> {
    bstore_metrics::init()?;
    let temp;
    let ledger: &Path = match &args.ledger {
        Some(dir) if dir.exists() => {
            return Err(format!("{} exists: the demo needs a new ledger", dir.display()).into());
        }
        Some(dir) => dir,
        None => {
            temp = tempfile::tempdir()?;
            temp.path()
        }
    };
    let store = Arc::new(Blockstore::open(ledger, AccessMode::ReadWrite)?);
    let config = PipelineConfig {
        slots: args.slots,
        shreds_per_slot: args.shreds_per_slot,
        hashes_per_tick: args.hashes_per_tick,
        slot_time: Duration::from_millis(args.slot_time_ms),
        seed: args.seed,
        readers: args.rpc_readers,
        reader_permits: (args.reader_permits > 0).then_some(args.reader_permits),
        reader_priority: if args.readers_normal_priority {
            ReaderPriority::Normal
        } else {
            ReaderPriority::Lowest
        },
        metrics: MetricsSink::Global,
        retention: args.limit_ledger_size.map(|max_shreds| Retention {
            max_shreds,
            root_lag: 32,
            interval: 50,
        }),
        ..PipelineConfig::default()
    };
    eprintln!(
        "bstore demo: {} slots x ~{} shreds, one slot per {} ms, {} reader(s), ledger {}",
        args.slots,
        args.shreds_per_slot,
        args.slot_time_ms,
        args.rpc_readers,
        ledger.display()
    );
    let progress = Progress::default();
    let done = AtomicBool::new(false);
    let report = std::thread::scope(|scope| {
        scope.spawn(|| show_progress(&progress, &done, args.slots));
        let report = run_pipeline(&store, &config, &progress);
        done.store(true, Ordering::Relaxed);
        report
    })?;
    bstore_metrics::flush();

    print_slots(&report);
    print_summary(&report);
    check(&report)?;
    match write_chart(&report, &args.out) {
        Ok(files) => {
            for f in files {
                println!("chart: {}", f.display());
            }
        }
        Err(e) => eprintln!("bstore demo: no chart: {e}"),
    }
    Ok(())
}

/// A progress bar on a terminal; a line every 10 s otherwise.
fn show_progress(progress: &Progress, done: &AtomicBool, slots: u64) {
    let line = || {
        format!(
            "inserted {} | replayed {} | reads {}",
            progress.inserted.load(Ordering::Relaxed),
            progress.finished.load(Ordering::Relaxed),
            progress.reads.load(Ordering::Relaxed)
        )
    };
    if std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(slots);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{elapsed_precise} [{bar:40}] {pos}/{len} {msg}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        while !done.load(Ordering::Relaxed) {
            bar.set_position(progress.finished.load(Ordering::Relaxed));
            bar.set_message(line());
            std::thread::sleep(Duration::from_millis(100));
        }
        bar.finish_and_clear();
    } else {
        let mut ticks = 0u32;
        while !done.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(100));
            ticks += 1;
            if ticks.is_multiple_of(100) {
                eprintln!("bstore demo: {}", line());
            }
        }
    }
}

fn print_slots(report: &PipelineReport) {
    println!(
        "{:>6} {:>7} {:>7} {:>6} {:>8} {:>9} {:>9} {:>9} {:>10} {:>10}",
        "slot",
        "shreds",
        "entries",
        "txs",
        "batches",
        "fetch_us",
        "poh_us",
        "replay_us",
        "confirm_us",
        "total_us"
    );
    for s in &report.slots {
        println!(
            "{:>6} {:>7} {:>7} {:>6} {:>8} {:>9} {:>9} {:>9} {:>10} {:>10}",
            s.slot,
            s.total_shreds,
            s.total_entries,
            s.total_transactions,
            s.num_execute_batches,
            s.fetch_entries_time,
            s.entry_poh_verification_time,
            s.replay_time,
            s.confirmation_time_us,
            s.replay_total_elapsed
        );
    }
    for (slot, why) in &report.failures {
        println!("slot {slot}: {why}");
    }
}

fn latency(name: &str, l: &Latency) -> String {
    format!(
        "{name:<32} p50 {:>7} µs   p99 {:>7} µs   max {:>7} µs   (n = {})",
        l.p50, l.p99, l.max, l.count
    )
}

fn print_summary(report: &PipelineReport) {
    let g = &report.generated;
    println!();
    println!(
        "{} slots generated ({} shreds, {} entries, {} transactions); {} replayed, {} failed; \
         {:.1} s",
        g.slots,
        g.shreds,
        g.entries,
        g.transactions,
        report.replayed,
        report.failures.len(),
        report.elapsed.as_secs_f64()
    );
    println!(
        "{}",
        latency("replay fetch per call", &report.fetch_per_call)
    );
    println!(
        "{}",
        latency("replay fetch per slot", &report.fetch_per_slot)
    );
    println!(
        "{}",
        latency("reader full-slot read", &report.readers.read_latency)
    );
    println!(
        "readers: {} full slots read ({:.1} slots/s), {} errors",
        report.readers.reads,
        report.readers.slots_per_sec(),
        report.readers.errors
    );
    let d = &report.data_sets;
    println!(
        "completed data sets: {} sets, {} signatures, {} errors, max shred-insert slot {}",
        d.sets,
        d.signatures,
        d.errors,
        d.max_shred_insert_slot
            .map_or_else(|| "-".to_string(), |s| s.to_string())
    );
}

/// The demo proves the pipeline: everything generated is replayed and reported.
fn check(report: &PipelineReport) -> Result<(), Box<dyn std::error::Error>> {
    let g = &report.generated;
    let sum = |f: fn(&bstore_replay::SlotStats) -> u64| report.slots.iter().map(f).sum::<u64>();
    let mut problems = Vec::new();
    if !report.failures.is_empty() {
        problems.push(format!("{} slot(s) failed", report.failures.len()));
    }
    if sum(|s| s.total_transactions) != g.transactions {
        problems.push("replayed transactions differ from generated".into());
    }
    if sum(|s| s.total_entries) != g.entries || sum(|s| s.total_shreds) != g.shreds {
        problems.push("replayed entries or shreds differ from generated".into());
    }
    if report.data_sets.signatures != g.transactions || report.data_sets.errors > 0 {
        problems.push("the data-sets service did not report every signature once".into());
    }
    if problems.is_empty() {
        println!("check: every generated slot replayed and every signature reported");
        Ok(())
    } else {
        Err(problems.join("; ").into())
    }
}

/// `fetch_entries_time` per slot as SVG, and PNG when `rsvg-convert` is installed.
fn write_chart(
    report: &PipelineReport,
    out: &Path,
) -> Result<Vec<PathBuf>, Box<dyn std::error::Error>> {
    let points: Vec<_> = report
        .slots
        .iter()
        .map(|s| {
            let mut p = s.to_datapoint();
            p.add_tag("host_id", "bstore-demo");
            p
        })
        .collect();
    let chart = ChartSpec {
        file_stem: "fetch_entries_time".into(),
        title: "Replay fetch_entries_time per slot".into(),
        y_label: "µs".into(),
        value: plot::ValueExpr::Field("fetch_entries_time".into()),
    };
    let files = plot::render_charts(&points, REPLAY_SLOT_STATS, &[chart], out)?;
    let mut all = files.clone();
    for svg in files {
        let png = svg.with_extension("png");
        let converted = std::process::Command::new("rsvg-convert")
            .arg("-o")
            .arg(&png)
            .arg(&svg)
            .status();
        if converted.is_ok_and(|s| s.success()) {
            all.push(png);
        }
    }
    Ok(all)
}
