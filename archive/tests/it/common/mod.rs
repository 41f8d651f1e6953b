//! Shared by the archive's scenario tests: an in-memory ledger of generated rooted slots
//! with history rows, and a runtime to drive the async API.

#![allow(dead_code)]

use bstore_archive::{Archive, ArchiveOptions, ArchiveSummary, Layout};
use bstore_ledger::fetch::FetchBuffer;
use bstore_ledger::history::BlockRecord;
use bstore_ledger::store::{Blockstore, MemEngine};
use bstore_ledger::synth::history::write_history;
use bstore_ledger::synth::{SlotGenerator, SlotSpec};
use bstore_ledger::{Hash, Slot};

/// Runs a future to completion on a small runtime.
pub(crate) fn run<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime")
        .block_on(f)
}

/// Slots `first..first+n` (each the child of the previous), all rooted, with a status per
/// transaction, rewards, block time and height.
pub(crate) fn ledger(first: u64, n: u64) -> Blockstore<MemEngine> {
    let store = Blockstore::in_memory();
    let mut generator = SlotGenerator::new(9, 1);
    let spec = SlotSpec {
        data_shreds: 64,
        ..SlotSpec::default()
    };
    let mut hash = Hash::default();
    for s in first..first + n {
        let g = generator
            .generate(Slot(s), Slot(s - 1), hash, spec)
            .expect("generates");
        store.insert_shreds(&g.data_shreds).expect("inserts");
        hash = g.blockhash;
        // Agave-encoded statuses, memos, address signatures and rewards.
        write_history(&store, Slot(s), &g.entries).expect("history");
        store
            .set_block_time(Slot(s), 1_700_000_000 + s as i64)
            .expect("time");
        store.set_block_height(Slot(s), s - first).expect("height");
        store.set_roots([Slot(s)]).expect("root");
    }
    store
}

/// The ledger's record of `slot`.
pub(crate) fn record(store: &Blockstore<MemEngine>, slot: Slot) -> BlockRecord {
    store
        .block_record(slot, &mut FetchBuffer::new())
        .expect("record")
}

/// Every first signature of `record`, with its transaction index.
pub(crate) fn signatures(record: &BlockRecord) -> Vec<([u8; 64], u32)> {
    bstore_archive::first_signatures(record)
        .expect("entry sets parse")
        .into_iter()
        .zip(0u32..)
        .map(|(sig, index)| (sig.expect("signed"), index))
        .collect()
}

/// Archives with ranges of `range_slots` and the given bounds.
pub(crate) fn archive(
    store: &Blockstore<MemEngine>,
    archive: &Archive,
    range_slots: u64,
    first: Option<u64>,
    last: Option<u64>,
) -> ArchiveSummary {
    let opts = ArchiveOptions {
        first: first.map(Slot),
        last: last.map(Slot),
        concurrency: 4,
        new_layout: Layout::new(range_slots).expect("layout"),
    };
    run(bstore_archive::archive(store, archive, &opts, &mut |_| {})).expect("archives")
}
