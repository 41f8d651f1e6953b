//! `fetch-bench`: Agave's own full-slot fetch timed per slot, so bstore's fetch can be
//! compared with Agave's on one ledger: owned entries (`get_slot_entries_with_shred_info(slot,
//! 0, false)`, RPC's and replay's read before 4.4), or with `--views` the read Agave 4.4's
//! replay makes (`get_slot_entry_views_with_shred_info`: transactions as unsanitized views
//! over the data sets' bytes).

use std::path::PathBuf;
use std::time::Instant;

use bstore_interop_protocol::FetchBench;

use crate::agave_api;
use crate::error::{Context, Error, Result};
use crate::open::{self, Access};
use crate::select::SlotRange;
use crate::summary::require_db;

#[derive(Debug)]
pub struct BenchArgs {
    pub ledger: PathBuf,
    pub slots: SlotRange,
    pub rounds: usize,
    pub access: Access,
    /// Agave 4.4's entry views instead of owned entries.
    pub views: bool,
}

pub fn run(args: &BenchArgs) -> Result<FetchBench> {
    if args.rounds == 0 {
        return Err(Error::new("--rounds must be at least 1"));
    }
    require_db(&args.ledger)?;
    let blockstore = open::blockstore(&args.ledger, args.access)?;
    let slots: Vec<u64> = args.slots.0.clone().collect();
    let mut rounds = Vec::with_capacity(args.rounds);
    let mut all = Vec::new();
    let mut entries_per_round = 0usize;
    for _ in 0..args.rounds {
        let mut times = Vec::with_capacity(slots.len());
        entries_per_round = 0;
        for &slot in &slots {
            let started = Instant::now();
            let entries = if args.views {
                agave_api::slot_entry_views(&blockstore, slot)?
            } else {
                let (entries, _, _) = blockstore
                    .get_slot_entries_with_shred_info(slot, 0, false)
                    .context(format!("Agave fetch of slot {slot}"))?;
                entries.len()
            };
            times.push(started.elapsed().as_nanos() as u64);
            entries_per_round += entries;
        }
        all.extend_from_slice(&times);
        rounds.push(median(&mut times));
    }
    Ok(FetchBench {
        slots: slots.len() as u64,
        first_slot: slots.first().copied(),
        last_slot: slots.last().copied(),
        rounds: args.rounds as u64,
        entries_per_round: entries_per_round as u64,
        round_medians_ns: rounds,
        median_ns: median(&mut all),
    })
}

fn median(times: &mut [u64]) -> u64 {
    times.sort_unstable();
    times.get(times.len() / 2).copied().unwrap_or(0)
}
