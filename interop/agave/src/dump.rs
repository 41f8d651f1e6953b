//! `dump-columns`: the raw key and value bytes of one slot's rows in `index`,
//! `erasure_meta`, `merkle_root_meta` and `meta`, with their decoded fields.

use std::path::PathBuf;

use bincode::Options;
use serde_json::{Map, Value, json};
use solana_ledger::blockstore_meta::{SlotMetaV1, SlotMetaV2};

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

/// A `meta` value through Agave's own types: V2 (bitmap completed indexes) first, as
/// Agave reads it, then V1 (sorted set); `format` says which matched.
fn decode_meta(value: &[u8]) -> Result<Value> {
    let strict = || {
        bincode::DefaultOptions::new()
            .with_fixint_encoding()
            .reject_trailing_bytes()
    };
    if let Ok(meta) = strict().deserialize::<SlotMetaV2>(value) {
        let roundtrip = bincode::serialize(&meta).is_ok_and(|b| b == value);
        let mut v = meta_json(&meta);
        v["format"] = json!("v2");
        v["agave_roundtrip"] = json!(roundtrip);
        return Ok(v);
    }
    let v1: SlotMetaV1 = strict()
        .deserialize(value)
        .map_err(|e| crate::error::Error::new(format!("meta: neither V2 nor V1: {e}")))?;
    let roundtrip = bincode::serialize(&v1).is_ok_and(|b| b == value);
    let mut v = meta_json(&SlotMetaV2::from(v1));
    v["format"] = json!("v1");
    v["agave_roundtrip"] = json!(roundtrip);
    Ok(v)
}
