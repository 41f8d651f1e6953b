//! Byte layouts of the rows Agave 4.x writes in `index`, `erasure_meta` and
//! `merkle_root_meta`, decoded by hand so that the bstore side can check its own encoders
//! against the same facts. Every decode is checked: a wrong length or tag is an error
//! naming the column and the reason, never a panic. Each decoded row is also handed to
//! Agave's own wincode type and re-serialized (`agave_roundtrip`), which proves the layout
//! described here is the one Agave reads and writes.
//!
//! Integers in keys are big-endian, in values little-endian (wincode, fixed-width as bincode 1.x was).
//!
//! - `index`: key = slot u64 BE (8 bytes). Value (`IndexV2`, 8,232 bytes):
//!   slot u64 ‖ data ‖ coding, where each of data and coding (`ShredIndexV2`) is
//!   u64 byte length (4,096) ‖ 4,096 bytes of bitmap (shred index i = bit i % 8 of byte
//!   i / 8) ‖ num_shreds u64. The legacy `IndexV1` (slot u64 ‖ u64 count ‖ count × u64
//!   data indices ‖ the same for coding) is still read by Agave as a fallback.
//! - `erasure_meta`: key = slot u64 BE ‖ fec_set_index u64 BE (16 bytes). Value (40 bytes):
//!   fec_set_index u64 ‖ first_coding_index u64 ‖ first_received_coding_index u64 ‖
//!   num_data u64 ‖ num_coding u64.
//! - `merkle_root_meta`: key = slot u64 BE ‖ fec_set_index u32 BE (12 bytes). Value
//!   (38 bytes for Merkle shreds): Option tag u8 (1) ‖ merkle_root 32 bytes ‖
//!   first_received_shred_index u32 ‖ first_received_shred_type u8 (0xa5 data, 0x5a code).

use bstore_interop_protocol::{
    ErasureMetaRow, IndexFormat, IndexRow, MerkleRootMetaRow, ShredIndices, ShredType,
};
use solana_ledger::blockstore_meta::{ErasureMeta, Index, MerkleRootMeta};

use crate::error::{Error, Result};

/// Bits of a `ShredIndexV2` / completed-indexes bitmap (`MAX_DATA_SHREDS_PER_SLOT`).
pub const BITMAP_BYTES: usize = 32_768 / 8;

/// A little-endian reader over one value that names the column in every error.
struct Cursor<'a> {
    column: &'static str,
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn new(column: &'static str, bytes: &'a [u8]) -> Self {
        Self {
            column,
            bytes,
            at: 0,
        }
    }

    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8]> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&end| end <= self.bytes.len());
        let Some(end) = end else {
            return Err(Error::new(format!(
                "{}: value of {} bytes ends inside {what} (offset {}, {n} bytes wanted)",
                self.column,
                self.bytes.len(),
                self.at
            )));
        };
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn u8(&mut self, what: &str) -> Result<u8> {
        Ok(self.take(1, what)?[0])
    }

    fn u32(&mut self, what: &str) -> Result<u32> {
        let mut b = [0u8; 4];
        b.copy_from_slice(self.take(4, what)?);
        Ok(u32::from_le_bytes(b))
    }

    fn u64(&mut self, what: &str) -> Result<u64> {
        let mut b = [0u8; 8];
        b.copy_from_slice(self.take(8, what)?);
        Ok(u64::from_le_bytes(b))
    }

    fn finish(&self) -> Result<()> {
        if self.at == self.bytes.len() {
            Ok(())
        } else {
            Err(Error::new(format!(
                "{}: {} trailing bytes after offset {}",
                self.column,
                self.bytes.len() - self.at,
                self.at
            )))
        }
    }
}

/// Big-endian key fields: `widths` bytes each.
pub fn key_fields(column: &str, key: &[u8], widths: &[usize]) -> Result<Vec<u64>> {
    let total: usize = widths.iter().sum();
    if key.len() != total {
        return Err(Error::new(format!(
            "{column}: key of {} bytes, expected {total}",
            key.len()
        )));
    }
    let mut at = 0;
    Ok(widths
        .iter()
        .map(|&w| {
            let field = key[at..at + w]
                .iter()
                .fold(0u64, |acc, &b| acc << 8 | u64::from(b));
            at += w;
            field
        })
        .collect())
}

/// An `index` value: V2 (bitmaps) or V1 (sorted sets), tried in Agave's order.
pub fn decode_index(value: &[u8]) -> Result<IndexRow> {
    let v2 = decode_index_v2(value);
    let mut decoded = match v2 {
        Ok(v) => v,
        Err(v2_err) => decode_index_v1(value).map_err(|v1_err| {
            Error::new(format!("index: neither V2 ({v2_err}) nor V1 ({v1_err})"))
        })?,
    };
    decoded.agave_roundtrip = agave_roundtrip::<Index>(value, true);
    Ok(decoded)
}

/// A V2 `index` value; `agave_roundtrip` is left false for [`decode_index`] to set.
fn decode_index_v2(value: &[u8]) -> Result<IndexRow> {
    let mut c = Cursor::new("index", value);
    let slot = c.u64("slot")?;
    let data = bitmap_set(&mut c, "data")?;
    let coding = bitmap_set(&mut c, "coding")?;
    c.finish()?;
    Ok(IndexRow {
        format: IndexFormat::V2,
        slot,
        data,
        coding,
        agave_roundtrip: false,
    })
}

fn bitmap_set(c: &mut Cursor<'_>, what: &str) -> Result<ShredIndices> {
    let len = c.u64(what)?;
    if len != BITMAP_BYTES as u64 {
        return Err(Error::new(format!(
            "index: {what} bitmap of {len} bytes, expected {BITMAP_BYTES}"
        )));
    }
    let bits = c.take(BITMAP_BYTES, what)?;
    let num_shreds = c.u64(what)?;
    let indices = bitmap_indices(bits);
    if indices.len() as u64 != num_shreds {
        return Err(Error::new(format!(
            "index: {what} num_shreds {num_shreds} but {} bits set",
            indices.len()
        )));
    }
    Ok(ShredIndices {
        num_shreds,
        indices,
    })
}

/// Indices of the set bits: index i is bit i % 8 of byte i / 8.
pub fn bitmap_indices(bits: &[u8]) -> Vec<u64> {
    (0..bits.len() * 8)
        .filter(|i| bits[i / 8] >> (i % 8) & 1 == 1)
        .map(|i| i as u64)
        .collect()
}

/// A V1 `index` value; `agave_roundtrip` is left false for [`decode_index`] to set.
fn decode_index_v1(value: &[u8]) -> Result<IndexRow> {
    let mut c = Cursor::new("index", value);
    let slot = c.u64("slot")?;
    let data = sorted_set(&mut c, "data")?;
    let coding = sorted_set(&mut c, "coding")?;
    c.finish()?;
    let listed = |indices: Vec<u64>| ShredIndices {
        num_shreds: indices.len() as u64,
        indices,
    };
    Ok(IndexRow {
        format: IndexFormat::V1,
        slot,
        data: listed(data),
        coding: listed(coding),
        agave_roundtrip: false,
    })
}

fn sorted_set(c: &mut Cursor<'_>, what: &str) -> Result<Vec<u64>> {
    let count = c.u64(what)?;
    // Each element is 8 bytes: refuse a count the value cannot hold before allocating.
    if count > (c.bytes.len() - c.at) as u64 / 8 {
        return Err(Error::new(format!(
            "index: {what} count {count} exceeds the value"
        )));
    }
    (0..count).map(|_| c.u64(what)).collect()
}

/// An `erasure_meta` value; `key_fec_set_index` is left for the caller (it is in the key).
pub fn decode_erasure_meta(value: &[u8]) -> Result<ErasureMetaRow> {
    let mut c = Cursor::new("erasure_meta", value);
    let fec_set_index = c.u64("fec_set_index")?;
    let first_coding_index = c.u64("first_coding_index")?;
    let first_received_coding_index = c.u64("first_received_coding_index")?;
    let num_data = c.u64("num_data")?;
    let num_coding = c.u64("num_coding")?;
    c.finish()?;
    Ok(ErasureMetaRow {
        key_fec_set_index: None,
        fec_set_index,
        first_coding_index,
        first_received_coding_index,
        num_data,
        num_coding,
        agave_roundtrip: agave_roundtrip::<ErasureMeta>(value, false),
    })
}

/// A `merkle_root_meta` value; `fec_set_index` is left for the caller (it is in the key).
pub fn decode_merkle_root_meta(value: &[u8]) -> Result<MerkleRootMetaRow> {
    let mut c = Cursor::new("merkle_root_meta", value);
    let merkle_root = match c.u8("merkle_root option tag")? {
        0 => None,
        1 => Some(bs58::encode(c.take(32, "merkle_root")?).into_string()),
        tag => {
            return Err(Error::new(format!(
                "merkle_root_meta: option tag {tag}, expected 0 or 1"
            )));
        }
    };
    let first_received_shred_index = c.u32("first_received_shred_index")?;
    let shred_type = match c.u8("first_received_shred_type")? {
        0xa5 => ShredType::Data,
        0x5a => ShredType::Code,
        other => {
            return Err(Error::new(format!(
                "merkle_root_meta: shred type byte {other:#04x}, expected 0xa5 or 0x5a"
            )));
        }
    };
    c.finish()?;
    Ok(MerkleRootMetaRow {
        fec_set_index: None,
        merkle_root,
        first_received_shred_index,
        first_received_shred_type: shred_type,
        agave_roundtrip: agave_roundtrip::<MerkleRootMeta>(value, false),
    })
}

/// Whether Agave's own type decodes `value` and encodes it back to the same bytes, with
/// wincode as Agave 4.x reads and writes its columns. `strict` also refuses trailing bytes.
fn agave_roundtrip<T>(value: &[u8], strict: bool) -> bool
where
    T: for<'de> wincode::SchemaRead<'de, wincode::config::DefaultConfig, Dst = T>
        + wincode::SchemaWrite<wincode::config::DefaultConfig, Src = T>,
{
    let decoded: Option<T> = if strict {
        wincode::deserialize_exact(value).ok()
    } else {
        wincode::deserialize(value).ok()
    };
    decoded
        .and_then(|t| wincode::serialize(&t).ok())
        .is_some_and(|bytes| bytes == value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_v2_decodes_bits_and_counts() {
        let mut value = 7u64.to_le_bytes().to_vec();
        for set in [[0usize, 9].as_slice(), [3].as_slice()] {
            let mut bits = vec![0u8; BITMAP_BYTES];
            for &i in set {
                bits[i / 8] |= 1 << (i % 8);
            }
            value.extend((BITMAP_BYTES as u64).to_le_bytes());
            value.extend(bits);
            value.extend((set.len() as u64).to_le_bytes());
        }
        let v = decode_index(&value).expect("valid V2");
        assert_eq!(v.format, IndexFormat::V2);
        assert_eq!(v.data.indices, [0, 9]);
        assert_eq!(v.coding.indices, [3]);
        assert!(v.agave_roundtrip);
    }

    #[test]
    fn short_values_are_errors() {
        assert!(decode_index(&[1, 2, 3]).is_err());
        assert!(decode_erasure_meta(&[0; 39]).is_err());
        assert!(decode_merkle_root_meta(&[2; 38]).is_err());
    }

    #[test]
    fn erasure_meta_round_trips_through_agave() {
        let value: Vec<u8> = [32u64, 32, 40, 32, 32]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let v = decode_erasure_meta(&value).expect("40 bytes");
        assert_eq!(v.first_received_coding_index, 40);
        assert!(v.agave_roundtrip);
    }
}
