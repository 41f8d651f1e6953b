//! How a fetch reads a slot's data shreds (`docs/fetch-pipeline.md#read-path`): one bounded
//! forward range scan over the keys `(slot, first)..(slot, end)` (the default), or one
//! batched multi-get of every key. Both give, per index, the stored payload or nothing; the
//! deshred rules above them are the same.
//!
//! The scan wins on RocksDB because the keys of one slot are contiguous: it walks data blocks
//! in order, where the multi-get searches the index for every key (`bstore bench fetch`,
//! BENCHMARKS.md). The fetch checks each scanned row while the cursor rests on it and copies
//! only its data (the cursor's value is valid only until it moves); the multi-get pins values
//! without a copy and is checked after.
//!
//! The blockstore holds a `ReadPathCell`; the switch and the scan itself are methods of
//! `Blockstore` in `data_scan.rs`.

use std::sync::atomic::{AtomicU8, Ordering};

/// How a fetch reads data shreds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ReadPath {
    /// One bounded forward range scan over the slot's keys.
    #[default]
    Scan,
    /// One batched multi-get over sorted keys, values pinned.
    MultiGet,
}

/// The blockstore's read path, switchable while readers run.
#[derive(Debug, Default)]
pub(crate) struct ReadPathCell(AtomicU8);

impl ReadPathCell {
    pub(super) fn get(&self) -> ReadPath {
        match self.0.load(Ordering::Relaxed) {
            1 => ReadPath::MultiGet,
            _ => ReadPath::Scan,
        }
    }

    pub(super) fn set(&self, path: ReadPath) {
        let v = match path {
            ReadPath::Scan => 0,
            ReadPath::MultiGet => 1,
        };
        self.0.store(v, Ordering::Relaxed);
    }
}
