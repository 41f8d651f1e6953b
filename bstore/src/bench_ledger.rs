//! `bstore bench fetch --ledger DIR`: the slots of an existing ledger to time, opened without
//! writing (`ledger_tool::open`: a RocksDB secondary by default, so it runs beside a live
//! validator).

use std::collections::VecDeque;
use std::path::Path;

use bstore_ledger::Slot;
use bstore_ledger::fetch::{AllowDead, FetchBuffer, ViewFetch};
use bstore_ledger::store::Blockstore;

use crate::ledger_tool::{Access, ReadLedger, open};

/// The ledger a fetch bench times: built for the run, or an existing one opened to read.
pub(crate) enum BenchStore {
    Built(Blockstore),
    Existing(ReadLedger),
}

impl BenchStore {
    pub(crate) fn store(&self) -> &Blockstore {
        match self {
            Self::Built(store) => store,
            Self::Existing(read) => &read.store,
        }
    }
}

/// Slots to time, each with its data bytes.
pub(crate) type BenchSlots = Vec<(Slot, u64)>;

/// Opens `dir` and returns the newest `n` full, not dead slots with their data bytes.
pub(crate) fn open_existing(
    dir: &Path,
    access: Access,
    n: u64,
) -> Result<(BenchStore, BenchSlots), Box<dyn std::error::Error>> {
    let read = open(dir, access, Default::default())?;
    let store = &read.store;
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
    Ok((BenchStore::Existing(read), slots))
}
