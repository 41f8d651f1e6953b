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

use serde_json::{Value, json};
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

pub fn run(args: &HistoryArgs) -> Result<Value> {
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
    let doc = json!({
        "seed": args.seed,
        "highest_root": rpc.root(),
        "first_available_block": blockstore.get_first_available_block().context("first available block")?,
        "slots": queries::slots_json(&slots, scenario::SKIPPED_SLOT),
        "getBlock": queries::get_block(&rpc)?,
        "getTransaction": queries::get_transaction(&rpc, &signatures)?,
        "getSignaturesForAddress": queries::get_signatures_for_address(
            &rpc,
            &scenario::addresses(&keys),
            &scenario::payer_edge_cases(&keys, &slots)?,
        )?,
        "getSignatureStatuses": queries::get_signature_statuses(&rpc, &signatures)?,
    });
    let text = serde_json::to_string(&doc).context("serialize the answers")?;
    std::fs::write(&args.out, text).context(args.out.display())?;

    let mut summary = serde_json::Map::new();
    summary.insert("ledger".into(), json!(args.ledger.display().to_string()));
    summary.insert("out".into(), json!(args.out.display().to_string()));
    summary.insert("seed".into(), json!(args.seed));
    summary.insert("slots".into(), json!(slots.len()));
    summary.insert("transactions".into(), json!(signatures.len() - 1));
    for method in [
        "getBlock",
        "getTransaction",
        "getSignaturesForAddress",
        "getSignatureStatuses",
    ] {
        let answers = doc
            .get(method)
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default();
        let errors = answers.iter().filter(|a| a.get("error").is_some()).count();
        let nulls = answers
            .iter()
            .filter(|a| a.get("result").is_some_and(Value::is_null))
            .count();
        summary.insert(
            method.into(),
            json!({"requests": answers.len(), "errors": errors, "null": nulls}),
        );
    }
    Ok(Value::Object(summary))
}
