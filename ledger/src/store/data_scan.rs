//! The read path's switch on `Blockstore` and its range scan of a slot's data shreds
//! (`read_path.rs` says when each path is used); the multi-get is
//! `Blockstore::multi_get_data_shreds` (`blockstore.rs`).

use std::ops::Range;

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

    /// The data shreds `start..end` of `slot` with ONE bounded forward scan, each payload
    /// copied into `arena` (cleared first): element `i` is the byte range of index
    /// `start + i`, `None` when not stored. The caller bounds the range.
    pub fn scan_data_shreds(
        &self,
        slot: Slot,
        start: u32,
        end: u32,
        arena: &mut Vec<u8>,
    ) -> Result<Vec<Option<Range<usize>>>> {
        arena.clear();
        let len = end.saturating_sub(start) as usize;
        let mut spans: Vec<Option<Range<usize>>> = vec![None; len];
        let lower = DataShred::encode_key((slot, ShredIndex(start)));
        let upper = DataShred::encode_key((slot, ShredIndex(end)));
        let mut cursor =
            self.engine
                .kv()
                .cursor(DataShred::NAME, &lower, Some(&upper), Direction::Forward);
        while let Some(row) = cursor.advance() {
            let (key, value) = row?;
            let (key_slot, index) = DataShred::decode_key(key)?;
            // The bounds keep every key inside the slot's range; anything else is an
            // engine fault, reported rather than indexed.
            let offset = index.0.checked_sub(start).map(|o| o as usize);
            let Some(cell) = offset
                .filter(|_| key_slot == slot)
                .and_then(|o| spans.get_mut(o))
            else {
                return Err(LedgerError::CorruptKey {
                    column: DataShred::NAME,
                    key: format!(
                        "({key_slot}, {index}) outside the scan of ({slot}, {start}..{end})"
                    ),
                    reason: "a range scan returned a key outside its bounds".to_string(),
                });
            };
            let begin = arena.len();
            arena.extend_from_slice(value);
            *cell = Some(begin..arena.len());
        }
        Ok(spans)
    }
}
