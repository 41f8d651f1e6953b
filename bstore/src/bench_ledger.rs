//! `bstore bench fetch --ledger DIR`: the slots of an existing ledger to time, opened without
//! writing (a RocksDB secondary by default, so it runs beside a live validator).

use std::collections::VecDeque;
use std::path::Path;

use bstore_ledger::Slot;
use bstore_ledger::fetch::{AllowDead, FetchBuffer, ViewFetch};
use bstore_ledger::store::{AccessMode, Blockstore};
use clap::ValueEnum;

/// How an existing ledger is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Access {
    /// A RocksDB secondary in a temporary directory (follows a live writer).
    Secondary,
    /// Read-only (a snapshot as of the open).
    ReadOnly,
}

/// Opens `dir` and returns the newest `n` full, not dead slots with their data bytes.
pub fn open_existing(
    dir: &Path,
    access: Access,
    n: u64,
) -> Result<(Blockstore, Vec<(Slot, u64)>), Box<dyn std::error::Error>> {
    // The secondary's own files live in a temporary directory kept for the process's life.
    let mode = match access {
        Access::ReadOnly => AccessMode::ReadOnly,
        Access::Secondary => AccessMode::Secondary {
            secondary_path: tempfile::tempdir()?.keep(),
        },
    };
    let store = Blockstore::open(dir, mode)?;
    store.catch_up()?;
    let mut newest: VecDeque<Slot> = VecDeque::new();
    for meta in store.slot_metas(..) {
        let meta = meta?;
        if meta.is_full() && !store.is_dead(meta.slot)? {
            newest.push_back(meta.slot);
            if newest.len() as u64 > n.max(1) {
                newest.pop_front();
            }
        }
    }
    if newest.is_empty() {
        return Err(format!("no full slot in the ledger at {}", dir.display()).into());
    }
    let mut buf = FetchBuffer::new();
    let mut slots = Vec::with_capacity(newest.len());
    for slot in newest {
        let views = store.fetch_slot_views(slot, 0, AllowDead::No, &mut buf)?;
        let bytes: usize = views.sets.iter().map(|s| s.entries.bytes().len()).sum();
        slots.push((slot, bytes as u64));
    }
    Ok((store, slots))
}
