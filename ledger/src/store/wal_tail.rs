//! The end of a RocksDB write-ahead log, and cutting a record that a failed write left
//! half written (`docs/damage-and-repair.md#a-full-disk`). Pure file reading: no RocksDB.
//!
//! The log format (RocksDB `db/log_format.h`): the file is a sequence of 32 KiB blocks;
//! each block holds physical records, a 7-byte header (masked CRC32C of the type byte and
//! the payload, u32 LE; payload length, u16 LE; type, u8) then the payload. A physical
//! record never crosses a block; fewer than 7 bytes left at a block's end are a trailer
//! the reader skips. A logical record (one write batch) is one `FULL` record, or `FIRST`,
//! any number of `MIDDLE`, then `LAST`.
//!
//! Invariants:
//! - [`scan`] calls a log torn only when every complete physical record up to the tail
//!   has a valid checksum and a type bstore's store writes (1 to 4: no recycled logs, no
//!   compression, no timestamp or WAL-tracking records), fragments come in order, and the
//!   bytes after the last complete logical record are nothing but the start of one more
//!   (whole `FIRST` / `MIDDLE` records, then at most one record cut short by the end of
//!   the file). Any other shape is `Unexpected` and is never cut.
//! - [`cut_torn_tail`] keeps every byte up to the end of the last complete logical record:
//!   a write that returned `Ok` is a complete logical record, so no such write is dropped.
//! - Work is linear in the file's size, with one 32 KiB buffer.

use std::fs::OpenOptions;
use std::io::{self, Read};
use std::path::Path;

/// RocksDB's log block size.
pub const BLOCK_BYTES: usize = 32 * 1024;
/// A physical record's header: checksum (4), length (2), type (1).
pub const HEADER_BYTES: usize = 7;

const FULL: u8 = 1;
const FIRST: u8 = 2;
const MIDDLE: u8 = 3;
const LAST: u8 = 4;

/// What the end of a write-ahead log holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogTail {
    /// The log ends after a complete logical record (or is empty).
    Complete {
        /// Bytes up to the end of the last complete logical record.
        records_end: u64,
    },
    /// The log ends inside a logical record that was never completed: the first `keep`
    /// bytes hold every complete one.
    Torn {
        /// Bytes to keep.
        keep: u64,
        /// The file's length.
        len: u64,
    },
    /// A shape this module does not cut (see the module invariants).
    Unexpected {
        /// Offset of the physical record (or trailer) that did not fit.
        offset: u64,
        /// Why.
        cause: &'static str,
    },
}

/// Reads a whole log and says how it ends (module invariants).
pub fn scan<R: Read>(mut log: R) -> io::Result<LogTail> {
    let mut block = vec![0u8; BLOCK_BYTES];
    let mut scanner = Scanner::default();
    let mut base = 0u64;
    loop {
        let filled = fill(&mut log, &mut block)?;
        if let Some(verdict) = scanner.block(base, &block[..filled], filled == BLOCK_BYTES) {
            return Ok(verdict);
        }
        if filled < BLOCK_BYTES {
            return Ok(scanner.end(base + filled as u64));
        }
        base += BLOCK_BYTES as u64;
    }
}

/// Scans the log at `path` and, when it is [`LogTail::Torn`], truncates it to the bytes to
/// keep and syncs it. Returns what the scan found (before the cut).
pub fn cut_torn_tail(path: &Path) -> io::Result<LogTail> {
    let file = OpenOptions::new().read(true).write(true).open(path)?;
    let tail = scan(io::BufReader::with_capacity(BLOCK_BYTES, &file))?;
    if let LogTail::Torn { keep, .. } = tail {
        file.set_len(keep)?;
        file.sync_all()?;
    }
    Ok(tail)
}

/// Reads until `buf` is full or the reader ends; returns the bytes read.
fn fill<R: Read>(log: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match log.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

#[derive(Default)]
struct Scanner {
    /// End of the last complete logical record.
    records_end: u64,
    /// Inside a logical record (a `FIRST` seen, its `LAST` not yet).
    in_fragment: bool,
    /// The file ended inside a physical record or a trailer.
    cut_short: bool,
}

impl Scanner {
    /// Scans one block at file offset `base`; `Some` ends the scan early.
    fn block(&mut self, base: u64, block: &[u8], whole: bool) -> Option<LogTail> {
        let mut pos = 0usize;
        while pos < block.len() {
            let offset = base + pos as u64;
            let rest = &block[pos..];
            if BLOCK_BYTES - pos < HEADER_BYTES {
                // A trailer: skipped when the block is whole, cut short otherwise.
                self.cut_short = !whole;
                return None;
            }
            let Some(header) = rest.get(..HEADER_BYTES) else {
                self.cut_short = true;
                return None;
            };
            let stored = u32::from_le_bytes([header[0], header[1], header[2], header[3]]);
            let len = usize::from(u16::from_le_bytes([header[4], header[5]]));
            let kind = header[6];
            if pos + HEADER_BYTES + len > BLOCK_BYTES {
                return Some(unexpected(
                    offset,
                    "a record longer than the rest of its block",
                ));
            }
            let fits = match kind {
                FULL | FIRST => !self.in_fragment,
                MIDDLE | LAST => self.in_fragment,
                _ => {
                    return Some(unexpected(
                        offset,
                        "a record type bstore's store never writes",
                    ));
                }
            };
            if !fits {
                return Some(unexpected(offset, "a fragment out of order"));
            }
            let Some(payload) = rest.get(HEADER_BYTES..HEADER_BYTES + len) else {
                // Only the file's last block can be short.
                self.cut_short = true;
                return None;
            };
            if stored != masked_crc(kind, payload) {
                return Some(unexpected(offset, "a checksum mismatch"));
            }
            pos += HEADER_BYTES + len;
            match kind {
                FIRST => self.in_fragment = true,
                FULL | LAST => {
                    self.in_fragment = false;
                    self.records_end = base + pos as u64;
                }
                _ => {}
            }
        }
        None
    }

    fn end(&self, len: u64) -> LogTail {
        if self.in_fragment || self.cut_short {
            LogTail::Torn {
                keep: self.records_end,
                len,
            }
        } else {
            LogTail::Complete {
                records_end: self.records_end,
            }
        }
    }
}

fn unexpected(offset: u64, cause: &'static str) -> LogTail {
    LogTail::Unexpected { offset, cause }
}

/// RocksDB's stored checksum: CRC32C of the type byte then the payload, rotated and offset
/// ("masked") so a CRC of data holding CRCs is not itself trivially a CRC.
fn masked_crc(kind: u8, payload: &[u8]) -> u32 {
    let crc = crc32c(crc32c(0, &[kind]), payload);
    crc.rotate_right(15).wrapping_add(0xa282_ead8)
}

/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), extending `crc`.
fn crc32c(crc: u32, bytes: &[u8]) -> u32 {
    let mut c = !crc;
    for &b in bytes {
        c = CRC32C_TABLE[usize::from((c as u8) ^ b)] ^ (c >> 8);
    }
    !c
}

const CRC32C_TABLE: [u32; 256] = crc32c_table();

const fn crc32c_table() -> [u32; 256] {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 == 1 {
                0x82f6_3b78 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        table[i] = c;
        i += 1;
    }
    table
}

#[cfg(test)]
#[path = "wal_tail_tests.rs"]
mod tests;
