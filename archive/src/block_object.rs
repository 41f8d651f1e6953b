//! The block object `PREFIX/blocks/<slot>`: one [`BlockRecord`] compressed with zstd.
//!
//! ```text
//! magic "BSAB" | version u8 = 1 | codec u8 = 1 (zstd) | reserved [0, 0]
//! | slot u64 | raw_len u64 | transactions u32 | reserved u32 = 0      (32 bytes, LE)
//! | one zstd frame of BlockRecord::encode(), with its content checksum
//! ```
//!
//! Why zstd: an archive is written once and kept for long, so bytes stored matter more than
//! compression speed, and zstd at level 3 both shrinks a block noticeably more than lz4 and
//! decompresses at several hundred MB/s — far above what one object read delivers. The frame's
//! content checksum (xxhash64) turns any flipped byte into a decode error.
//!
//! Invariants a reader checks before trusting anything: the object is at most
//! `ReadLimits::block_object_bytes`; `raw_len` is at most `block_raw_bytes` and is the exact
//! decompressed size; the record's slot equals the header's, which equals the name's; the
//! record has `transactions` statuses.

use bstore_ledger::Slot;
use bstore_ledger::history::BlockRecord;
use object_store::path::Path;

use crate::error::{ArchiveError, Result};
use crate::layout::ReadLimits;

const MAGIC: &[u8; 4] = b"BSAB";
const VERSION: u8 = 1;
const CODEC_ZSTD: u8 = 1;
/// Header bytes before the zstd frame.
pub(crate) const HEADER_BYTES: usize = 32;
/// zstd level of block objects.
pub(crate) const ZSTD_LEVEL: i32 = 3;

/// An encoded block object and what it holds.
#[derive(Debug, Clone)]
pub(crate) struct BlockObject {
    pub bytes: Vec<u8>,
    /// Size of the uncompressed record.
    pub raw_len: u64,
}

/// Compresses `record` into a block object.
pub(crate) fn encode(record: &BlockRecord) -> Result<BlockObject> {
    let raw = record.encode();
    let mut out = Vec::with_capacity(HEADER_BYTES + raw.len() / 2);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[VERSION, CODEC_ZSTD, 0, 0]);
    out.extend_from_slice(&record.slot.0.to_le_bytes());
    out.extend_from_slice(&(raw.len() as u64).to_le_bytes());
    let txs = u32::try_from(record.statuses.len()).unwrap_or(u32::MAX);
    out.extend_from_slice(&txs.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    let mut encoder =
        zstd::stream::Encoder::new(out, ZSTD_LEVEL).map_err(|e| compress_error(record.slot, e))?;
    encoder
        .include_checksum(true)
        .map_err(|e| compress_error(record.slot, e))?;
    encoder
        .set_pledged_src_size(Some(raw.len() as u64))
        .map_err(|e| compress_error(record.slot, e))?;
    std::io::Write::write_all(&mut encoder, &raw).map_err(|e| compress_error(record.slot, e))?;
    let bytes = encoder
        .finish()
        .map_err(|e| compress_error(record.slot, e))?;
    Ok(BlockObject {
        bytes,
        raw_len: raw.len() as u64,
    })
}

fn compress_error(slot: Slot, e: std::io::Error) -> ArchiveError {
    ArchiveError::Corrupt {
        key: format!("block of slot {slot} (compressing)"),
        reason: e.to_string(),
    }
}

/// Decodes the block object `key`, which must hold `slot`.
pub(crate) fn decode(
    key: &Path,
    slot: Slot,
    bytes: &[u8],
    limits: &ReadLimits,
) -> Result<BlockRecord> {
    if bytes.len() as u64 > limits.block_object_bytes {
        return Err(ArchiveError::TooLarge {
            key: key.to_string(),
            what: "block object",
            size: bytes.len() as u64,
            limit: limits.block_object_bytes,
        });
    }
    let bad = |reason: String| ArchiveError::corrupt(key, reason);
    let (header, frame) = bytes
        .split_at_checked(HEADER_BYTES)
        .ok_or_else(|| bad(format!("{} bytes is shorter than the header", bytes.len())))?;
    if &header[..4] != MAGIC {
        return Err(bad("not a block object (bad magic)".into()));
    }
    if header[4] != VERSION || header[5] != CODEC_ZSTD {
        return Err(bad(format!(
            "unknown version {} / codec {}",
            header[4], header[5]
        )));
    }
    let header_slot = u64_at(header, 8);
    let raw_len = u64_at(header, 16);
    let txs = u32_at(header, 24);
    if header_slot != slot.0 {
        return Err(bad(format!("holds slot {header_slot}, not {slot}")));
    }
    if raw_len > limits.block_raw_bytes {
        return Err(ArchiveError::TooLarge {
            key: key.to_string(),
            what: "decompressed block record",
            size: raw_len,
            limit: limits.block_raw_bytes,
        });
    }
    // The frame states its content size; one that disagrees is refused before any
    // allocation. Capacity is the checked raw_len: a frame that inflates past it is an
    // error, not a bigger allocation.
    match zstd::zstd_safe::get_frame_content_size(frame) {
        Ok(Some(n)) if n == raw_len => {}
        Ok(n) => {
            return Err(bad(format!(
                "zstd frame holds {n:?} bytes, header says {raw_len}"
            )));
        }
        Err(_) => return Err(bad("zstd frame: no valid frame header".into())),
    }
    let raw = zstd::bulk::decompress(frame, raw_len as usize)
        .map_err(|e| bad(format!("zstd frame: {e}")))?;
    if raw.len() as u64 != raw_len {
        return Err(bad(format!(
            "decompressed to {} bytes, header says {raw_len}",
            raw.len()
        )));
    }
    let record = BlockRecord::decode(&raw).map_err(|e| bad(e.to_string()))?;
    if record.slot != slot {
        return Err(bad(format!(
            "record is of slot {}, not {slot}",
            record.slot
        )));
    }
    if record.statuses.len() as u64 != u64::from(txs) {
        return Err(bad(format!(
            "record has {} transactions, header says {txs}",
            record.statuses.len()
        )));
    }
    Ok(record)
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    if let Some(s) = b.get(at..at + 8) {
        a.copy_from_slice(s);
    }
    u64::from_le_bytes(a)
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    let mut a = [0u8; 4];
    if let Some(s) = b.get(at..at + 4) {
        a.copy_from_slice(s);
    }
    u32::from_le_bytes(a)
}

#[cfg(test)]
#[path = "block_object_tests.rs"]
mod tests;
