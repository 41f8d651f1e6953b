//! `bstore ledger ingest|slot|generate|purge|check|repair`: a RocksDB ledger on disk; the
//! read-only agave-ledger-tool commands (`bounds`, `roots`, ...) live in `ledger_tool/`,
//! `check` and `repair` in `cmd_damage.rs`. Only `ingest` and `generate` create a ledger,
//! and only in a missing or empty directory.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use bstore_ledger::fetch::{AllowDead, FetchBuffer, ShredRanges, ViewFetch};
use bstore_ledger::store::{
    Blockstore, InsertOptions, LeaderCheck, MerkleCheck, ShapeRules, WalRecoveryMode,
};
use bstore_ledger::stream::StreamReader;
use bstore_ledger::synth::{SlotGenerator, SlotSpec};
use bstore_ledger::{Hash, Pubkey, Slot};
use bstore_replay::InsertTally;
use clap::{Args, Subcommand};
use serde_json::json;

use crate::cmd_shreds::HashLimitArgs;
use crate::ledger_tool::{self, Access, Detail, Format, ReadArgs};
use crate::open_args::WalArgs;
use crate::purge::ReserveArgs;
use crate::summary::{SlotFacts, SummaryOptions, summarize};

/// Arguments of `bstore ledger`.
#[derive(Debug, Args)]
pub(crate) struct LedgerArgs {
    #[command(subcommand)]
    command: LedgerCommand,
}

#[derive(Debug, Subcommand)]
enum LedgerCommand {
    /// Insert shred stream files into a ledger (created in a missing or empty directory);
    /// prints a JSON summary.
    Ingest {
        /// Ledger directory (the database is DIR/rocksdb).
        #[arg(long)]
        ledger: PathBuf,
        #[command(flatten)]
        wal: WalArgs,
        /// Shreds per insert call (one RocksDB write batch each).
        #[arg(long, default_value_t = 1024)]
        batch: usize,
        /// Reject every shred not signed by this leader (base58 pubkey). Without it only
        /// the Merkle roots of each FEC set are checked against each other.
        #[arg(long, value_name = "PUBKEY")]
        leader: Option<Pubkey>,
        /// Do not check Merkle shreds against their FEC set's root. Only for importing
        /// shreds of a pre-release Merkle layout, or test data changed after signing.
        #[arg(long)]
        skip_merkle_check: bool,
        /// Accept shreds of any FEC-set shape: legacy and unchained Merkle shreds, sets
        /// other than 32:32, DATA_COMPLETE inside a set. For slots written by pre-4.x
        /// validators; by default Agave 4.x's shape rules apply.
        #[arg(long)]
        legacy_shapes: bool,
        /// Keep about this many data shreds: after each batch, purge the oldest slots up to
        /// the highest root (Agave's `--limit-ledger-size`; nothing above the root goes).
        #[arg(long, value_name = "SHREDS")]
        limit_ledger_size: Option<u64>,
        #[command(flatten)]
        reserve: ReserveArgs,
        /// Shred stream files (u64 LE length + packet bytes, repeated).
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Delete slots START..=END (END defaults to START) from every column, then compact so
    /// the space comes back, on a full disk too (agave-ledger-tool's `purge`). Prints a JSON
    /// summary with the database's bytes on disk before and after.
    Purge {
        /// Ledger directory.
        #[arg(long)]
        ledger: PathBuf,
        #[command(flatten)]
        wal: WalArgs,
        /// First slot to purge.
        start: u64,
        /// Last slot to purge (inclusive).
        end: Option<u64>,
    },
    /// Print one slot's JSON summary (same fields as `bstore shreds deshred`), computed
    /// through the store's fetch path. Never writes to the ledger.
    Slot {
        /// Ledger directory.
        #[arg(long)]
        ledger: PathBuf,
        /// The slot.
        slot: u64,
        /// Open as a RocksDB secondary (default: works beside a running writer) or read-only.
        #[arg(long, value_enum, default_value_t = Access::Secondary)]
        access: Access,
        #[command(flatten)]
        wal: WalArgs,
        /// Also print the slot's meta, `index` counts, FEC set rows and duplicate flag.
        #[arg(long)]
        verbose: bool,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Json)]
        format: Format,
        /// Verify PoH from this start hash (base58 parent blockhash).
        #[arg(long, value_name = "START_HASH")]
        verify_poh: Option<Hash>,
        /// Add the first signature of every transaction.
        #[arg(long)]
        signatures: bool,
        #[command(flatten)]
        limits: HashLimitArgs,
    },
    /// Write a synthetic mainnet-like ledger: consecutive rooted slots of signed chained
    /// Merkle shreds, PoH-valid, 64 ticks each.
    /// The data is flushed to SST files before it exits.
    Generate {
        /// Ledger directory (created when missing or empty).
        #[arg(long)]
        ledger: PathBuf,
        #[command(flatten)]
        wal: WalArgs,
        /// Number of slots.
        #[arg(long)]
        slots: u64,
        /// About this many data shreds per slot (whole FEC sets of 32).
        #[arg(long)]
        shreds_per_slot: u32,
        /// Seed of the content and the leader key.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// First slot (its parent, first-1, is not generated).
        #[arg(long, default_value_t = 1)]
        first_slot: u64,
        /// Hashes per tick (mainnet: 62500).
        #[arg(long, default_value_t = 2_500)]
        hashes_per_tick: u64,
        /// Also store Reed–Solomon coding shreds.
        #[arg(long)]
        with_code: bool,
        /// Also write synthetic transaction history (statuses, memos, address signatures,
        /// rewards, block time and height, in Agave's encodings), as a validator would after
        /// executing the slots.
        #[arg(long)]
        with_history: bool,
        #[command(flatten)]
        reserve: ReserveArgs,
    },
    /// Lowest and highest slot with a meta, their count, and the rooted slots
    /// (agave-ledger-tool's `bounds`). Never writes to the ledger.
    Bounds {
        #[command(flatten)]
        read: ReadArgs,
        /// Also list every slot with a meta.
        #[arg(long)]
        all: bool,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Rooted slots: the lowest N at or above --start-root, printed highest first
    /// (agave-ledger-tool's `list-roots`). Never writes to the ledger.
    Roots {
        #[command(flatten)]
        read: ReadArgs,
        /// The lowest root considered.
        #[arg(long, default_value_t = 0)]
        start_root: u64,
        /// At most this many roots (default: all).
        #[arg(long, alias = "num-roots", value_name = "N")]
        max_roots: Option<usize>,
        /// Also print each root's blockhash (last entry hash), as Agave's `list-roots` does.
        #[arg(long)]
        blockhash: bool,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Slots marked dead at or above --start-slot (agave-ledger-tool's `dead-slots`).
    /// Never writes to the ledger.
    DeadSlots {
        #[command(flatten)]
        read: ReadArgs,
        /// The lowest slot listed.
        #[arg(long, alias = "starting-slot", default_value_t = 0)]
        start_slot: u64,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Slots with a stored duplicate-slot proof at or above --start-slot
    /// (agave-ledger-tool's `duplicate-slots`). Never writes to the ledger.
    DuplicateSlots {
        #[command(flatten)]
        read: ReadArgs,
        /// The lowest slot listed.
        #[arg(long, alias = "starting-slot", default_value_t = 0)]
        start_slot: u64,
        /// Also print each proof's two shreds by their headers.
        #[arg(long)]
        verbose: bool,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Keys, key bytes, value bytes and value sizes per column family, from a full scan
    /// (agave-ledger-tool's `analyze-storage`). Never writes to the ledger.
    Analyze {
        #[command(flatten)]
        read: ReadArgs,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Verify every file of the ledger database: CURRENT and its MANIFEST, every
    /// write-ahead-log record, every live SST file's presence and size, every block
    /// checksum. Reports all damage; exits non-zero on any. Never writes to the ledger.
    Check {
        /// Ledger directory.
        #[arg(long)]
        ledger: PathBuf,
        /// How the write-ahead logs are replayed for the check (default:
        /// absolute_consistency, so any damaged record is reported).
        #[arg(long, value_name = "MODE")]
        wal_recovery_mode: Option<WalRecoveryMode>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Back up every file of a damaged ledger database into --backup, then repair it
    /// (restore a deleted CURRENT; else RocksDB's repair) and check it again. Stop every
    /// process using the ledger first. A healthy ledger is left alone.
    Repair {
        /// Ledger directory.
        #[arg(long)]
        ledger: PathBuf,
        /// New or empty directory, outside the database, that receives a copy of every
        /// file before anything changes.
        #[arg(long, value_name = "DIR")]
        backup: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
}

/// Runs `bstore ledger`.
pub(crate) fn run(args: LedgerArgs) -> Result<(), Box<dyn std::error::Error>> {
    match args.command {
        LedgerCommand::Ingest {
            ledger,
            wal,
            batch,
            leader,
            skip_merkle_check,
            legacy_shapes,
            limit_ledger_size,
            reserve,
            files,
        } => {
            let options = InsertOptions {
                leader: leader.map_or(LeaderCheck::Skip, LeaderCheck::Verify),
                merkle: if skip_merkle_check {
                    MerkleCheck::Skip
                } else {
                    MerkleCheck::Verify
                },
                shape: if legacy_shapes {
                    ShapeRules::Legacy
                } else {
                    ShapeRules::Agave4
                },
            };
            let store = Blockstore::open_with(&ledger, &wal.create_if_missing())?;
            reserve.keep(&ledger)?;
            ingest(&store, batch.max(1), options, limit_ledger_size, &files)
        }
        LedgerCommand::Purge {
            ledger,
            wal,
            start,
            end,
        } => crate::purge::purge(&ledger, wal, Slot(start), Slot(end.unwrap_or(start))),
        LedgerCommand::Check {
            ledger,
            wal_recovery_mode,
            format,
        } => crate::cmd_damage::check(&ledger, wal_recovery_mode, format),
        LedgerCommand::Repair {
            ledger,
            backup,
            format,
        } => crate::cmd_damage::repair(&ledger, &backup, format),
        LedgerCommand::Slot {
            ledger,
            slot,
            access,
            wal,
            verbose,
            format,
            verify_poh,
            signatures,
            limits,
        } => slot_summary(
            &ledger_tool::open(&ledger, access, wal)?.store,
            Slot(slot),
            &SummaryOptions {
                verify_poh,
                signatures,
                limits: limits.limits(),
            },
            Detail::from_flag(verbose),
            format,
        ),
        LedgerCommand::Bounds { read, all, format } => {
            ledger_tool::bounds::run(&read.open()?.store, Detail::from_flag(all), format)
        }
        LedgerCommand::Roots {
            read,
            start_root,
            max_roots,
            blockhash,
            format,
        } => {
            let query = ledger_tool::roots::RootsQuery {
                start: Slot(start_root),
                max: max_roots,
                blockhash,
            };
            ledger_tool::roots::run(&read.open()?.store, query, format)
        }
        LedgerCommand::DeadSlots {
            read,
            start_slot,
            format,
        } => ledger_tool::slot_lists::run_dead(&read.open()?.store, Slot(start_slot), format),
        LedgerCommand::DuplicateSlots {
            read,
            start_slot,
            verbose,
            format,
        } => ledger_tool::slot_lists::run_duplicate(
            &read.open()?.store,
            Slot(start_slot),
            Detail::from_flag(verbose),
            format,
        ),
        LedgerCommand::Analyze { read, format } => {
            ledger_tool::analyze::run(&read.open()?.store, &read.ledger, format)
        }
        LedgerCommand::Generate {
            ledger,
            wal,
            slots,
            shreds_per_slot,
            seed,
            first_slot,
            hashes_per_tick,
            with_code,
            with_history,
            reserve,
        } => {
            let spec = SlotSpec {
                data_shreds: shreds_per_slot,
                hashes_per_tick,
                with_code,
            };
            if first_slot == 0 {
                return Err("--first-slot must be at least 1 (its parent is first-1)".into());
            }
            let store = Blockstore::open_with(&ledger, &wal.create_if_missing())?;
            reserve.keep(&ledger)?;
            generate(&store, slots, first_slot, seed, spec, with_history)
        }
    }
}

fn ingest(
    store: &Blockstore,
    batch: usize,
    options: InsertOptions,
    limit: Option<u64>,
    files: &[PathBuf],
) -> Result<(), Box<dyn std::error::Error>> {
    let mut tally = InsertTally::default();
    let mut rejected: BTreeMap<String, u64> = BTreeMap::new();
    let mut examples = Vec::new();
    let mut recovery_failures = Vec::new();
    let mut purged = Vec::new();
    let mut slots_full = Vec::new();
    let mut slots_marked_dead = BTreeSet::new();
    let mut pending = Vec::with_capacity(batch);
    let mut flush = |pending: &mut Vec<Vec<u8>>| -> Result<(), Box<dyn std::error::Error>> {
        let out = store.insert_shreds_with(pending.iter(), options)?;
        pending.clear();
        tally.add(&out);
        if let Some(max) = limit
            && let Some(stats) = store.purge_to_limit(max)?
        {
            purged.push(json!([stats.from.0, stats.to.0]));
        }
        slots_full.extend(out.slots_full.iter().map(|s| s.0));
        slots_marked_dead.extend(out.slots_marked_dead.iter().map(|s| s.0));
        for e in &out.recovery_failed {
            if recovery_failures.len() < 20 {
                recovery_failures.push(e.to_string());
            }
        }
        for r in out.rejected {
            let reason = r.error.to_string();
            *rejected
                .entry(r.error.cause_kind().to_string())
                .or_default() += 1;
            if examples.len() < 20 {
                examples.push(reason);
            }
        }
        Ok(())
    };
    for file in files {
        for packet in StreamReader::open(file)? {
            pending.push(packet?);
            if pending.len() >= batch {
                flush(&mut pending)?;
            }
        }
    }
    flush(&mut pending)?;
    // Everything ingested goes to SST files before the summary says it is stored.
    store.flush()?;
    let total_rejected: u64 = rejected.values().sum();
    let duplicate_slots: Vec<_> = tally
        .duplicate_slots
        .iter()
        .map(|d| json!({"slot": d.slot.0, "kind": d.kind.name()}))
        .collect();
    let summary = json!({
        "inserted": tally.inserted,
        "duplicates": tally.duplicates,
        "rejected": total_rejected,
        "rejected_reasons": rejected,
        "rejected_examples": examples,
        "recovered": tally.recovered,
        "recovery_failed": tally.recovery_failed,
        "recovery_failed_examples": recovery_failures,
        "duplicate_slots": duplicate_slots,
        "completed_data_sets": tally.completed_data_sets,
        "slots_full": slots_full,
        "slots_marked_dead": slots_marked_dead,
        "purged_ranges": purged,
    });
    for point in tally.datapoints() {
        bstore_metrics::submit(point, bstore_metrics::log::Level::Info);
    }
    bstore_metrics::flush();
    println!("{summary}");
    Ok(())
}

fn slot_summary(
    store: &Blockstore,
    slot: Slot,
    opts: &SummaryOptions,
    detail: Detail,
    format: Format,
) -> Result<(), Box<dyn std::error::Error>> {
    let Some(meta) = store.meta(slot)? else {
        return Err(format!("slot {slot} is not in the ledger").into());
    };
    let data_shreds = store.data_shred_count(slot)?;
    let mut buf = FetchBuffer::new();
    let views = store.fetch_slot_views(slot, 0, AllowDead::Yes, &mut buf)?;
    let facts = SlotFacts {
        slot,
        parent_slot: meta.parent_slot,
        data_shreds,
        last_index: meta.last_index,
        full: meta.is_full(),
    };
    let sets: Vec<_> = views
        .sets
        .iter()
        .map(|s| (s.range.clone(), &s.entries))
        .collect();
    let mut line = summarize(&facts, &sets, opts);
    line["dead"] = json!(store.is_dead(slot)?);
    line["rooted"] = json!(store.is_root(slot)?);
    if detail == Detail::Full {
        ledger_tool::slot_detail::add_detail(store, &meta, &mut line)?;
    }
    ledger_tool::slot_detail::print(&line, format);
    Ok(())
}

fn generate(
    store: &Blockstore,
    slots: u64,
    first: u64,
    seed: u64,
    spec: SlotSpec,
    with_history: bool,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut generator = SlotGenerator::new(seed, 1);
    let progress = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(slots);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} slots {per_sec} eta {eta}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    });
    let mut parent_hash = Hash::default();
    let (mut shreds, mut txs, mut bytes) = (0u64, 0u64, 0u64);
    for slot in first..first.saturating_add(slots) {
        let g = generator.generate(Slot(slot), Slot(slot - 1), parent_hash, spec)?;
        let out = store.insert_shreds(g.data_shreds.iter().chain(&g.code_shreds))?;
        if !out.rejected.is_empty() {
            return Err(format!(
                "slot {slot}: {} shreds rejected: {}",
                out.rejected.len(),
                out.rejected[0].error
            )
            .into());
        }
        store.set_roots([Slot(slot)])?;
        if with_history {
            bstore_ledger::synth::history::write_history(store, Slot(slot), &g.entries)?;
            store.set_block_time(Slot(slot), 1_700_000_000 + slot as i64 * 4 / 10)?;
            store.set_block_height(Slot(slot), slot)?;
        }
        parent_hash = g.blockhash;
        shreds += g.data_shreds.len() as u64;
        txs += g.transactions;
        bytes += g.data_bytes;
        if let Some(bar) = &progress {
            bar.inc(1);
        }
    }
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    // Nothing may sit only in the write-ahead log when the command exits.
    store.flush()?;
    let leader = bs58::encode(generator.leader().verifying_key().to_bytes()).into_string();
    let summary = json!({
        "ledger": store.ledger_path(),
        "first_slot": first,
        "slots": slots,
        "data_shreds": shreds,
        "transactions": txs,
        "data_bytes": bytes,
        "leader": leader,
        "genesis_parent_blockhash": Hash::default().to_string(),
        "hashes_per_tick": spec.hashes_per_tick,
    });
    let mut out = std::io::stdout().lock();
    writeln!(out, "{summary}")?;
    Ok(())
}
