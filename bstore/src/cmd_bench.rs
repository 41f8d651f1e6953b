//! `bstore bench fetch`: builds a temporary synthetic ledger and measures, in one run, the
//! per-slot full fetch time of each path against the floor (the same multi-get plus one
//! copy of the data bytes, with no deshred rules or decoding).

use std::path::{Path, PathBuf};
use std::time::Instant;

use bstore_ledger::fetch::{AllowDead, EntryFetch, FetchBuffer, ShredRanges, ViewFetch};
use bstore_ledger::store::{AccessMode, Blockstore, ReadPath};

use crate::bench_ledger::{BenchSlots, BenchStore};
use bstore_ledger::synth::{SlotGenerator, SlotSpec};
use bstore_ledger::{Hash, Slot};
use bstore_testkit::floor::{copy_slot_data_scan_unchecked, copy_slot_data_unchecked};
use clap::{Args, Subcommand, ValueEnum};
use serde_json::{Value, json};

/// Arguments of `bstore bench`.
#[derive(Debug, Args)]
pub(crate) struct BenchArgs {
    #[command(subcommand)]
    command: BenchCommand,
}

#[derive(Debug, Subcommand)]
enum BenchCommand {
    /// Per-slot full fetch time: serial owned, views, pool (feature fetch-pool), floor.
    Fetch(FetchArgs),
    /// getBlock's work per block (fetch with history, encode json / base64 with meta) on an
    /// existing ledger; `agave-interop encode-bench` is its Agave twin.
    #[command(name = "getblock")]
    GetBlock(crate::cmd_bench_getblock::GetBlockArgs),
    /// Shred insert on a fresh ledger per round, from stream files;
    /// `agave-interop insert-bench` is its Agave twin.
    Insert(crate::cmd_bench_insert::InsertArgs),
    /// JSON-RPC load on a server from a request list (one JSON line: p50 / p99 per
    /// method); `interop/live/load.py` runs it against bstore and a validator's own RPC.
    RpcLoad(crate::cmd_bench_rpc::RpcLoadArgs),
    /// Retention soak: the whole pipeline over many slots with a ledger limit; charts disk
    /// use, RSS and read p99, and checks nothing within the limit was lost.
    Soak(crate::cmd_soak::SoakArgs),
    /// (Used by `bench fetch`.) Opens LEDGER read-only in this fresh process and prints the
    /// resident memory one full-slot view fetch of SLOT adds, as JSON.
    #[command(hide = true)]
    FetchPeak {
        #[arg(long)]
        ledger: PathBuf,
        #[arg(long)]
        slot: u64,
        /// Warm the block cache with a multi-get of the slot before the baseline.
        #[arg(long)]
        warm: bool,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
}

#[derive(Debug, Args)]
struct FetchArgs {
    /// About this many data shreds per slot (the generated ledger; not with --ledger).
    #[arg(long, required_unless_present = "ledger", conflicts_with = "ledger")]
    shreds_per_slot: Option<u32>,
    /// Slots in the temporary ledger; with --ledger, the newest full slots timed.
    #[arg(long, default_value_t = 20)]
    slots: u64,
    /// Time an existing ledger instead (Agave's included); it is never written.
    #[arg(long, value_name = "DIR")]
    ledger: Option<PathBuf>,
    /// How --ledger is opened.
    #[arg(long, value_enum, default_value_t = crate::ledger_tool::Access::Secondary)]
    access: crate::ledger_tool::Access,
    /// Times each slot is fetched per path.
    #[arg(long, default_value_t = 5)]
    rounds: usize,
    /// Workers of the fetch pool (feature fetch-pool).
    #[arg(long, default_value_t = 2)]
    pool_threads: usize,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Runs `bstore bench`.
pub(crate) fn run(args: BenchArgs) -> Result<(), Box<dyn std::error::Error>> {
    match args.command {
        BenchCommand::Fetch(a) => fetch(&a),
        BenchCommand::Insert(a) => crate::cmd_bench_insert::run(&a),
        BenchCommand::RpcLoad(a) => crate::cmd_bench_rpc::run(&a),
        BenchCommand::Soak(a) => crate::cmd_soak::run(a),
        BenchCommand::GetBlock(a) => crate::cmd_bench_getblock::run(&a),
        BenchCommand::FetchPeak { ledger, slot, warm } => fetch_peak(&ledger, Slot(slot), warm),
    }
}

struct Sample {
    name: &'static str,
    us: Vec<f64>,
}

impl Sample {
    fn quantile(&self, q: f64) -> f64 {
        let mut v = self.us.clone();
        v.sort_by(f64::total_cmp);
        let i = ((v.len() as f64 - 1.0) * q).round() as usize;
        v.get(i).copied().unwrap_or(0.0)
    }
}

fn time_us(
    f: impl FnOnce() -> Result<(), Box<dyn std::error::Error>>,
) -> Result<f64, Box<dyn std::error::Error>> {
    let t = Instant::now();
    f()?;
    Ok(t.elapsed().as_secs_f64() * 1e6)
}

/// (VmRSS, VmHWM) in bytes, from /proc/self/status.
pub(crate) fn rss() -> (u64, u64) {
    let text = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        text.lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse::<u64>().ok())
            .map_or(0, |kb| kb * 1024)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// The ledger to time and each slot with its data bytes.
type BenchLedger = (BenchStore, BenchSlots);

fn build(dir: &Path, args: &FetchArgs) -> Result<BenchLedger, Box<dyn std::error::Error>> {
    let store = Blockstore::open(dir, AccessMode::ReadWrite)?;
    let mut generator = SlotGenerator::new(42, 1);
    let spec = SlotSpec {
        data_shreds: args.shreds_per_slot.unwrap_or(1024),
        ..SlotSpec::default()
    };
    let mut hash = Hash::default();
    let mut slots = Vec::new();
    for s in 1..=args.slots {
        let g = generator.generate(Slot(s), Slot(s - 1), hash, spec)?;
        store.insert_shreds(&g.data_shreds)?;
        hash = g.blockhash;
        slots.push((Slot(s), g.data_bytes));
    }
    Ok((BenchStore::Built(store), slots))
}

fn fetch(args: &FetchArgs) -> Result<(), Box<dyn std::error::Error>> {
    let temp;
    let (dir, (held, slots)) = match &args.ledger {
        Some(dir) => (
            dir.as_path(),
            crate::bench_ledger::open_existing(dir, args.access, args.slots)?,
        ),
        None => {
            temp = tempfile::tempdir()?;
            (temp.path(), build(temp.path(), args)?)
        }
    };
    let store = held.store();
    let slot_bytes = slots.iter().map(|(_, b)| *b).sum::<u64>() as f64 / slots.len().max(1) as f64;
    let mut samples = vec![
        Sample {
            name: "floor",
            us: Vec::new(),
        },
        Sample {
            name: "views",
            us: Vec::new(),
        },
        Sample {
            name: "serial",
            us: Vec::new(),
        },
        Sample {
            name: "floor_scan",
            us: Vec::new(),
        },
        Sample {
            name: "views_multiget",
            us: Vec::new(),
        },
        Sample {
            name: "serial_multiget",
            us: Vec::new(),
        },
    ];
    let mut floor_buf = Vec::new();
    let mut view_buf = FetchBuffer::new();
    // Warm the block cache once so every path reads the same warm state.
    for (slot, _) in &slots {
        copy_slot_data_unchecked(store, *slot, 0, &mut floor_buf)?;
    }
    #[cfg(feature = "fetch-pool")]
    let pool = bstore_ledger::fetch::FetchPool::new(
        std::num::NonZeroUsize::new(args.pool_threads)
            .ok_or("--pool-threads must be at least 1")?,
        "bench-fetch",
    )?;
    #[cfg(feature = "fetch-pool")]
    samples.push(Sample {
        name: "pool",
        us: Vec::new(),
    });
    for _ in 0..args.rounds {
        for (slot, _) in &slots {
            let slot = *slot;
            // Interleaved per slot, so drift in machine load hits every path alike.
            samples[0].us.push(time_us(|| {
                copy_slot_data_unchecked(store, slot, 0, &mut floor_buf)?;
                Ok(())
            })?);
            samples[1].us.push(time_us(|| {
                let v = store.fetch_slot_views(slot, 0, AllowDead::No, &mut view_buf)?;
                std::hint::black_box(v.num_entries());
                Ok(())
            })?);
            samples[2].us.push(time_us(|| {
                let e = store.get_slot_entries_with_shred_info(slot, 0, AllowDead::No)?;
                std::hint::black_box(e);
                Ok(())
            })?);
            samples[3].us.push(time_us(|| {
                copy_slot_data_scan_unchecked(store, slot, 0, &mut floor_buf)?;
                Ok(())
            })?);
            // The same fetches reading with the multi-get instead of the range scan.
            store.set_read_path(ReadPath::MultiGet);
            samples[4].us.push(time_us(|| {
                let v = store.fetch_slot_views(slot, 0, AllowDead::No, &mut view_buf)?;
                std::hint::black_box(v.num_entries());
                Ok(())
            })?);
            samples[5].us.push(time_us(|| {
                let e = store.get_slot_entries_with_shred_info(slot, 0, AllowDead::No)?;
                std::hint::black_box(e);
                Ok(())
            })?);
            store.set_read_path(ReadPath::default());
            #[cfg(feature = "fetch-pool")]
            samples[6].us.push(time_us(|| {
                let e = store.get_slot_entries_pooled(slot, 0, AllowDead::No, &pool)?;
                std::hint::black_box(e);
                Ok(())
            })?);
        }
    }
    let probe = slots[slots.len() / 2].0;
    drop(held);
    let peaks = [
        peak_in_child(dir, probe, false)?,
        peak_in_child(dir, probe, true)?,
    ];
    report(args, &samples, slot_bytes, peaks)
}

/// Runs `bench fetch-peak` in a fresh process (so freed heap pages of this one do not hide
/// the allocation) and returns the extra resident bytes it measured.
fn peak_in_child(ledger: &Path, slot: Slot, warm: bool) -> Result<u64, Box<dyn std::error::Error>> {
    let exe = std::env::current_exe()?;
    let mut cmd = std::process::Command::new(exe);
    cmd.args(["bench", "fetch-peak", "--ledger"])
        .arg(ledger)
        .args(["--slot", &slot.0.to_string()]);
    if warm {
        cmd.arg("--warm");
    }
    let out = cmd.output()?;
    if !out.status.success() {
        return Err(format!(
            "fetch-peak failed: {}",
            String::from_utf8_lossy(&out.stderr)
        )
        .into());
    }
    let v: Value = serde_json::from_slice(&out.stdout)?;
    v["extra_bytes"]
        .as_u64()
        .ok_or_else(|| "fetch-peak printed no extra_bytes".into())
}

/// Resident bytes one full-slot view fetch adds above this process's baseline (VmHWM after
/// the fetch minus VmRSS before it).
fn fetch_peak(ledger: &Path, slot: Slot, warm: bool) -> Result<(), Box<dyn std::error::Error>> {
    let store = Blockstore::open(ledger, AccessMode::ReadOnly)?;
    if warm {
        // A multi-get of the slot's shreds, pinned and dropped: fills the block cache without
        // leaving a Rust allocation behind.
        std::hint::black_box(store.data_shred_count(slot)?);
    }
    // Make the peak mark start from here (Linux: "5" resets VmHWM to the current RSS).
    let _ = std::fs::write("/proc/self/clear_refs", "5");
    let (base, _) = rss();
    let mut buf = FetchBuffer::new();
    let v = store.fetch_slot_views(slot, 0, AllowDead::No, &mut buf)?;
    std::hint::black_box(v.num_entries());
    let (_, peak) = rss();
    let extra = peak.saturating_sub(base);
    let line = json!({ "baseline_bytes": base, "peak_bytes": peak, "extra_bytes": extra });
    println!("{line}");
    Ok(())
}

/// `peaks`: extra resident bytes of one view fetch in a fresh process, [cold, warm cache].
fn report(
    args: &FetchArgs,
    samples: &[Sample],
    slot_bytes: f64,
    peaks: [u64; 2],
) -> Result<(), Box<dyn std::error::Error>> {
    let floor = samples[0].quantile(0.5);
    let (_, peak_rss) = rss();
    let mut out = json!({
        "shreds_per_slot": args.shreds_per_slot,
        "ledger": args.ledger.as_ref().map(|p| p.display().to_string()),
        "slots": args.slots,
        "rounds": args.rounds,
        "slot_data_bytes": slot_bytes.round(),
        "peak_rss_bytes": peak_rss,
        "view_fetch_extra_rss_cold_bytes": peaks[0],
        "view_fetch_extra_rss_warm_bytes": peaks[1],
        "pool_threads": if cfg!(feature = "fetch-pool") { Some(args.pool_threads) } else { None },
        "pool_us": Value::Null,
    });
    for s in samples {
        let p50 = s.quantile(0.5);
        out[format!("{}_us", s.name)] = json!(round2(p50));
        out[format!("{}_p99_us", s.name)] = json!(round2(s.quantile(0.99)));
        out[format!("{}_mb_s", s.name)] = json!(round2(slot_bytes / p50));
        out[format!("{}_vs_floor", s.name)] = json!(round2(p50 / floor));
    }
    match args.format {
        Format::Json => println!("{out}"),
        Format::Text => {
            let source = match (&args.ledger, args.shreds_per_slot) {
                (Some(dir), _) => format!("newest full slots of {}", dir.display()),
                (None, n) => format!("generated slots x ~{} data shreds", n.unwrap_or(1024)),
            };
            println!(
                "{} {source} ({slot_bytes:.0} data bytes/slot), {} rounds",
                args.slots, args.rounds
            );
            println!(
                "{:<8} {:>12} {:>12} {:>10} {:>9}",
                "path", "median µs", "p99 µs", "MB/s", "x floor"
            );
            for s in samples {
                let p50 = s.quantile(0.5);
                println!(
                    "{:<8} {:>12.1} {:>12.1} {:>10.1} {:>9.2}",
                    s.name,
                    p50,
                    s.quantile(0.99),
                    slot_bytes / p50,
                    p50 / floor
                );
            }
            println!("peak RSS: {:.1} MiB", peak_rss as f64 / (1 << 20) as f64);
            for (label, bytes) in [
                ("cold block cache", peaks[0]),
                ("warm block cache", peaks[1]),
            ] {
                println!(
                    "one full-slot view fetch, {label}: +{:.1} KiB resident ({:.2}x the slot's data bytes)",
                    bytes as f64 / 1024.0,
                    bytes as f64 / slot_bytes
                );
            }
        }
    }
    Ok(())
}

fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}
