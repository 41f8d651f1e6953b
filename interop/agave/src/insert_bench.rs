//! `insert-bench`: Agave's own shred insert timed on a fresh ledger per round, so bstore's
//! insert (`bstore bench insert`, its twin) can be compared with Agave's on the same shreds.
//!
//! Per round: a new ledger directory, `Blockstore::open` and a pause of [`SETTLE`] (not
//! timed), the payloads copied (not timed), then timed: `Shred::new_from_serialized_shred` of
//! every payload (a validator's window service parses its packets right before it inserts
//! them, and bstore's insert takes the raw payloads) and
//! `insert_shreds(shreds, is_trusted = false)` in calls of `--batch` shreds, as `insert` does.
//! `insert_only_median_ns` leaves the parse out.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use bstore_interop_protocol::InsertBench;
use solana_ledger::shred::Shred;

use crate::agave_api;
use crate::error::{Context, Error, Result};
use crate::open::{self, Access};
use crate::stream;

/// The pause between the open and the timed insert, as in `bstore bench insert`: the first
/// RocksDB open of a process dumps its statistics on RocksDB's timer thread at once, which
/// would otherwise overlap the timed call by a varying amount.
const SETTLE: Duration = Duration::from_millis(100);

#[derive(Debug)]
pub struct InsertBenchArgs {
    /// Parent of the per-round ledgers (`round-N`, each removed after its round).
    pub ledger_dir: PathBuf,
    pub rounds: usize,
    pub batch: usize,
    pub files: Vec<PathBuf>,
}

pub fn run(args: &InsertBenchArgs) -> Result<InsertBench> {
    if args.rounds == 0 || args.batch == 0 {
        return Err(Error::new("--rounds and --batch must be at least 1"));
    }
    let mut payloads = Vec::new();
    for file in &args.files {
        payloads.extend(stream::read(file)?);
    }
    if payloads.is_empty() {
        return Err(Error::new("the stream files hold no shreds"));
    }
    // Counted once, untimed: the rounds parse the same payloads again.
    let (mut data, mut slots) = (0usize, Vec::new());
    for (record, payload) in payloads.iter().enumerate() {
        let shred = Shred::new_from_serialized_shred(payload.clone())
            .context(format!("record {record}: Agave refuses the shred"))?;
        data += usize::from(shred.is_data());
        slots.push(shred.slot());
    }
    slots.sort_unstable();
    slots.dedup();
    std::fs::create_dir_all(&args.ledger_dir)
        .context(format!("create {}", args.ledger_dir.display()))?;
    let (mut totals, mut inserts) = (Vec::new(), Vec::new());
    let mut full = 0usize;
    for round in 0..args.rounds {
        let ledger = args.ledger_dir.join(format!("round-{round}"));
        if ledger.exists() {
            return Err(Error::new(format!(
                "{} exists: --ledger-dir must not hold earlier rounds",
                ledger.display()
            )));
        }
        let blockstore = open::blockstore(&ledger, Access::Primary)?;
        std::thread::sleep(SETTLE);
        let copies = payloads.clone();
        let mut insert_time = Duration::ZERO;
        let started = Instant::now();
        let mut shreds = Vec::with_capacity(copies.len());
        for (record, payload) in copies.into_iter().enumerate() {
            shreds.push(
                Shred::new_from_serialized_shred(payload)
                    .context(format!("record {record}: Agave refuses the shred"))?,
            );
        }
        let mut rest = shreds;
        while !rest.is_empty() {
            let tail = rest.split_off(rest.len().min(args.batch));
            let batch = std::mem::replace(&mut rest, tail);
            let call = Instant::now();
            agave_api::insert_shreds(&blockstore, batch)
                .context(format!("round {round}: Agave insert_shreds"))?;
            insert_time += call.elapsed();
        }
        totals.push(started.elapsed().as_nanos() as u64);
        inserts.push(insert_time.as_nanos() as u64);
        full = slots.iter().filter(|&&s| blockstore.is_full(s)).count();
        drop(blockstore);
        std::fs::remove_dir_all(&ledger).context(format!("remove {}", ledger.display()))?;
    }
    let shreds = payloads.len() as u64;
    let median_ns = median(&mut totals.clone());
    Ok(InsertBench {
        agave: agave_api::AGAVE_VERSION.to_string(),
        shreds,
        data: data as u64,
        code: (payloads.len() - data) as u64,
        slots_full: full as u64,
        batch: args.batch as u64,
        rounds: args.rounds as u64,
        round_ns: totals,
        median_ns,
        per_shred_ns: median_ns / shreds,
        insert_only_median_ns: median(&mut inserts),
    })
}

fn median(times: &mut [u64]) -> u64 {
    times.sort_unstable();
    times.get(times.len() / 2).copied().unwrap_or(0)
}
