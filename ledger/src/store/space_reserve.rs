//! The space reserve: a file of its own beside the database (`<ledger>/bstore-space-reserve`)
//! that holds disk space back for the day the disk fills up
//! (`docs/damage-and-repair.md#a-full-disk`).
//!
//! Every RocksDB write needs room, freeing space included: a read-write open writes a new
//! MANIFEST and OPTIONS file, a purge writes its deletions to the log and rewrites the table
//! files that reach outside its range. On a disk with no byte free none of that can start,
//! so the commands that grow a ledger (`ledger ingest`, `ledger generate`) first make sure
//! the reserve exists, and `ledger purge` deletes it before it opens the ledger and puts it
//! back once the purge gave the space back.
//!
//! Invariants: the reserve never holds ledger data (deleting it loses nothing); it is
//! written with bytes that do not compress, so a compressing file system cannot store it in
//! less than its size; a reserve that does not fit is removed whole, never left part-sized.

use std::fs::File;
use std::io::{ErrorKind, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use crate::error::{LedgerError, Result};

/// The reserve's file name in the ledger directory.
pub const RESERVE_FILE: &str = "bstore-space-reserve";

/// The reserve's size when none is given: room for a read-write open and for a purge to
/// rewrite about this much of one column's table files.
pub const DEFAULT_RESERVE_BYTES: u64 = 64 << 20;

/// Bytes written per call while filling the reserve.
const CHUNK: usize = 1 << 20;

/// What [`SpaceReserve::fill`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReserveFill {
    /// The reserve was written (or already was at least the size asked for).
    Reserved,
    /// The disk had no room for it: nothing is left of the attempt.
    NoRoom,
}

/// The reserve file of one ledger directory.
#[derive(Debug, Clone)]
pub struct SpaceReserve {
    path: PathBuf,
}

fn io_error(action: &'static str, path: &Path, source: std::io::Error) -> LedgerError {
    LedgerError::Io {
        action,
        path: path.to_path_buf(),
        source,
    }
}

/// Whether `e` says the disk (or the user's quota) is full.
pub fn is_out_of_space(e: &std::io::Error) -> bool {
    matches!(e.kind(), ErrorKind::StorageFull | ErrorKind::QuotaExceeded)
}

impl SpaceReserve {
    /// The reserve of the ledger at `ledger` (the file need not exist).
    pub fn of(ledger: &Path) -> Self {
        Self {
            path: ledger.join(RESERVE_FILE),
        }
    }

    /// The reserve file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the reserve's directory is on the same file system as `db` (a database
    /// directory linked to another disk gets no room from the reserve).
    pub fn shares_disk_with(&self, db: &Path) -> Result<bool> {
        let dir = self.path.parent().unwrap_or(Path::new("."));
        let device = |p: &Path| {
            std::fs::metadata(p)
                .map(|m| m.dev())
                .map_err(|e| io_error("cannot read", p, e))
        };
        Ok(device(dir)? == device(db)?)
    }

    /// The reserve's length in bytes; 0 when there is none.
    pub fn len(&self) -> Result<u64> {
        match std::fs::symlink_metadata(&self.path) {
            Ok(meta) => Ok(meta.len()),
            Err(e) if e.kind() == ErrorKind::NotFound => Ok(0),
            Err(e) => Err(io_error("cannot read", &self.path, e)),
        }
    }

    /// Whether there is no reserve.
    pub fn is_empty(&self) -> Result<bool> {
        Ok(self.len()? == 0)
    }

    /// Deletes the reserve, giving its space to the file system; the bytes it held.
    pub fn release(&self) -> Result<u64> {
        let len = self.len()?;
        match std::fs::remove_file(&self.path) {
            Ok(()) => Ok(len),
            Err(e) if e.kind() == ErrorKind::NotFound => Ok(0),
            Err(e) => Err(io_error("cannot delete", &self.path, e)),
        }
    }

    /// Makes the reserve `bytes` long (a longer one is left as it is). Needs the ledger
    /// directory to exist. On a disk without room for it the partial file is deleted and
    /// `NoRoom` returned; any other failure is an error naming the file.
    pub fn fill(&self, bytes: u64) -> Result<ReserveFill> {
        if bytes == 0 || self.len()? >= bytes {
            return Ok(ReserveFill::Reserved);
        }
        match self.write(bytes) {
            Ok(()) => Ok(ReserveFill::Reserved),
            Err(e) => {
                // Part of a reserve holds space without the guarantee: never leave one.
                let _ = std::fs::remove_file(&self.path);
                if is_out_of_space(&e) {
                    Ok(ReserveFill::NoRoom)
                } else {
                    Err(io_error("cannot write", &self.path, e))
                }
            }
        }
    }

    fn write(&self, bytes: u64) -> std::io::Result<()> {
        let mut file = File::create(&self.path)?;
        let mut chunk = vec![0u8; CHUNK];
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut written = 0u64;
        while written < bytes {
            // xorshift64: bytes no file system compresses, cheap to make.
            for word in chunk.chunks_exact_mut(8) {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                word.copy_from_slice(&state.to_le_bytes());
            }
            let n = usize::try_from(bytes - written).map_or(CHUNK, |left| left.min(CHUNK));
            file.write_all(&chunk[..n])?;
            written += n as u64;
        }
        // Linux file systems set the blocks of a write aside when the write returns (a full
        // disk fails it with ENOSPC there, delayed allocation included), so no sync is
        // needed for the room to be held; a reserve lost in a crash is simply made again.
        Ok(())
    }
}

/// The bytes `path` takes on disk (allocated blocks, as `du` counts them): a file's own,
/// or a directory's with everything below it. Symbolic links are not followed.
pub fn bytes_on_disk(path: &Path) -> Result<u64> {
    let meta = std::fs::symlink_metadata(path).map_err(|e| io_error("cannot read", path, e))?;
    let mut total = meta.blocks() * 512;
    if meta.is_dir() {
        let entries = std::fs::read_dir(path).map_err(|e| io_error("cannot list", path, e))?;
        for entry in entries {
            let entry = entry.map_err(|e| io_error("cannot list", path, e))?;
            match bytes_on_disk(&entry.path()) {
                Ok(bytes) => total += bytes,
                // A file deleted while the directory is walked (a RocksDB log retired by a
                // background job) takes no space any more.
                Err(LedgerError::Io { source, .. }) if source.kind() == ErrorKind::NotFound => {}
                Err(e) => return Err(e),
            }
        }
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_release_and_count() {
        let dir = tempfile::tempdir().expect("tempdir");
        let reserve = SpaceReserve::of(dir.path());
        assert_eq!(reserve.len().expect("len"), 0);
        assert_eq!(reserve.fill(3 << 20).expect("fill"), ReserveFill::Reserved);
        assert_eq!(reserve.len().expect("len"), 3 << 20);
        let on_disk = bytes_on_disk(reserve.path()).expect("du");
        assert!(on_disk >= 3 << 20, "allocated: {on_disk}");
        assert!(bytes_on_disk(dir.path()).expect("du") >= on_disk);
        assert!(reserve.shares_disk_with(dir.path()).expect("same disk"));
        // A smaller request leaves the reserve as it is.
        reserve.fill(1 << 20).expect("fill");
        assert_eq!(reserve.len().expect("len"), 3 << 20);
        assert_eq!(reserve.release().expect("release"), 3 << 20);
        assert_eq!(reserve.len().expect("len"), 0);
        assert_eq!(reserve.release().expect("again"), 0);
    }

    #[test]
    fn a_missing_ledger_directory_is_an_error_naming_the_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let reserve = SpaceReserve::of(&dir.path().join("missing"));
        let err = reserve.fill(1 << 20).expect_err("no directory");
        assert!(err.to_string().contains(RESERVE_FILE), "{err}");
    }
}
