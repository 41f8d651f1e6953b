//! `bstore bench getblock --ledger DIR --slots A..=B`: `getBlock`'s own work per block on an
//! existing ledger (Agave's or bstore's, never written): the fetch (slot, parent's last data
//! set, statuses, rewards, time, height) and the encoding with meta in `json` and `base64`
//! (`FetchedBlock`, what the server runs on a fetch worker). Its twin `agave-interop
//! encode-bench` times Agave's `get_rooted_block` and encoder on the same ledger.

use std::path::PathBuf;
use std::time::Instant;

use bstore_ledger::Slot;
use bstore_ledger::fetch::FetchBuffer;
use bstore_ledger::store::{AccessMode, Blockstore};
use bstore_rpc::FetchedBlock;
use bstore_rpc::params::{BlockConfig, Commitment, Encoding, TransactionDetails};
use clap::Args;
use serde_json::json;

/// Arguments of `bstore bench getblock`.
#[derive(Debug, Args)]
pub(crate) struct GetBlockArgs {
    /// The ledger (opened read-only).
    #[arg(long)]
    ledger: PathBuf,
    /// First slot timed.
    #[arg(long)]
    first_slot: u64,
    /// Last slot timed (inclusive).
    #[arg(long)]
    last_slot: u64,
    /// Passes over the slots; medians are over every (pass, slot).
    #[arg(long, default_value_t = 5)]
    rounds: usize,
}

fn config(encoding: Encoding) -> BlockConfig {
    BlockConfig {
        encoding,
        details: TransactionDetails::Full,
        rewards: true,
        commitment: Commitment::Finalized,
        max_supported_version: Some(0),
    }
}

fn median(v: &mut [u64]) -> u64 {
    v.sort_unstable();
    v.get(v.len() / 2).copied().unwrap_or(0)
}

pub(crate) fn run(args: &GetBlockArgs) -> Result<(), Box<dyn std::error::Error>> {
    if args.rounds == 0 || args.last_slot < args.first_slot {
        return Err("need --rounds >= 1 and --first-slot <= --last-slot".into());
    }
    let store = Blockstore::open(&args.ledger, AccessMode::ReadOnly)?;
    let mut buf = FetchBuffer::default();
    let (mut fetch, mut json_t, mut b64_t) = (Vec::new(), Vec::new(), Vec::new());
    let (mut json_bytes, mut b64_bytes, mut txs) = (0usize, 0usize, 0usize);
    for _ in 0..args.rounds {
        for slot in args.first_slot..=args.last_slot {
            let t0 = Instant::now();
            let block = FetchedBlock::fetch(&store, Slot(slot), &mut buf)?;
            let t1 = Instant::now();
            let json_text = block.encode(&config(Encoding::Json))?;
            let t2 = Instant::now();
            let b64_text = block.encode(&config(Encoding::Base64))?;
            let t3 = Instant::now();
            if json_text == "null" {
                return Err(format!("slot {slot}: the block's history is incomplete").into());
            }
            fetch.push((t1 - t0).as_nanos() as u64);
            json_t.push((t2 - t1).as_nanos() as u64);
            b64_t.push((t3 - t2).as_nanos() as u64);
            json_bytes = json_text.len();
            b64_bytes = b64_text.len();
            txs = block
                .sets()
                .iter()
                .map(|s| s.entries.transactions().len())
                .sum();
        }
    }
    let out = json!({
        "slots": args.last_slot - args.first_slot + 1,
        "rounds": args.rounds,
        "transactions_last_block": txs,
        "fetch_median_ns": median(&mut fetch),
        "encode_json_median_ns": median(&mut json_t),
        "encode_base64_median_ns": median(&mut b64_t),
        "json_bytes_last_block": json_bytes,
        "base64_bytes_last_block": b64_bytes,
    });
    println!("{out}");
    Ok(())
}
