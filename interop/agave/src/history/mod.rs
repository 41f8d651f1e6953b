//! `history`: a ledger with full transaction history (statuses, address index, memos,
//! rewards, block times and heights) written by Agave's own `Blockstore`, and Agave's RPC
//! answers over it (`getBlock`, `getTransaction`, `getSignaturesForAddress`,
//! `getSignatureStatuses`) as a JSON file bstore's RPC must reproduce.
//! See docs/interop-agave-history.md.
//!
//! Start reading at [`scenario`] (what the ledger holds), then [`rpc`] (how the answers
//! are computed).

mod ixs;
mod keys;
mod ledger;
mod metas;
mod plan;
mod queries;
mod rpc;
mod scenario;
#[cfg(test)]
mod tests;
mod txs_legacy;
mod txs_programs;
mod txs_v0;

use std::path::PathBuf;

use bstore_interop_protocol::{HistoryAnswers, HistorySummary, MethodCount};
use serde_json::Value;
use solana_signature::Signature;

use crate::error::{Context, Error, Result};
use crate::open::{self, Access};
use keys::Keys;
use rpc::Rpc;

#[derive(Debug)]
pub struct HistoryArgs {
    /// Created; must not hold a ledger yet.
    pub ledger: PathBuf,
    pub out: PathBuf,
    pub seed: u64,
}

pub fn run(args: &HistoryArgs) -> Result<HistorySummary> {
    if args.ledger.join("rocksdb").exists() {
        return Err(Error::new(format!(
            "{} already holds a ledger; history writes a new one",
            args.ledger.display()
        )));
    }
    let keys = Keys::new(args.seed);
    let slots = scenario::plan(&keys)?;
    ledger::write(&args.ledger, &keys, &slots)?;

    // Opened anew: the answers come from what is on disk.
    let blockstore = open::blockstore(&args.ledger, Access::Primary)?;
    let rpc = Rpc::new(&blockstore);
    let mut signatures: Vec<Signature> = slots
        .iter()
        .flat_map(|s| s.txs.iter().map(|t| t.signature()))
        .collect();
    signatures.push(queries::unknown_signature(&keys));
    let doc = HistoryAnswers {
        seed: args.seed,
        highest_root: rpc.root(),
        first_available_block: blockstore
            .get_first_available_block()
            .context("first available block")?,
        slots: queries::slots_view(&slots, scenario::SKIPPED_SLOT),
        get_block: queries::get_block(&rpc)?,
        get_transaction: queries::get_transaction(&rpc, &signatures)?,
        get_signatures_for_address: queries::get_signatures_for_address(
            &rpc,
            &scenario::addresses(&keys),
            &scenario::payer_edge_cases(&keys, &slots)?,
        )?,
        get_signature_statuses: queries::get_signature_statuses(&rpc, &signatures)?,
    };
    // Through a `Value`, as every message is printed: keys sorted.
    let text = serde_json::to_value(&doc)
        .map(|v| v.to_string())
        .context("serialize the answers")?;
    std::fs::write(&args.out, text).context(args.out.display())?;

    Ok(HistorySummary {
        ledger: args.ledger.display().to_string(),
        out: args.out.display().to_string(),
        seed: args.seed,
        slots: slots.len() as u64,
        transactions: (signatures.len() - 1) as u64,
        get_block: count(doc.get_block.iter().map(|c| (&c.result, &c.error))),
        get_transaction: count(doc.get_transaction.iter().map(|c| (&c.result, &c.error))),
        get_signatures_for_address: count(
            doc.get_signatures_for_address
                .iter()
                .map(|c| (&c.result, &c.error)),
        ),
        get_signature_statuses: count(
            doc.get_signature_statuses
                .iter()
                .map(|c| (&c.value, &c.error)),
        ),
    })
}

/// Requests, errors and `null` results of one method's (result, error) pairs.
fn count<'a>(answers: impl Iterator<Item = (&'a Option<Value>, &'a Option<Value>)>) -> MethodCount {
    let mut out = MethodCount {
        requests: 0,
        errors: 0,
        nulls: 0,
    };
    for (result, error) in answers {
        out.requests += 1;
        out.errors += u64::from(error.is_some());
        out.nulls += u64::from(result.as_ref().is_some_and(Value::is_null));
    }
    out
}
