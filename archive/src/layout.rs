//! The archive's parameters, stored once as `PREFIX/layout.json` by the first archive run
//! and never rewritten: every later writer and every reader uses the stored values.
//! [`ReadLimits`] bound what a reader accepts from any object.

use serde_json::{Value, json};

use crate::error::{ArchiveError, Result};

/// Format name in `layout.json`.
pub(crate) const FORMAT: &str = "bstore-archive";
/// Layout version this crate writes and reads.
pub(crate) const LAYOUT_VERSION: u64 = 1;
/// Default slots per sealed index range (about 7 minutes of mainnet slots).
pub const DEFAULT_RANGE_SLOTS: u64 = 1024;
/// Bits of a signature's prefix that pick its fan-out bucket in a range index.
pub(crate) const FANOUT_BITS: u8 = 16;
/// Bloom filter bits per signature in a range index.
pub(crate) const BLOOM_BITS_PER_KEY: u64 = 16;
/// Bloom filter hash functions (≈ 16 · ln 2).
pub(crate) const BLOOM_HASHES: u8 = 11;
/// Largest allowed range (slot offsets in index entries are `u32`; the writer holds one
/// range's signature tables in memory while sealing).
pub(crate) const MAX_RANGE_SLOTS: u64 = 1 << 20;

/// Parameters fixed at the archive's creation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// Slots per index range; range `r` covers `[r·N, (r+1)·N)`.
    pub range_slots: u64,
}

impl Default for Layout {
    fn default() -> Self {
        Self {
            range_slots: DEFAULT_RANGE_SLOTS,
        }
    }
}

impl Layout {
    /// A layout with `range_slots`, checked.
    pub fn new(range_slots: u64) -> Result<Self> {
        if !(1..=MAX_RANGE_SLOTS).contains(&range_slots) {
            return Err(ArchiveError::Layout {
                key: "layout.json".into(),
                reason: format!("range_slots {range_slots} is not within 1..={MAX_RANGE_SLOTS}"),
            });
        }
        Ok(Self { range_slots })
    }

    /// First slot of the range holding `slot`.
    pub(crate) fn range_start(&self, slot: u64) -> u64 {
        slot - slot % self.range_slots
    }

    /// Last slot of the range starting at `start` (saturating at `u64::MAX`).
    pub(crate) fn range_last(&self, start: u64) -> u64 {
        start.saturating_add(self.range_slots - 1)
    }

    /// The JSON stored as `layout.json`.
    pub(crate) fn to_json(self) -> Vec<u8> {
        json!({
            "format": FORMAT,
            "version": LAYOUT_VERSION,
            "range_slots": self.range_slots,
            "fanout_bits": FANOUT_BITS,
            "bloom_bits_per_key": BLOOM_BITS_PER_KEY,
            "bloom_hashes": BLOOM_HASHES,
            "block_compression": "zstd",
        })
        .to_string()
        .into_bytes()
    }

    /// Parses `layout.json` (`key` names it in errors). Unknown versions and parameters
    /// this crate cannot read are refused rather than guessed.
    pub(crate) fn from_json(key: &str, bytes: &[u8]) -> Result<Self> {
        let bad = |reason: String| ArchiveError::Layout {
            key: key.to_string(),
            reason,
        };
        if bytes.len() > 64 * 1024 {
            return Err(bad(format!("{} bytes is not a layout object", bytes.len())));
        }
        let v: Value = serde_json::from_slice(bytes).map_err(|e| bad(format!("not JSON: {e}")))?;
        if v["format"] != FORMAT {
            return Err(bad(format!("format {} is not {FORMAT:?}", v["format"])));
        }
        if v["version"] != LAYOUT_VERSION {
            return Err(bad(format!("unknown version {}", v["version"])));
        }
        let fixed = [
            ("fanout_bits", u64::from(FANOUT_BITS)),
            ("bloom_bits_per_key", BLOOM_BITS_PER_KEY),
            ("bloom_hashes", u64::from(BLOOM_HASHES)),
        ];
        for (field, want) in fixed {
            if v[field] != want {
                return Err(bad(format!("{field} {} is not {want}", v[field])));
            }
        }
        if v["block_compression"] != "zstd" {
            return Err(bad(format!("block_compression {}", v["block_compression"])));
        }
        let range_slots = v["range_slots"]
            .as_u64()
            .ok_or_else(|| bad("range_slots is not a number".into()))?;
        Self::new(range_slots).map_err(|e| bad(e.to_string()))
    }
}

/// Bounds on what a reader accepts; an object or a part above them is `TooLarge`, never
/// read into memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadLimits {
    /// Stored (compressed) size of a block object.
    pub block_object_bytes: u64,
    /// Decompressed size of a block record (a full slot is ~40 MB of entries at 32,768
    /// shreds; history rows add to it).
    pub block_raw_bytes: u64,
    /// Size of one per-slot signature table.
    pub sig_table_bytes: u64,
    /// Bytes of one range index's header, slot list and bloom filter (what a reader caches).
    pub index_summary_bytes: u64,
    /// Bytes of one fan-out bucket of a range index.
    pub index_bucket_bytes: u64,
    /// Archived slots past the last sealed range whose signature tables a reader keeps
    /// (normally at most about one range; more means ranges were left unsealed).
    pub unsealed_slots: usize,
}

impl Default for ReadLimits {
    fn default() -> Self {
        Self {
            block_object_bytes: 256 << 20,
            block_raw_bytes: 512 << 20,
            sig_table_bytes: 64 << 20,
            index_summary_bytes: 256 << 20,
            index_bucket_bytes: 16 << 20,
            unsealed_slots: 65_536,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_json_round_trips_and_refuses_other_versions() {
        let l = Layout::new(64).expect("valid");
        assert_eq!(Layout::from_json("k", &l.to_json()).expect("parses"), l);
        let mut v: Value = serde_json::from_slice(&l.to_json()).expect("json");
        v["version"] = json!(2);
        let e = Layout::from_json("k", v.to_string().as_bytes()).expect_err("v2");
        assert!(e.to_string().contains("unknown version 2"), "{e}");
        assert!(Layout::from_json("k", b"{").is_err());
        assert!(Layout::new(0).is_err());
        assert!(Layout::new(MAX_RANGE_SLOTS + 1).is_err());
    }

    #[test]
    fn ranges_are_aligned() {
        let l = Layout::new(100).expect("valid");
        assert_eq!(l.range_start(0), 0);
        assert_eq!(l.range_start(199), 100);
        assert_eq!(l.range_last(100), 199);
        assert_eq!(l.range_last(u64::MAX - 5), u64::MAX);
    }
}
