//! Shred stream files (`docs/formats-shreds.md#shred-stream-files`): a sequence of records, each a
//! u64 LE byte length followed by
//! that many bytes of one shred packet.
//!
//! The reader never trusts a record length: a length larger than [`MAX_RECORD_LEN`] or than
//! the bytes left in the file is an error naming the record, not an allocation.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

use crate::error::{FormatError, Result};

/// Largest record accepted. A shred packet is at most 1,228 bytes plus a few trailing bytes
/// (repair nonce, padding); anything past 64 KiB is corrupt, not a shred.
pub const MAX_RECORD_LEN: u64 = 64 * 1024;

/// Streams the records of one shred stream file.
#[derive(Debug)]
pub struct StreamReader<R> {
    path: PathBuf,
    inner: R,
    record: u64,
    offset: u64,
    remaining: Option<u64>,
    failed: bool,
}

impl StreamReader<BufReader<File>> {
    /// Opens `path` for streaming.
    pub fn open(path: &Path) -> Result<Self> {
        let io = |source| FormatError::Io {
            path: path.to_path_buf(),
            source,
        };
        let file = File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        Ok(Self::new(path, BufReader::new(file), Some(len)))
    }
}

impl<R: Read> StreamReader<R> {
    /// Wraps any reader; `len` (when known) lets truncated records be reported before reading.
    pub fn new(path: &Path, inner: R, len: Option<u64>) -> Self {
        Self {
            path: path.to_path_buf(),
            inner,
            record: 0,
            offset: 0,
            remaining: len,
            failed: false,
        }
    }

    fn fail(&mut self, reason: String) -> FormatError {
        self.failed = true;
        FormatError::StreamFile {
            path: self.path.clone(),
            record: self.record,
            offset: self.offset,
            reason,
        }
    }

    fn next_record(&mut self) -> Result<Option<Vec<u8>>> {
        let mut len_bytes = [0u8; 8];
        let mut got = 0;
        while got < 8 {
            match self.inner.read(&mut len_bytes[got..]) {
                Ok(0) if got == 0 => return Ok(None),
                Ok(0) => {
                    return Err(self.fail(format!("length prefix cut short after {got} bytes")));
                }
                Ok(n) => got += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(self.fail(e.to_string())),
            }
        }
        let len = u64::from_le_bytes(len_bytes);
        if len > MAX_RECORD_LEN {
            return Err(self.fail(format!("record length {len} exceeds {MAX_RECORD_LEN}")));
        }
        if let Some(rem) = self.remaining
            && len > rem.saturating_sub(8)
        {
            return Err(self.fail(format!(
                "record length {len} exceeds the {} bytes left in the file",
                rem.saturating_sub(8)
            )));
        }
        // Bounded by MAX_RECORD_LEN above, so this allocation cannot be a length bomb.
        let mut buf = vec![0u8; len as usize];
        if let Err(e) = self.inner.read_exact(&mut buf) {
            return Err(self.fail(format!("record of {len} bytes cut short: {e}")));
        }
        self.record += 1;
        self.offset += 8 + len;
        if let Some(rem) = self.remaining.as_mut() {
            *rem = rem.saturating_sub(8 + len);
        }
        Ok(Some(buf))
    }
}

impl<R: Read> Iterator for StreamReader<R> {
    type Item = Result<Vec<u8>>;

    /// Yields each record; after the first error the stream ends (record boundaries are lost).
    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        self.next_record().transpose()
    }
}

/// Reads every record of `path` into memory.
pub fn read_stream_file(path: &Path) -> Result<Vec<Vec<u8>>> {
    StreamReader::open(path)?.collect()
}

/// Appends one record to `out` in the `docs/formats-shreds.md#shred-stream-files` layout.
pub fn write_record(out: &mut Vec<u8>, packet: &[u8]) {
    out.extend_from_slice(&(packet.len() as u64).to_le_bytes());
    out.extend_from_slice(packet);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reader(bytes: &[u8]) -> StreamReader<&[u8]> {
        StreamReader::new(Path::new("mem"), bytes, Some(bytes.len() as u64))
    }

    #[test]
    fn round_trips_records() {
        let mut buf = Vec::new();
        write_record(&mut buf, b"abc");
        write_record(&mut buf, b"");
        write_record(&mut buf, &[7u8; 1228]);
        let recs: Vec<_> = reader(&buf).collect::<Result<_>>().expect("valid stream");
        assert_eq!(recs, vec![b"abc".to_vec(), vec![], vec![7u8; 1228]]);
    }

    #[test]
    fn length_bomb_and_truncation_are_errors_naming_the_record() {
        let mut buf = Vec::new();
        write_record(&mut buf, b"ok");
        buf.extend_from_slice(&u64::MAX.to_le_bytes());
        let mut r = reader(&buf);
        assert!(r.next().expect("first").is_ok());
        let err = r.next().expect("second").expect_err("bomb");
        assert!(
            matches!(
                err,
                FormatError::StreamFile {
                    record: 1,
                    offset: 10,
                    ..
                }
            ),
            "{err}"
        );
        assert!(r.next().is_none());

        let mut cut = Vec::new();
        write_record(&mut cut, &[1u8; 100]);
        cut.truncate(50);
        let err = reader(&cut).next().expect("one").expect_err("cut");
        assert!(err.to_string().contains("record 0"), "{err}");
        let err = reader(&[1, 2, 3])
            .next()
            .expect("one")
            .expect_err("cut prefix");
        assert!(err.to_string().contains("cut short"), "{err}");
    }
}
