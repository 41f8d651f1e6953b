//! `insert`: the selected shreds of stream files go through Agave's own
//! `Blockstore::insert_shreds` (no leader schedule, `is_trusted = false`).

use std::collections::BTreeSet;
use std::path::PathBuf;

use serde_json::{Value, json};
use solana_ledger::shred::Shred;

use crate::error::{Context, Result};
use crate::open::{self, Access};
use crate::select::{Select, SlotRange};
use crate::stream;

/// Shreds per `insert_shreds` call (bstore's `ledger ingest` default batch).
const BATCH: usize = 1024;
/// Unparsable records listed by example.
const EXAMPLES: usize = 20;

#[derive(Debug)]
pub struct InsertArgs {
    pub ledger: PathBuf,
    pub files: Vec<PathBuf>,
    pub select: Select,
    pub slots: Option<SlotRange>,
}

pub fn run(args: &InsertArgs) -> Result<Value> {
    let mut selected = Vec::new();
    let (mut records, mut skipped) = (0usize, 0usize);
    let mut unparsable = Vec::new();
    for file in &args.files {
        for (record, payload) in stream::read(file)?.into_iter().enumerate() {
            records += 1;
            match Shred::new_from_serialized_shred(payload) {
                Ok(shred) if takes(args, &shred) => selected.push(shred),
                Ok(_) => skipped += 1,
                Err(e) => unparsable.push(format!("{} record {record}: {e}", file.display())),
            }
        }
    }
    let data = selected.iter().filter(|s| s.is_data()).count();
    let code = selected.len() - data;
    let slots: BTreeSet<u64> = selected.iter().map(Shred::slot).collect();

    let blockstore = open::blockstore(&args.ledger, Access::Primary)?;
    let mut completed = Vec::new();
    let mut rest = selected;
    while !rest.is_empty() {
        let tail = rest.split_off(rest.len().min(BATCH));
        let batch = std::mem::replace(&mut rest, tail);
        let sets = blockstore
            .insert_shreds(batch, None, false)
            .context("Agave insert_shreds")?;
        completed.extend(sets.into_iter().map(
            |set| json!({"slot": set.slot, "start": set.indices.start, "end": set.indices.end}),
        ));
    }
    let metas = slot_states(&blockstore, &slots)?;
    Ok(json!({
        "records": records,
        "selected": data + code,
        "data": data,
        "code": code,
        "skipped": skipped,
        "unparsable": unparsable.len(),
        "unparsable_examples": unparsable.iter().take(EXAMPLES).collect::<Vec<_>>(),
        "completed_data_sets": completed,
        "slots_full": metas.0,
        "slots": metas.1,
    }))
}

fn takes(args: &InsertArgs, shred: &Shred) -> bool {
    args.slots
        .as_ref()
        .is_none_or(|range| range.0.contains(&shred.slot()))
        && args.select.takes(shred.is_data(), shred.index())
}

/// The full slots among `slots`, and each slot's consumed / received / last index.
fn slot_states(
    blockstore: &solana_ledger::blockstore::Blockstore,
    slots: &BTreeSet<u64>,
) -> Result<(Vec<u64>, Vec<Value>)> {
    let mut full = Vec::new();
    let mut states = Vec::new();
    for &slot in slots {
        let Some(meta) = blockstore
            .meta(slot)
            .context(format!("meta of slot {slot}"))?
        else {
            states.push(json!({"slot": slot, "meta": null}));
            continue;
        };
        if meta.is_full() {
            full.push(slot);
        }
        states.push(json!({
            "slot": slot,
            "consumed": meta.consumed,
            "received": meta.received,
            "last_index": meta.last_index,
            "is_full": meta.is_full(),
        }));
    }
    Ok((full, states))
}
