//! The sealed index of one slot range, `PREFIX/index/<range start>-<n slots>`: every
//! signature of the range's archived slots, sorted, behind a fan-out table and a bloom
//! filter, so that a signature resolves with range reads of known offsets.
//!
//! ```text
//! header (64 bytes, LE):
//!   magic "BSAI" | version u8 = 1 | fanout_bits u8 | bloom_hashes u8 | reserved u8
//!   | range_start u64 | range_slots u64 | n_slots u32 | reserved u32 | n_entries u64
//!   | bloom_bytes u64 | sha256(slots ‖ bloom)[..16]
//! slots:   n_slots × u64, ascending, within the range      } the summary a reader caches
//! bloom:   bloom_bytes                                       }
//! fan-out: (2^fanout_bits + 1) × u32: entry index where bucket b starts; the last is n_entries
//! entries: n_entries × (signature [64] | slot offset u32 | transaction index u32),
//!          sorted by (signature, slot offset, index); bucket b = signatures whose first
//!          fanout_bits bits equal b
//! ```
//!
//! A lookup with the summary cached: bloom in memory, then read 1 = the two fan-out words of
//! the bucket (8 bytes), read 2 = the bucket's entries (≈ n_entries / 65,536 · 72 bytes).
//! The summary's checksum is checked when it is loaded; fan-out words and entries are
//! checked for order and bounds when read, and a hit is only trusted once the block object
//! confirms the signature at that index.

use bstore_ledger::Slot;
use object_store::path::Path;
use std::sync::OnceLock;

use sha2::{Digest, Sha256};

use crate::bloom::{Bloom, bloom_bytes};
use crate::error::{ArchiveError, Result};
use crate::layout::{BLOOM_HASHES, FANOUT_BITS, Layout, ReadLimits};
use crate::sig_table::{SigTable, TxLocation};

const MAGIC: &[u8; 4] = b"BSAI";
const VERSION: u8 = 1;
/// Header bytes.
pub(crate) const HEADER_BYTES: u64 = 64;
/// Bytes of one entry.
pub(crate) const ENTRY_BYTES: u64 = 72;
const BUCKETS: usize = 1 << FANOUT_BITS;

/// Builds the index of the range starting at `range_start` from its slots' tables (any
/// order; each slot once). Fails when the range holds more than `u32::MAX` signatures.
pub fn build(layout: &Layout, range_start: Slot, tables: &[&SigTable]) -> Result<Vec<u8>> {
    let mut slots: Vec<u64> = tables.iter().map(|t| t.slot.0).collect();
    slots.sort_unstable();
    let mut entries: Vec<([u8; 64], u32, u32)> = Vec::new();
    for t in tables {
        let offset = t
            .slot
            .0
            .checked_sub(range_start.0)
            .filter(|o| *o < layout.range_slots)
            .and_then(|o| u32::try_from(o).ok())
            .ok_or_else(|| ArchiveError::Layout {
                key: format!("index of range {range_start}"),
                reason: format!("slot {} is outside the range", t.slot),
            })?;
        entries.extend(t.entries.iter().map(|(sig, idx)| (*sig, offset, *idx)));
    }
    entries.sort_unstable();
    let n = u32::try_from(entries.len()).map_err(|_| ArchiveError::Layout {
        key: format!("index of range {range_start}"),
        reason: format!("{} signatures exceed one range index", entries.len()),
    })?;
    let bloom = Bloom::build(u64::from(n), entries.iter().map(|(s, _, _)| s));
    let mut fanout = vec![0u32; BUCKETS + 1];
    for (sig, _, _) in &entries {
        fanout[bucket(sig) + 1] += 1;
    }
    for b in 0..BUCKETS {
        fanout[b + 1] += fanout[b];
    }
    let mut summary = Vec::with_capacity(slots.len() * 8 + bloom.as_bytes().len());
    for s in &slots {
        summary.extend_from_slice(&s.to_le_bytes());
    }
    summary.extend_from_slice(bloom.as_bytes());
    let mut out = Vec::with_capacity(
        HEADER_BYTES as usize
            + summary.len()
            + fanout.len() * 4
            + entries.len() * ENTRY_BYTES as usize,
    );
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[VERSION, FANOUT_BITS, BLOOM_HASHES, 0]);
    out.extend_from_slice(&range_start.0.to_le_bytes());
    out.extend_from_slice(&layout.range_slots.to_le_bytes());
    out.extend_from_slice(&(slots.len() as u32).to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&u64::from(n).to_le_bytes());
    out.extend_from_slice(&(bloom.as_bytes().len() as u64).to_le_bytes());
    out.extend_from_slice(&Sha256::digest(&summary)[..16]);
    out.extend_from_slice(&summary);
    for f in &fanout {
        out.extend_from_slice(&f.to_le_bytes());
    }
    for (sig, offset, idx) in &entries {
        out.extend_from_slice(sig);
        out.extend_from_slice(&offset.to_le_bytes());
        out.extend_from_slice(&idx.to_le_bytes());
    }
    Ok(out)
}

/// Fan-out bucket of a signature: its first `FANOUT_BITS` bits.
pub(crate) fn bucket(sig: &[u8; 64]) -> usize {
    usize::from(u16::from_be_bytes([sig[0], sig[1]])) >> (16 - FANOUT_BITS)
}

/// The fixed-size header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Header {
    pub range_start: Slot,
    pub range_slots: u64,
    pub n_slots: u32,
    pub n_entries: u64,
    pub bloom_bytes: u64,
    checksum: [u8; 16],
}

impl Header {
    /// Parses and checks the header of `key` against the archive's layout.
    pub(crate) fn parse(key: &Path, layout: &Layout, bytes: &[u8]) -> Result<Self> {
        let bad = |reason: String| ArchiveError::corrupt(key, reason);
        if bytes.len() as u64 != HEADER_BYTES {
            return Err(bad(format!(
                "header is {} bytes, not {HEADER_BYTES}",
                bytes.len()
            )));
        }
        if &bytes[..4] != MAGIC || bytes[4] != VERSION {
            return Err(bad("not a range index (bad magic or version)".into()));
        }
        if bytes[5] != FANOUT_BITS || bytes[6] != BLOOM_HASHES {
            return Err(bad(format!(
                "fan-out bits {} / bloom hashes {}",
                bytes[5], bytes[6]
            )));
        }
        let u64_at = |at: usize| {
            let mut a = [0u8; 8];
            a.copy_from_slice(&bytes[at..at + 8]);
            u64::from_le_bytes(a)
        };
        let mut n_slots = [0u8; 4];
        n_slots.copy_from_slice(&bytes[24..28]);
        let mut checksum = [0u8; 16];
        checksum.copy_from_slice(&bytes[48..64]);
        let h = Self {
            range_start: Slot(u64_at(8)),
            range_slots: u64_at(16),
            n_slots: u32::from_le_bytes(n_slots),
            n_entries: u64_at(32),
            bloom_bytes: u64_at(40),
            checksum,
        };
        if h.range_slots != layout.range_slots
            || !h.range_start.0.is_multiple_of(layout.range_slots)
        {
            return Err(bad(format!(
                "range {}+{} does not fit the layout's ranges of {}",
                h.range_start, h.range_slots, layout.range_slots
            )));
        }
        if u64::from(h.n_slots) > h.range_slots || h.n_entries > u64::from(u32::MAX) {
            return Err(bad(format!(
                "{} slots / {} entries",
                h.n_slots, h.n_entries
            )));
        }
        if h.bloom_bytes != bloom_bytes(h.n_entries) {
            return Err(bad(format!(
                "bloom of {} bytes for {} entries",
                h.bloom_bytes, h.n_entries
            )));
        }
        Ok(h)
    }

    /// Bytes of the slot list and the bloom filter.
    pub(crate) fn summary_bytes(&self) -> u64 {
        u64::from(self.n_slots) * 8 + self.bloom_bytes
    }

    /// `TooLarge` when the summary exceeds `limits` (checked before it is read).
    pub(crate) fn check_summary_limit(&self, key: &Path, limits: &ReadLimits) -> Result<()> {
        if self.summary_bytes() > limits.index_summary_bytes {
            return Err(ArchiveError::TooLarge {
                key: key.to_string(),
                what: "range index summary",
                size: self.summary_bytes(),
                limit: limits.index_summary_bytes,
            });
        }
        Ok(())
    }

    fn fanout_offset(&self) -> u64 {
        HEADER_BYTES + self.summary_bytes()
    }

    fn entries_offset(&self) -> u64 {
        self.fanout_offset() + (BUCKETS as u64 + 1) * 4
    }

    /// Total object size this header implies.
    #[cfg(test)]
    pub(crate) fn object_bytes(&self) -> u64 {
        self.entries_offset() + self.n_entries * ENTRY_BYTES
    }
}

/// What a reader keeps of a sealed range: its header and bloom filter. The slot list that
/// follows the header is checked on parse (ascending, within the range) but not kept: the
/// reader lists archived slots from the block objects themselves.
#[derive(Debug, Clone)]
pub(crate) struct Summary {
    pub key: Path,
    pub header: Header,
    pub bloom: Bloom,
    /// The whole fan-out table once a lookup loaded it (256 KiB; checked to be
    /// non-decreasing and to end at `n_entries`).
    fanout: OnceLock<Vec<u32>>,
}

impl Summary {
    /// Builds the summary from the header and the `summary_bytes()` that follow it,
    /// checking the checksum and the slot list.
    pub(crate) fn parse(
        key: &Path,
        header: Header,
        bytes: &[u8],
        limits: &ReadLimits,
    ) -> Result<Self> {
        let bad = |reason: String| ArchiveError::corrupt(key, reason);
        header.check_summary_limit(key, limits)?;
        if bytes.len() as u64 != header.summary_bytes() {
            return Err(bad(format!(
                "summary is {} bytes, not {}",
                bytes.len(),
                header.summary_bytes()
            )));
        }
        if Sha256::digest(bytes)[..16] != header.checksum {
            return Err(bad("summary checksum mismatch".into()));
        }
        let (slot_bytes, bloom) = bytes.split_at((header.n_slots as usize) * 8);
        let slots: Vec<Slot> = slot_bytes
            .chunks_exact(8)
            .map(|c| {
                let mut a = [0u8; 8];
                a.copy_from_slice(c);
                Slot(u64::from_le_bytes(a))
            })
            .collect();
        let last = header.range_start.0.saturating_add(header.range_slots - 1);
        let in_range = slots
            .iter()
            .all(|s| (header.range_start.0..=last).contains(&s.0));
        if !slots.is_sorted_by(|a, b| a < b) || !in_range {
            return Err(bad("slot list is not ascending within the range".into()));
        }
        Ok(Self {
            key: key.clone(),
            header,
            bloom: Bloom::from_bytes(bloom.to_vec()),
            fanout: OnceLock::new(),
        })
    }

    /// Byte range of the whole fan-out table.
    pub(crate) fn fanout_table_range(&self) -> std::ops::Range<u64> {
        let at = self.header.fanout_offset();
        at..at + (BUCKETS as u64 + 1) * 4
    }

    /// Keeps the fan-out table read with [`Self::fanout_table_range`], checked.
    pub(crate) fn set_fanout(&self, bytes: &[u8]) -> Result<()> {
        let bad = |reason: String| ArchiveError::corrupt(&self.key, reason);
        if bytes.len() != (BUCKETS + 1) * 4 {
            return Err(bad(format!("fan-out read returned {} bytes", bytes.len())));
        }
        let table: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let ends_right = table
            .last()
            .is_some_and(|&n| u64::from(n) == self.header.n_entries);
        if table.first() != Some(&0) || !ends_right || !table.is_sorted() {
            return Err(bad(
                "fan-out table is not 0..=n_entries non-decreasing".into()
            ));
        }
        // A concurrent lookup may have set it first; both read the same immutable bytes.
        let _ = self.fanout.set(table);
        Ok(())
    }

    /// The two fan-out words of `sig`'s bucket from the cached table, if loaded.
    pub(crate) fn cached_fanout_words(&self, sig: &[u8; 64]) -> Option<[u8; 8]> {
        let table = self.fanout.get()?;
        let b = bucket(sig);
        let (lo, hi) = (table.get(b)?, table.get(b + 1)?);
        let mut words = [0u8; 8];
        words[..4].copy_from_slice(&lo.to_le_bytes());
        words[4..].copy_from_slice(&hi.to_le_bytes());
        Some(words)
    }

    /// Byte range of the two fan-out words that bound `sig`'s bucket.
    #[cfg(test)]
    pub(crate) fn fanout_range(&self, sig: &[u8; 64]) -> std::ops::Range<u64> {
        let at = self.header.fanout_offset() + bucket(sig) as u64 * 4;
        at..at + 8
    }

    /// Byte range of the entries `lo..hi` (from the fan-out words), checked.
    pub(crate) fn bucket_range(
        &self,
        words: &[u8],
        limits: &ReadLimits,
    ) -> Result<std::ops::Range<u64>> {
        let bad = |reason: String| ArchiveError::corrupt(&self.key, reason);
        if words.len() != 8 {
            return Err(bad(format!("fan-out read returned {} bytes", words.len())));
        }
        let lo = u64::from(u32::from_le_bytes([words[0], words[1], words[2], words[3]]));
        let hi = u64::from(u32::from_le_bytes([words[4], words[5], words[6], words[7]]));
        if lo > hi || hi > self.header.n_entries {
            return Err(bad(format!(
                "fan-out bucket {lo}..{hi} of {} entries",
                self.header.n_entries
            )));
        }
        let bytes = (hi - lo) * ENTRY_BYTES;
        if bytes > limits.index_bucket_bytes {
            return Err(ArchiveError::TooLarge {
                key: self.key.to_string(),
                what: "fan-out bucket",
                size: bytes,
                limit: limits.index_bucket_bytes,
            });
        }
        let start = self.header.entries_offset() + lo * ENTRY_BYTES;
        Ok(start..start + bytes)
    }

    /// The locations of `sig` in a bucket's entries (read with [`Self::bucket_range`]).
    pub(crate) fn search_bucket(&self, entries: &[u8], sig: &[u8; 64]) -> Result<Vec<TxLocation>> {
        let bad = |reason: String| ArchiveError::corrupt(&self.key, reason);
        if !(entries.len() as u64).is_multiple_of(ENTRY_BYTES) {
            return Err(bad(format!("bucket read returned {} bytes", entries.len())));
        }
        let mut out = Vec::new();
        let mut prev: Option<&[u8]> = None;
        for e in entries.chunks_exact(ENTRY_BYTES as usize) {
            let (s, rest) = e.split_at(64);
            if prev.is_some_and(|p| p > s) {
                return Err(bad("bucket entries are not sorted".into()));
            }
            prev = Some(s);
            if s != sig {
                continue;
            }
            let offset = u64::from(u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]));
            let index = u32::from_le_bytes([rest[4], rest[5], rest[6], rest[7]]);
            if offset >= self.header.range_slots {
                return Err(bad(format!("slot offset {offset} outside the range")));
            }
            out.push(TxLocation {
                slot: Slot(self.header.range_start.0 + offset),
                index,
            });
        }
        Ok(out)
    }
}

#[cfg(test)]
#[path = "range_index_tests.rs"]
mod tests;
