//! `dump-columns`: the raw key and value bytes of one slot's rows in `index`,
//! `erasure_meta`, `merkle_root_meta` and `meta`, with their decoded fields.

use std::path::PathBuf;

use serde_json::{Map, Value, json};
use solana_ledger::blockstore_meta::SlotMeta;

use crate::error::Result;
use crate::layout;
use crate::raw::RawDb;
use crate::summary::{meta_json, require_db};

#[derive(Debug)]
pub struct DumpArgs {
    pub ledger: PathBuf,
    pub slot: u64,
}

type Decoder = fn(&[u8]) -> Result<Value>;

pub fn run(args: &DumpArgs) -> Result<Value> {
    require_db(&args.ledger)?;
    let raw = RawDb::open(&args.ledger)?;
    let columns: [(&str, Decoder); 4] = [
        ("index", layout::decode_index),
        ("erasure_meta", layout::decode_erasure_meta),
        ("merkle_root_meta", layout::decode_merkle_root_meta),
        ("meta", decode_meta),
    ];
    let mut out = Map::new();
    for (family, decode) in columns {
        let rows = raw.slot_rows(family, args.slot)?;
        let rows: Vec<Value> = rows
            .iter()
            .map(|(key, value)| {
                // A row this tool cannot decode is still dumped; the reason is the finding.
                let decoded = decode(value).unwrap_or_else(|e| json!({"error": e.to_string()}));
                json!({
                    "key": hex::encode(key),
                    "value": hex::encode(value),
                    "value_len": value.len(),
                    "decoded": decoded,
                })
            })
            .collect();
        out.insert(family.to_string(), Value::Array(rows));
    }
    Ok(json!({
        "slot": args.slot,
        "column_families": raw.families(),
        "columns": out,
    }))
}

/// A `meta` value through Agave 4.x's own type (`SlotMeta` V3, wincode): a V2 row (no
/// `parent_block_id` / `replay_fec_set_index`) reads with those fields defaulted, as Agave
/// reads it; `format` says which it was, `agave_roundtrip` whether Agave writes the same
/// bytes back (false for a V2 row: Agave rewrites it as V3).
fn decode_meta(value: &[u8]) -> Result<Value> {
    let meta: SlotMeta = wincode::deserialize(value)
        .map_err(|e| crate::error::Error::new(format!("meta: Agave's SlotMeta refuses it: {e}")))?;
    let roundtrip = wincode::serialize(&meta).is_ok_and(|b| b == value);
    let mut v = meta_json(&meta);
    v["format"] = json!(if value.len() >= V3_EXTRA && roundtrip {
        "v3"
    } else {
        "v2"
    });
    v["agave_roundtrip"] = json!(roundtrip);
    Ok(v)
}

/// Bytes V3 appends to a V2 row: `parent_block_id` (32) and `replay_fec_set_index` (4).
const V3_EXTRA: usize = 36;
