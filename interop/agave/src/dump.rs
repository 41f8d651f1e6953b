//! `dump-columns`: the raw key and value bytes of one slot's rows in `index`,
//! `erasure_meta`, `merkle_root_meta` and `meta`, with their decoded fields.

use std::path::PathBuf;

use bstore_interop_protocol::{
    ColumnDump, DecodeFailed, Decoded, DumpedColumns, DumpedRow, MetaFormat, SlotMetaView,
};
use solana_ledger::blockstore_meta::SlotMeta;

use crate::error::Result;
use crate::layout;
use crate::raw::RawDb;
use crate::summary::{meta_view, require_db};

#[derive(Debug)]
pub struct DumpArgs {
    pub ledger: PathBuf,
    pub slot: u64,
}

pub fn run(args: &DumpArgs) -> Result<ColumnDump> {
    require_db(&args.ledger)?;
    let raw = RawDb::open(&args.ledger)?;
    let slot = args.slot;
    Ok(ColumnDump {
        slot,
        column_families: raw.families().to_vec(),
        columns: DumpedColumns {
            index: dump_rows(&raw, "index", slot, layout::decode_index)?,
            erasure_meta: dump_rows(&raw, "erasure_meta", slot, layout::decode_erasure_meta)?,
            merkle_root_meta: dump_rows(
                &raw,
                "merkle_root_meta",
                slot,
                layout::decode_merkle_root_meta,
            )?,
            meta: dump_rows(&raw, "meta", slot, decode_meta)?,
        },
    })
}

/// The slot's rows of `family`, each decoded by `decode`.
fn dump_rows<T>(
    raw: &RawDb,
    family: &str,
    slot: u64,
    decode: fn(&[u8]) -> Result<T>,
) -> Result<Vec<DumpedRow<T>>> {
    Ok(raw
        .slot_rows(family, slot)?
        .iter()
        .map(|(key, value)| DumpedRow {
            key: hex::encode(key),
            value: hex::encode(value),
            value_len: value.len() as u64,
            // A row this tool cannot decode is still dumped; the reason is the finding.
            decoded: match decode(value) {
                Ok(decoded) => Decoded::Ok(decoded),
                Err(e) => Decoded::Failed(DecodeFailed {
                    error: e.to_string(),
                }),
            },
        })
        .collect())
}

/// A `meta` value through Agave 4.x's own type (`SlotMeta` V3, wincode): a V2 row (no
/// `parent_block_id` / `replay_fec_set_index`) reads with those fields defaulted, as Agave
/// reads it; `format` says which it was, `agave_roundtrip` whether Agave writes the same
/// bytes back (false for a V2 row: Agave rewrites it as V3).
fn decode_meta(value: &[u8]) -> Result<SlotMetaView> {
    let meta: SlotMeta = wincode::deserialize(value)
        .map_err(|e| crate::error::Error::new(format!("meta: Agave's SlotMeta refuses it: {e}")))?;
    let roundtrip = wincode::serialize(&meta).is_ok_and(|b| b == value);
    let mut v = meta_view(&meta);
    v.format = Some(if value.len() >= V3_EXTRA && roundtrip {
        MetaFormat::V3
    } else {
        MetaFormat::V2
    });
    v.agave_roundtrip = Some(roundtrip);
    Ok(v)
}

/// Bytes V3 appends to a V2 row: `parent_block_id` (32) and `replay_fec_set_index` (4).
const V3_EXTRA: usize = 36;
