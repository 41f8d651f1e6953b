//! The read path's switch on `Blockstore` and its range scan of a slot's data shreds
//! (`read_path.rs` says when each path is used); the multi-get is
//! `Blockstore::multi_get_data_shreds` (`blockstore.rs`).

use super::Column;
use super::blockstore::Blockstore;
use super::columns::DataShred;
use super::kv::{Direction, KvCursor, KvEngine};
use super::read_path::ReadPath;
use crate::error::{LedgerError, Result};
use crate::types::{ShredIndex, Slot};

impl<E: KvEngine> Blockstore<E> {
    /// How fetches read data shreds.
    pub fn read_path(&self) -> ReadPath {
        self.read_path.get()
    }

    /// Chooses how fetches read data shreds (benchmarks compare the two).
    pub fn set_read_path(&self, path: ReadPath) {
        self.read_path.set(path);
    }
}

/// One forward scan over `slot`'s data shreds `start..end`, read in consecutive pieces
/// ([`Self::visit_until`]) through a single cursor: RocksDB builds and positions its merged
/// iterator once, however many pieces the caller takes (a lookup that stops at the piece it
/// needs pays for no other).
pub(crate) struct DataShredScan<'a, E: KvEngine + 'a> {
    cursor: E::Cursor<'a>,
    slot: Slot,
    end: u32,
    /// The first index the next piece covers; `next <= end`.
    next: u32,
    /// A row the previous piece read past its end (a shred missing at that piece's end made
    /// the scan step into the next piece): index and payload.
    carried: Option<(u32, Vec<u8>)>,
}

impl<E: KvEngine> Blockstore<E> {
    /// A [`DataShredScan`] of `slot`'s data shreds `start..end`; nothing is read yet.
    pub(crate) fn data_shred_scan(&self, slot: Slot, start: u32, end: u32) -> DataShredScan<'_, E> {
        let lower = DataShred::encode_key((slot, ShredIndex(start)));
        let upper = DataShred::encode_key((slot, ShredIndex(end)));
        DataShredScan {
            cursor: self.engine.kv().cursor(
                DataShred::NAME,
                &lower,
                Some(&upper),
                Direction::Forward,
            ),
            slot,
            end,
            next: start,
            carried: None,
        }
    }
}

impl<E: KvEngine> DataShredScan<'_, E> {
    /// The next piece, up to `until` (exclusive; at most the scan's end), without a copy:
    /// `visit` sees each stored row of the piece in index order, its payload borrowed from
    /// the cursor (valid for that call only). A missing index is simply not visited. The
    /// first error, the cursor's or `visit`'s, ends the piece and is returned; the scan is
    /// not to be read further after one.
    pub(crate) fn visit_until(
        &mut self,
        until: u32,
        mut visit: impl FnMut(u32, &[u8]) -> Result<()>,
    ) -> Result<()> {
        let (first, until) = (self.next, until.min(self.end).max(self.next));
        self.next = until;
        match self.carried.take() {
            Some((index, value)) if index < until => visit(index, &value)?,
            Some(later) => {
                self.carried = Some(later);
                return Ok(());
            }
            None => {}
        }
        if until == first {
            return Ok(());
        }
        while let Some(row) = self.cursor.advance() {
            let (key, value) = row?;
            let (key_slot, index) = DataShred::decode_key(key)?;
            // The bounds keep every key inside the slot's range, and the cursor only moves
            // forward; anything else is an engine fault, reported rather than indexed.
            if key_slot != self.slot || index.0 < first || index.0 >= self.end {
                return Err(LedgerError::CorruptKey {
                    column: DataShred::NAME,
                    key: format!(
                        "({key_slot}, {index}) outside the scan of ({}, {first}..{})",
                        self.slot, self.end
                    ),
                    reason: "a range scan returned a key outside its bounds".to_string(),
                });
            }
            if index.0 >= until {
                self.carried = Some((index.0, value.to_vec()));
                break;
            }
            visit(index.0, value)?;
            if index.0 + 1 == until {
                break;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "data_scan_tests.rs"]
mod tests;
