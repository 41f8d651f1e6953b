//! Reading consecutive blocks whole (what `getBlock` reads, `BlockReader::block`), with the
//! transaction memo (the default) against the same reads with it off, in the same run, on
//! real blocks: slots 5–25 of `fixtures/agave-live`, which a live Agave 4.4.0 validator
//! produced (192 data shreds each, mostly padding, as a test validator's blocks are).
//!
//! A block's previous blockhash is its parent's last entry hash. With the memo, a parent
//! read whole before gives it from memory; without, each read also reads the parent's last
//! data set. One group, so the ratios read off the report:
//!
//! - `again_memo` / `again_no_memo`: the 21 blocks read in order, every iteration (blocks
//!   asked for again, as a client polling recent blocks does);
//! - `first_memo`: the same reads with the memo emptied before each pass, so every block
//!   is a first read that records its transactions and blockhash (a follower reading each
//!   new block once, in order); against `again_no_memo` it is what recording costs net.

use std::path::Path;

use bstore_ledger::Slot;
use bstore_ledger::fetch::{BlockReader, FetchBuffer, SlotRead};
use bstore_ledger::store::{AccessMode, Blockstore, TX_MEMO_BUDGET};
use criterion::{Criterion, criterion_main};

mod common;

/// The allocator the `bstore` binary uses.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The fixture's consecutive blocks whose parents are kept (slot 4 is, 3 is a placeholder).
const SLOTS: std::ops::RangeInclusive<u64> = 5..=25;

/// Reads every block of [`SLOTS`] whole, in order; the entries read (so nothing is
/// optimized away).
fn read_all(store: &Blockstore, buf: &mut FetchBuffer) -> usize {
    let mut entries = 0;
    for slot in SLOTS {
        let block = store
            .block(Slot(slot), SlotRead::Unread, buf)
            .expect("read")
            .expect("a block");
        assert!(block.previous_blockhash.is_some(), "slot {slot}: a parent");
        entries += block.sets.iter().map(|s| s.entries.len()).sum::<usize>();
    }
    entries
}

fn open(ledger: &Path, memo: bool) -> Blockstore {
    let store = Blockstore::open(ledger, AccessMode::ReadOnly).expect("open");
    if !memo {
        store.set_transaction_memo_budget(0);
    }
    store
}

fn bench(c: &mut Criterion) {
    let (_dir, ledger) = bstore_testkit::fixtures::unpack_ledger("agave-live").expect("fixture");
    let with_memo = open(&ledger, true);
    let without = open(&ledger, false);
    let first = open(&ledger, true);
    let mut buf = FetchBuffer::new();
    // The same answers whichever way the parent's blockhash was found.
    let mut expected = Vec::new();
    for slot in SLOTS {
        for store in [&without, &with_memo, &with_memo] {
            let block = store
                .block(Slot(slot), SlotRead::Unread, &mut buf)
                .expect("read")
                .expect("a block");
            expected.push((slot, block.previous_blockhash, block.blockhash));
        }
    }
    for triple in expected.chunks(3) {
        assert!(triple.iter().all(|b| *b == triple[0]), "{triple:?}");
    }

    let mut group = c.benchmark_group("block_reads");
    group.bench_function("again_memo", |b| b.iter(|| read_all(&with_memo, &mut buf)));
    group.bench_function("again_no_memo", |b| b.iter(|| read_all(&without, &mut buf)));
    group.bench_function("first_memo", |b| {
        b.iter(|| {
            first.set_transaction_memo_budget(0);
            first.set_transaction_memo_budget(TX_MEMO_BUDGET);
            read_all(&first, &mut buf)
        })
    });
    group.finish();
}

/// The benchmark group `criterion_main!` runs.
#[allow(missing_docs)] // `criterion_group!` emits an undocumented `pub fn benches`.
pub mod group {
    criterion::criterion_group!(benches, super::bench);
}
criterion_main!(group::benches);
