//! `bstore bench insert --ledger-dir DIR FILE...`: bstore's shred insert timed on a fresh
//! ledger per round. Its twin `agave-interop insert-bench` times Agave's parse and
//! `insert_shreds` on the same stream files the same way (scripts/bench-insert-agave.sh).
//!
//! Per round: a new ledger directory, `Blockstore::open` and a pause of [`SETTLE`] (not
//! timed), then timed:
//! `insert_shreds_with` in calls of `--batch` payloads (one write batch each), the options of
//! `ledger ingest` (Merkle roots checked, Agave 4.x shape rules, no leader key). The
//! payloads are read once before the first round; the insert parses them itself.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use bstore_ledger::store::{AccessMode, Blockstore, InsertOptions, MerkleCheck};
use bstore_ledger::stream::StreamReader;
use clap::Args;
use serde_json::json;

/// The pause between the open and the timed insert, as in `agave-interop insert-bench`. The
/// first RocksDB open of a process dumps its statistics to the info log at once, on
/// RocksDB's timer thread (about 4 ms of CPU with the DB mutex held; BENCHMARKS.md); a round that times the insert right after the open measures part of that
/// dump too, more or less of it from round to round.
const SETTLE: Duration = Duration::from_millis(100);

/// Arguments of `bstore bench insert`.
#[derive(Debug, Args)]
pub(crate) struct InsertArgs {
    /// Parent of the per-round ledgers (`round-N`, each removed after its round).
    #[arg(long)]
    ledger_dir: PathBuf,
    /// Rounds, each into a fresh ledger; the median is over rounds.
    #[arg(long, default_value_t = 5)]
    rounds: usize,
    /// Payloads per insert call (as `ledger ingest --batch`).
    #[arg(long, default_value_t = 1024)]
    batch: usize,
    /// Do not check Merkle shreds against their FEC set's root (Agave's insert does not
    /// verify Merkle proofs; its sigverify stage does, before the insert).
    #[arg(long)]
    skip_merkle_check: bool,
    /// Shred stream files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

pub(crate) fn run(args: &InsertArgs) -> Result<(), Box<dyn std::error::Error>> {
    if args.rounds == 0 || args.batch == 0 {
        return Err("--rounds and --batch must be at least 1".into());
    }
    let mut payloads = Vec::new();
    for file in &args.files {
        for packet in StreamReader::open(file)? {
            payloads.push(packet?);
        }
    }
    if payloads.is_empty() {
        return Err("the stream files hold no shreds".into());
    }
    let options = InsertOptions {
        merkle: if args.skip_merkle_check {
            MerkleCheck::Skip
        } else {
            MerkleCheck::Verify
        },
        ..InsertOptions::default()
    };
    std::fs::create_dir_all(&args.ledger_dir)?;
    let mut totals = Vec::with_capacity(args.rounds);
    let (mut inserted, mut full) = (0usize, 0usize);
    for round in 0..args.rounds {
        let ledger = args.ledger_dir.join(format!("round-{round}"));
        if ledger.exists() {
            return Err(format!(
                "{} exists: --ledger-dir must not hold earlier rounds",
                ledger.display()
            )
            .into());
        }
        let store = Blockstore::open(&ledger, AccessMode::ReadWrite)?;
        std::thread::sleep(SETTLE);
        inserted = 0;
        full = 0;
        let started = Instant::now();
        for chunk in payloads.chunks(args.batch) {
            let out = store.insert_shreds_with(chunk, options)?;
            inserted += out.inserted;
            full += out.slots_full.len();
        }
        totals.push(started.elapsed().as_nanos() as u64);
        drop(store);
        std::fs::remove_dir_all(&ledger)?;
    }
    let shreds = payloads.len() as u64;
    let mut sorted = totals.clone();
    sorted.sort_unstable();
    let median_ns = sorted.get(sorted.len() / 2).copied().unwrap_or(0);
    let summary = json!({
        "shreds": shreds,
        "inserted": inserted,
        "slots_full": full,
        "merkle_check": !args.skip_merkle_check,
        "batch": args.batch,
        "rounds": args.rounds,
        "round_ns": totals,
        "median_ns": median_ns,
        "per_shred_ns": median_ns / shreds,
    });
    println!("{summary}");
    Ok(())
}
