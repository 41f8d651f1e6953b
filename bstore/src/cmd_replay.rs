//! `bstore replay`: replays the full or rooted slots of an existing ledger in slot order,
//! verifying PoH and the tick rules, marking bad slots dead, and printing the per-slot
//! statistics of `docs/consumers.md#replay` (a table, or JSON lines with the documented field
//! names), then a
//! summary. Datapoints go to InfluxDB when `SOLANA_METRICS_CONFIG` is set.
//!
//! The ledger is only read (as a RocksDB secondary, or read-only) unless `--access
//! read-write` asks to mark failing slots dead; no access mode creates a ledger.
//! `--follow` keeps replaying a ledger its writer still writes (`replay_follow.rs`).

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use bstore_ledger::entry::TickRules;
use bstore_ledger::fetch::{FetchBuffer, last_entry_hash};
use bstore_ledger::store::{AccessMode, Blockstore};
use bstore_ledger::{Hash, Slot};
use bstore_replay::{
    Alpenglow, Completion, CountingExecutor, DeadSlots, MetricsSink, ReplayDriver, ReplayOptions,
    SlotStats, SlotStatus, follow,
};
use serde_json::json;

use crate::cmd_shreds::HashLimitArgs;
use crate::ledger_tool::{self, Access};
use crate::open_args::WalArgs;
use crate::replay_follow;

/// How `bstore replay` opens the ledger.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ReplayAccess {
    /// A RocksDB secondary with its files in a fresh temporary directory (works beside a
    /// running validator); dead slots are reported, not marked.
    Secondary,
    /// RocksDB read-only; dead slots are reported, not marked.
    ReadOnly,
    /// The one writer: failing slots are marked dead in the ledger (refused while another
    /// process holds the ledger).
    ReadWrite,
}

/// `bstore replay ...`
#[derive(Debug, clap::Args)]
pub(crate) struct ReplayArgs {
    /// Ledger directory (the database is LEDGER/rocksdb); it must exist.
    #[arg(long, value_name = "DIR")]
    pub ledger: PathBuf,
    /// How the ledger is opened: only `read-write` writes (it marks failing slots dead).
    #[arg(long, value_enum, default_value_t = ReplayAccess::Secondary)]
    pub access: ReplayAccess,
    #[command(flatten)]
    pub wal: WalArgs,
    /// First slot to replay (default: the lowest in the ledger).
    #[arg(long, value_name = "SLOT")]
    pub from: Option<u64>,
    /// Last slot to replay (default: the highest in the ledger).
    #[arg(long, value_name = "SLOT")]
    pub to: Option<u64>,
    /// Blockhash of the first slot's parent, when the parent is not in the ledger (base58;
    /// from a snapshot or an explorer).
    #[arg(long, value_name = "HASH")]
    pub parent_blockhash: Option<Hash>,
    /// Hashes between ticks to enforce (mainnet and testnet: 62500); unchecked when not
    /// given or 0 (the hash limits below apply then).
    #[arg(long, value_name = "N")]
    pub hashes_per_tick: Option<u64>,
    #[command(flatten)]
    pub limits: HashLimitArgs,
    /// With `--access read-write`: report bad slots but do not set their dead flag (the
    /// ledger is then opened read-only). The other access modes never mark.
    #[arg(long)]
    pub no_mark_dead: bool,
    /// The Alpenglow genesis slot: slots after it are Alpenglow blocks (block markers, one
    /// hash per entry, one final tick; `docs/block-components.md#replay`). Without it every
    /// slot is a TowerBFT slot and a block marker makes it dead, as in Agave before the
    /// migration.
    #[arg(long, value_name = "SLOT")]
    pub alpenglow_genesis_slot: Option<u64>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Keep replaying a ledger its writer (a validator) still writes: as a secondary, each
    /// slot is replayed as its data sets complete and reported once when final, until
    /// SIGINT or SIGTERM. Starts after the newest root (or the highest full slot), trusting
    /// its last entry hash, unless `--from` names the first slot.
    #[arg(long, conflicts_with = "to")]
    pub follow: bool,
    /// With `--follow`: when to catch up with the writer.
    #[command(flatten)]
    pub catch_up: crate::open_args::CatchUpArgs,
}

/// How `bstore replay` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
    /// One aligned row per slot.
    Table,
    /// One JSON object per line (`docs/consumers.md#replay` field names), then a summary line.
    Json,
}

#[derive(Debug, Default)]
struct Summary {
    replayed: u64,
    dead: u64,
    refused: u64,
    entries: u64,
    transactions: u64,
    shreds: u64,
    fetch_us: u64,
}

/// Runs `bstore replay`.
pub(crate) fn run(args: ReplayArgs) -> Result<(), Box<dyn std::error::Error>> {
    bstore_metrics::init()?;
    let access = match args.access {
        ReplayAccess::ReadWrite if args.no_mark_dead => ReplayAccess::ReadOnly,
        other => other,
    };
    let (store, dead_slots, _secondary_dir) = match access {
        ReplayAccess::ReadWrite => {
            let options = args.wal.existing(AccessMode::ReadWrite);
            let store = Blockstore::open_with(&args.ledger, &options)?;
            (store, DeadSlots::Mark, None)
        }
        ReplayAccess::ReadOnly | ReplayAccess::Secondary => {
            let read = if access == ReplayAccess::ReadOnly {
                Access::ReadOnly
            } else {
                Access::Secondary
            };
            let (store, dir) = ledger_tool::open(&args.ledger, read, args.wal)?.into_parts();
            (store, DeadSlots::Report, dir)
        }
    };
    // Declared after the secondary directory, so it is dropped (closed) before it.
    let store = Arc::new(store);
    if args.follow {
        if access != ReplayAccess::Secondary {
            return Err(
                "--follow reads beside a live writer: it needs --access secondary \
                        (the default)"
                    .into(),
            );
        }
        return run_follow(&args, store);
    }
    let slots = replayable_slots(&store, &args)?;
    if slots.is_empty() {
        return Err(format!(
            "no full or rooted slot in {} within the range",
            args.ledger.display()
        )
        .into());
    }
    let options = replay_options(&args, dead_slots, Completion::Final);
    let mut driver = ReplayDriver::new(Arc::clone(&store), options, CountingExecutor::new());
    seed_parents(&store, &mut driver, &slots, args.parent_blockhash)?;

    print_header(args.format);
    let mut summary = Summary::default();
    for slot in slots {
        let status = driver.replay(slot)?;
        print_status(args.format, slot, &status, &mut summary);
    }
    bstore_metrics::flush();
    print_summary(args.format, &summary);
    Ok(())
}

fn replay_options(
    args: &ReplayArgs,
    dead_slots: DeadSlots,
    completion: Completion,
) -> ReplayOptions {
    ReplayOptions {
        tick_rules: TickRules {
            ticks_per_slot: TickRules::DEFAULT_TICKS_PER_SLOT,
            hashes_per_tick: args.hashes_per_tick,
        },
        hash_limits: args.limits.limits(),
        dead_slots,
        completion,
        metrics: MetricsSink::Global,
        alpenglow: args
            .alpenglow_genesis_slot
            .map_or(Alpenglow::Off, |s| Alpenglow::After(Slot(s))),
        ..ReplayOptions::default()
    }
}

fn print_header(format: Format) {
    if format == Format::Table {
        println!(
            "{:>12} {:>8} {:>7} {:>7} {:>6} {:>8} {:>10} {:>10} {:>10} {:>10}  note",
            "slot",
            "status",
            "shreds",
            "entries",
            "txs",
            "batches",
            "fetch_us",
            "poh_us",
            "replay_us",
            "total_us"
        );
    }
}

/// `--follow`: replays the slots a live writer adds until SIGINT or SIGTERM.
fn run_follow(args: &ReplayArgs, store: Arc<Blockstore>) -> Result<(), Box<dyn std::error::Error>> {
    let exit = Arc::new(AtomicBool::new(false));
    replay_follow::stop_on_signals(Arc::clone(&exit))?;
    let options = replay_options(args, DeadSlots::Report, Completion::Streaming);
    let mut driver = ReplayDriver::new(Arc::clone(&store), options, CountingExecutor::new());
    let start = match args.from {
        Some(from) => {
            seed_parents(&store, &mut driver, &[Slot(from)], args.parent_blockhash)?;
            Slot(from)
        }
        None => {
            let anchor = follow_anchor(&store)?;
            let Some(hash) = last_entry_hash(store.as_ref(), anchor, &mut FetchBuffer::new())?
            else {
                return Err(format!("slot {anchor} has no entries to start from").into());
            };
            eprintln!(
                "bstore: following {} after slot {anchor}, trusting its last entry hash {hash}",
                args.ledger.display()
            );
            driver.seed_blockhash(anchor, hash);
            Slot(anchor.0.saturating_add(1))
        }
    };
    print_header(args.format);
    let pacer = store.catch_up_pacer(args.catch_up.pacing());
    if let Some(e) = pacer.watch_error() {
        eprintln!("bstore: {e}; catching up at fixed intervals instead");
    }
    let updates = replay_follow::watch(Arc::clone(&store), start, pacer, Arc::clone(&exit));
    let mut summary = Summary::default();
    let outcome = follow(&mut driver, &updates, &exit, |slot, status| {
        print_status(args.format, slot, &status, &mut summary);
    })?;
    bstore_metrics::flush();
    print_summary(args.format, &summary);
    if !outcome.unfinished.is_empty() {
        eprintln!(
            "bstore: stopped with {} slot(s) still in progress or waiting for a parent",
            outcome.unfinished.len()
        );
    }
    Ok(())
}

/// Where `--follow` starts without `--from`: the newest root that is full and not dead,
/// else the highest such slot.
fn follow_anchor(store: &Blockstore) -> Result<Slot, Box<dyn std::error::Error>> {
    let usable = |slot: Slot| -> Result<bool, Box<dyn std::error::Error>> {
        Ok(store.meta(slot)?.is_some_and(|m| m.is_full()) && !store.is_dead(slot)?)
    };
    if let Some(root) = store.max_root()?
        && usable(root)?
    {
        return Ok(root);
    }
    let mut highest = None;
    for meta in store.slot_metas(..) {
        let meta = meta?;
        if meta.is_full() && !store.is_dead(meta.slot)? {
            highest = Some(meta.slot);
        }
    }
    highest.ok_or_else(|| "no full slot to start following from (use --from)".into())
}

/// Full or rooted slots with a meta within `--from ..= --to`, ascending.
fn replayable_slots(
    store: &Blockstore,
    args: &ReplayArgs,
) -> Result<Vec<Slot>, Box<dyn std::error::Error>> {
    let from = Slot(args.from.unwrap_or(0));
    let to = Slot(args.to.unwrap_or(u64::MAX));
    let mut slots = Vec::new();
    for meta in store.slot_metas(from..=to) {
        let meta = meta?;
        if meta.is_full() || store.is_root(meta.slot)? {
            slots.push(meta.slot);
        }
    }
    Ok(slots)
}

/// Seeds the parent of the first slot with `--parent-blockhash`; a parent outside the range
/// that is full in the ledger gives its last entry hash (trusted, not re-verified).
fn seed_parents(
    store: &Blockstore,
    driver: &mut ReplayDriver,
    slots: &[Slot],
    given: Option<Hash>,
) -> Result<(), Box<dyn std::error::Error>> {
    let Some(&first) = slots.first() else {
        return Ok(());
    };
    let first_parent = store.meta(first)?.and_then(|m| m.parent_slot);
    if let (Some(parent), Some(hash)) = (first_parent, given) {
        driver.seed_blockhash(parent, hash);
    }
    for &slot in slots {
        let Some(parent) = store.meta(slot)?.and_then(|m| m.parent_slot) else {
            continue;
        };
        if slots.binary_search(&parent).is_ok() || driver.blockhash(parent).is_some() {
            continue;
        }
        let full = store.meta(parent)?.is_some_and(|m| m.is_full());
        if !full {
            continue;
        }
        if store.is_dead(parent)? {
            continue;
        }
        if let Some(hash) = last_entry_hash(store, parent, &mut FetchBuffer::new())? {
            eprintln!(
                "bstore: slot {slot}: parent {parent} is outside the range; trusting its last \
                 entry hash {hash} as the blockhash"
            );
            driver.seed_blockhash(parent, hash);
        }
    }
    Ok(())
}

fn stats_row(status: &str, s: &SlotStats, note: &str) -> String {
    format!(
        "{:>12} {:>8} {:>7} {:>7} {:>6} {:>8} {:>10} {:>10} {:>10} {:>10}  {note}",
        s.slot,
        status,
        s.total_shreds,
        s.total_entries,
        s.total_transactions,
        s.num_execute_batches,
        s.fetch_entries_time,
        s.entry_poh_verification_time,
        s.replay_time,
        s.replay_total_elapsed
    )
}

fn print_status(format: Format, slot: Slot, status: &SlotStatus, summary: &mut Summary) {
    let (name, stats, note) = match status {
        SlotStatus::Replayed { stats, blockhash } => {
            summary.replayed += 1;
            summary.entries += stats.total_entries;
            summary.transactions += stats.total_transactions;
            summary.shreds += stats.total_shreds;
            summary.fetch_us += stats.fetch_entries_time;
            ("replayed", Some(stats), format!("blockhash {blockhash}"))
        }
        SlotStatus::Dead { stats, error } => {
            summary.dead += 1;
            ("dead", Some(stats), error.to_string())
        }
        SlotStatus::Refused { error } => {
            summary.refused += 1;
            ("refused", None, error.to_string())
        }
        // A final ledger never leaves a slot in progress; report it if it ever does.
        SlotStatus::InProgress { .. } | SlotStatus::WaitingForParent { .. } => {
            summary.refused += 1;
            ("pending", None, format!("{status:?}"))
        }
    };
    match format {
        Format::Table => {
            let empty = SlotStats::new(slot);
            println!("{}", stats_row(name, stats.unwrap_or(&empty), &note));
        }
        Format::Json => {
            let mut line = stats
                .map(|s| serde_json::to_value(s).unwrap_or_default())
                .unwrap_or_else(|| json!({ "slot": slot.0 }));
            if let Some(map) = line.as_object_mut() {
                map.insert("status".into(), json!(name));
                match status {
                    SlotStatus::Replayed { blockhash, .. } => {
                        map.insert("blockhash".into(), json!(blockhash.to_string()));
                    }
                    SlotStatus::Dead { error, .. } | SlotStatus::Refused { error } => {
                        map.insert("reason".into(), json!(error.kind()));
                        map.insert("error".into(), json!(error.to_string()));
                    }
                    _ => {}
                }
            }
            println!("{line}");
        }
    }
}

fn print_summary(format: Format, s: &Summary) {
    match format {
        Format::Table => println!(
            "\n{} replayed, {} dead, {} refused; {} shreds, {} entries, {} transactions; \
             fetch {} µs in total",
            s.replayed, s.dead, s.refused, s.shreds, s.entries, s.transactions, s.fetch_us
        ),
        Format::Json => println!(
            "{}",
            json!({ "summary": {
                "replayed": s.replayed, "dead": s.dead, "refused": s.refused,
                "total_shreds": s.shreds, "total_entries": s.entries,
                "total_transactions": s.transactions, "fetch_entries_time": s.fetch_us,
            }})
        ),
    }
}
