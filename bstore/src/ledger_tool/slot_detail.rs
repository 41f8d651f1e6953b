//! `bstore ledger slot --verbose`: the rows the store keeps about one slot beside its
//! entries (agave-ledger-tool's `slot -v` prints the `SlotMeta`): the meta (with Agave
//! 4.x's `parent_block_id` and `replay_fec_set_index`), the `index` row's presence counts,
//! each FEC set's `erasure_meta` / `merkle_root_meta` rows, the duplicate flag, and the
//! slot's other versions Agave 4.x repaired by block id (`alt_meta`). Also prints the slot's
//! JSON line as text for `--format text`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use bstore_ledger::shred::ShredKind;
use bstore_ledger::store::{Blockstore, ErasureMeta, KvEngine, MerkleRootMeta, SlotMeta};
use serde_json::{Map, Value, json};

use super::Format;

/// Adds `meta`, `index`, `fec_sets` and `duplicate` to the slot's line. Every existing field
/// stays as it is.
pub(crate) fn add_detail<E: KvEngine>(
    store: &Blockstore<E>,
    meta: &SlotMeta,
    line: &mut Value,
) -> bstore_ledger::Result<()> {
    let slot = meta.slot;
    line["meta"] = meta_json(meta);
    line["index"] = match store.slot_index(slot)? {
        Some(index) => json!({"data_shreds": index.data.len(), "code_shreds": index.code.len()}),
        None => Value::Null,
    };
    let mut sets: BTreeMap<u32, (Option<ErasureMeta>, Option<MerkleRootMeta>)> = BTreeMap::new();
    for e in store.erasure_metas(slot)? {
        sets.entry(e.fec_set_index).or_default().0 = Some(e);
    }
    for (fec, m) in store.merkle_root_metas(slot)? {
        sets.entry(fec).or_default().1 = Some(m);
    }
    line["fec_sets"] = sets
        .into_iter()
        .map(|(fec, (erasure, merkle))| {
            json!({
                "fec_set_index": fec,
                "erasure_meta": erasure.as_ref().map(erasure_json),
                "merkle_root_meta": merkle.as_ref().map(merkle_json),
            })
        })
        .collect();
    line["duplicate"] = json!(store.duplicate_slot_proof(slot)?.is_some());
    // Agave 4.x's other versions of the slot, repaired by block id (`alt_meta`).
    line["alternate_blocks"] = store
        .alternate_slot_metas(slot)?
        .into_iter()
        .map(|(block_id, alt)| {
            let mut v = meta_json(&alt);
            v["block_id"] = json!(block_id.to_string());
            v
        })
        .collect();
    Ok(())
}

fn meta_json(meta: &SlotMeta) -> Value {
    json!({
        "consumed": meta.consumed,
        "received": meta.received,
        "first_shred_timestamp": meta.first_shred_timestamp,
        "last_index": meta.last_index,
        "parent_slot": meta.parent_slot.map(|p| p.0),
        "next_slots": meta.next_slots.iter().map(|s| s.0).collect::<Vec<_>>(),
        "connected_flags": meta.connected_flags,
        "connected": meta.is_connected(),
        "parent_connected": meta.is_parent_connected(),
        "completed_data_indexes": meta.completed_data_indexes.iter().collect::<Vec<_>>(),
        // Agave 4.x fields, base58 as agave-ledger-tool prints a hash (all zeros, i.e.
        // `111…1`, = unknown: a row written before 4.x or a slot without a block header).
        "parent_block_id": meta.parent_block_id.to_string(),
        "replay_fec_set_index": meta.replay_fec_set_index,
    })
}

fn erasure_json(e: &ErasureMeta) -> Value {
    json!({
        "first_coding_index": e.first_coding_index,
        "first_received_coding_index": e.first_received_coding_index,
        "num_data": e.num_data,
        "num_coding": e.num_coding,
    })
}

fn merkle_json(m: &MerkleRootMeta) -> Value {
    json!({
        "merkle_root": m.merkle_root.map(|h| h.to_string()),
        "first_received_shred_index": m.first_received_shred_index,
        "first_received_shred_kind": match m.first_received_shred_kind {
            ShredKind::Data => "data",
            ShredKind::Code => "code",
        },
    })
}

/// Prints the slot's line: the JSON object as is, or as indented `key: value` lines.
pub(crate) fn print(line: &Value, format: Format) {
    match format {
        Format::Json => println!("{line}"),
        Format::Text => {
            let mut out = String::new();
            match line {
                Value::Object(map) => render_object(&mut out, map, 0),
                other => out.push_str(&scalar(other)),
            }
            print!("{out}");
        }
    }
}

fn render_object(out: &mut String, map: &Map<String, Value>, indent: usize) {
    for (key, value) in map {
        match value {
            Value::Object(inner) => {
                let _ = writeln!(out, "{:indent$}{key}:", "");
                render_object(out, inner, indent + 2);
            }
            Value::Array(items) if items.iter().any(Value::is_object) => {
                let _ = writeln!(out, "{:indent$}{key}:", "");
                for item in items {
                    let _ = writeln!(out, "{:w$}-", "", w = indent + 2);
                    match item {
                        Value::Object(inner) => render_object(out, inner, indent + 4),
                        other => {
                            let _ = writeln!(out, "{:w$}{}", "", scalar(other), w = indent + 4);
                        }
                    }
                }
            }
            other => {
                let _ = writeln!(out, "{:indent$}{key}: {}", "", scalar(other));
            }
        }
    }
}

/// A leaf as text: strings without quotes, `null` as `-`, lists inline.
fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "-".to_string(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bstore_ledger::{Hash, Slot};

    #[test]
    fn meta_shows_the_agave_4x_fields() {
        let mut meta = SlotMeta::new(Slot(9), Some(Slot(8)));
        assert_eq!(
            meta_json(&meta)["parent_block_id"],
            "11111111111111111111111111111111"
        );
        meta.parent_block_id = Hash([1; 32]);
        meta.replay_fec_set_index = 64;
        let v = meta_json(&meta);
        assert_eq!(v["parent_block_id"], Hash([1; 32]).to_string());
        assert_eq!(v["replay_fec_set_index"], 64);
    }

    #[test]
    fn text_nests_objects_and_lists_of_objects() {
        let line = json!({
            "slot": 5,
            "blockhash": "abc",
            "meta": {"next_slots": [6, 7], "parent_slot": null},
            "fec_sets": [{"fec_set_index": 0}],
        });
        let mut out = String::new();
        if let Value::Object(map) = &line {
            render_object(&mut out, map, 0);
        }
        assert_eq!(
            out,
            "blockhash: abc\nfec_sets:\n  -\n    fec_set_index: 0\nmeta:\n  \
             next_slots: [6,7]\n  parent_slot: -\nslot: 5\n"
        );
    }
}
