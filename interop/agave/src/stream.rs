//! Shred stream files, bstore's container (`ledger/src/stream.rs`): records of a u64
//! little-endian byte length followed by that many bytes of one shred payload.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;

use crate::error::{Error, Result};

/// Largest record accepted (bstore's limit): a shred is at most 1,228 bytes plus a few
/// trailing bytes, so anything past 64 KiB is corruption, not a shred.
const MAX_RECORD_LEN: u64 = 64 * 1024;

/// Reads every record of `path`. A record length past the end of the file or above
/// [`MAX_RECORD_LEN`] is an error naming the record and its offset.
pub fn read(path: &Path) -> Result<Vec<Vec<u8>>> {
    let io = |e: std::io::Error| Error::new(format!("{}: {e}", path.display()));
    let file = File::open(path).map_err(io)?;
    let file_len = file.metadata().map_err(io)?.len();
    let mut reader = BufReader::new(file);
    let mut records = Vec::new();
    let mut offset = 0u64;
    while offset < file_len {
        let record = records.len();
        let left = file_len - offset;
        if left < 8 {
            return Err(Error::new(format!(
                "{}: record {record} at offset {offset}: length prefix cut short ({left} bytes left)",
                path.display()
            )));
        }
        let mut len_bytes = [0u8; 8];
        reader.read_exact(&mut len_bytes).map_err(io)?;
        let len = u64::from_le_bytes(len_bytes);
        if len > MAX_RECORD_LEN || len > left - 8 {
            return Err(Error::new(format!(
                "{}: record {record} at offset {offset}: length {len} exceeds the limit \
                 ({MAX_RECORD_LEN}) or the {} bytes left",
                path.display(),
                left - 8
            )));
        }
        // Both bounds checked above, so the cast cannot truncate.
        let mut payload = vec![0u8; len as usize];
        reader.read_exact(&mut payload).map_err(io)?;
        records.push(payload);
        offset += 8 + len;
    }
    Ok(records)
}

/// Writes a stream file of `payloads`.
pub fn write<'a>(path: &Path, payloads: impl IntoIterator<Item = &'a [u8]>) -> Result<usize> {
    let io = |e: std::io::Error| Error::new(format!("{}: {e}", path.display()));
    let mut out = BufWriter::new(File::create(path).map_err(io)?);
    let mut count = 0;
    for payload in payloads {
        out.write_all(&(payload.len() as u64).to_le_bytes())
            .map_err(io)?;
        out.write_all(payload).map_err(io)?;
        count += 1;
    }
    out.flush().map_err(io)?;
    Ok(count)
}
