//! `encode-bench`: Agave's own `getBlock` work per block, timed on an existing ledger (any
//! writer's; opened as configured, never written): `get_rooted_block(slot, true)` (entries,
//! parent blockhash, statuses, rewards, time, height), then `encode_with_options` with
//! meta in `json` and `base64` (full details, rewards, `maxSupportedTransactionVersion`
//! 0) and serde_json's text, as Agave's RPC answers. Twin of `bstore bench getblock`.

use std::path::PathBuf;
use std::time::Instant;

use bstore_interop_protocol::EncodeBench;
use solana_transaction_status::{
    BlockEncodingOptions, ConfirmedBlock, TransactionDetails, UiTransactionEncoding,
};

use crate::error::{Context, Error, Result};
use crate::open::{self, Access};
use crate::summary::require_db;

#[derive(Debug)]
pub struct EncodeBenchArgs {
    pub ledger: PathBuf,
    pub first_slot: u64,
    pub last_slot: u64,
    pub rounds: usize,
    pub access: Access,
}

fn options() -> BlockEncodingOptions {
    BlockEncodingOptions {
        transaction_details: TransactionDetails::Full,
        show_rewards: true,
        max_supported_transaction_version: Some(0),
    }
}

fn encode(block: ConfirmedBlock, encoding: UiTransactionEncoding) -> Result<String> {
    let encoded = block
        .encode_with_options(encoding, options())
        .map_err(|e| Error::new(format!("Agave's encoder: {e}")))?;
    serde_json::to_string(&encoded).map_err(|e| Error::new(format!("serde_json: {e}")))
}

fn median(v: &mut [u64]) -> u64 {
    v.sort_unstable();
    v.get(v.len() / 2).copied().unwrap_or(0)
}

pub fn run(args: &EncodeBenchArgs) -> Result<EncodeBench> {
    if args.rounds == 0 || args.last_slot < args.first_slot {
        return Err(Error::new(
            "need --rounds >= 1 and --first-slot <= --last-slot",
        ));
    }
    require_db(&args.ledger)?;
    let blockstore = open::blockstore(&args.ledger, args.access)?;
    let (mut fetch, mut json_t, mut b64_t) = (Vec::new(), Vec::new(), Vec::new());
    let (mut json_bytes, mut b64_bytes, mut txs) = (0usize, 0usize, 0usize);
    for _ in 0..args.rounds {
        for slot in args.first_slot..=args.last_slot {
            let t0 = Instant::now();
            let block = blockstore
                .get_rooted_block(slot, true)
                .context(format!("Agave get_rooted_block({slot})"))?;
            let t1 = Instant::now();
            // The copy for the second encoding is made outside the timed spans.
            let again = ConfirmedBlock::from(block.clone());
            let t1b = Instant::now();
            txs = block.transactions.len();
            let json_text = encode(ConfirmedBlock::from(block), UiTransactionEncoding::Json)?;
            let t2 = Instant::now();
            let b64_text = encode(again, UiTransactionEncoding::Base64)?;
            let t3 = Instant::now();
            fetch.push((t1 - t0).as_nanos() as u64);
            json_t.push((t2 - t1b).as_nanos() as u64);
            b64_t.push((t3 - t2).as_nanos() as u64);
            json_bytes = json_text.len();
            b64_bytes = b64_text.len();
        }
    }
    Ok(EncodeBench {
        slots: args.last_slot - args.first_slot + 1,
        rounds: args.rounds as u64,
        transactions_last_block: txs as u64,
        fetch_median_ns: median(&mut fetch),
        encode_json_median_ns: median(&mut json_t),
        encode_base64_median_ns: median(&mut b64_t),
        json_bytes_last_block: json_bytes as u64,
        base64_bytes_last_block: b64_bytes as u64,
    })
}
