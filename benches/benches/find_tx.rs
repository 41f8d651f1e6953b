//! `getTransaction`'s lookup of one transaction in its block, on the real testnet slot
//! 417955322 (320 data shreds in 9 data sets, 417 transactions) in a RocksDB ledger (warm
//! block cache). One criterion group, every path measured in the same run, each iteration
//! looking up every 4th transaction of the block once (105 lookups, early and late in the
//! block alike):
//!
//! - `whole_block`: the baseline, what a lookup cost before partial reads (and what Agave's
//!   `getTransaction` does): fetch the whole block's views, then find the signature;
//! - `find_scan`: `Blockstore::find_block_transaction` on the scan read path (the default):
//!   one cursor walks the block a data set at a time and stops after the transaction's set;
//! - `find_multiget`: the same on the multi-get read path (groups of 1, 2, 4 ... data sets,
//!   one multi-get each);
//!
//! those three with the transaction memo off (`set_transaction_memo_budget(0)`: every lookup
//! walks its block as the first lookup in a block does), and
//!
//! - `find_scan_memo`: the scan path with the memo on (the default): after the first
//!   iteration every lookup reads only the data set its hint names, as repeated lookups in a
//!   recently read block do.

use std::hint::black_box;

use bstore_ledger::fetch::{FetchBuffer, fetch_block_views};
use bstore_ledger::shred::ShredRef;
use bstore_ledger::store::{
    AccessMode, Blockstore, InsertOptions, MerkleCheck, ReadPath, ShapeRules,
};
use criterion::{Criterion, criterion_main};

mod common;

/// The allocator the `bstore` binary uses.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn bench_find_tx(c: &mut Criterion) {
    let packets = common::testnet_shreds();
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Blockstore::open(dir.path(), AccessMode::ReadWrite).expect("open");
    // The slot predates Agave 4.x's fixed 32:32 sets.
    let options = InsertOptions {
        shape: ShapeRules::Legacy,
        merkle: MerkleCheck::Verify,
        ..Default::default()
    };
    store.insert_shreds_with(&packets, options).expect("insert");
    let slot = ShredRef::parse(&packets[0]).expect("parses").slot();
    let meta = store.meta(slot).expect("read").expect("a meta");
    let mut buf = FetchBuffer::new();
    let signatures: Vec<[u8; 64]> = {
        let views = fetch_block_views(&store, slot, &meta, &mut buf).expect("block");
        let all: Vec<[u8; 64]> = views
            .sets
            .iter()
            .flat_map(|s| s.entries.transactions())
            .filter_map(|tx| tx.first_signature().copied())
            .collect();
        all.into_iter().step_by(4).collect()
    };
    assert_eq!(signatures.len(), 105, "lookups");

    store.set_transaction_memo_budget(0);
    let mut group = c.benchmark_group("find_tx/testnet_slot");
    group.bench_function("whole_block", |b| {
        b.iter(|| {
            for signature in &signatures {
                let views = fetch_block_views(&store, slot, &meta, &mut buf).expect("block");
                let found = views
                    .sets
                    .iter()
                    .flat_map(|s| s.entries.transactions())
                    .position(|tx| tx.first_signature() == Some(signature));
                black_box(found.expect("found"));
            }
        })
    });
    for (name, path, memo) in [
        ("find_scan", ReadPath::Scan, 0),
        ("find_multiget", ReadPath::MultiGet, 0),
        ("find_scan_memo", ReadPath::Scan, 32 << 20),
    ] {
        group.bench_function(name, |b| {
            store.set_read_path(path);
            store.set_transaction_memo_budget(memo);
            b.iter(|| {
                for signature in &signatures {
                    let found = store
                        .find_block_transaction(slot, &meta, signature, &mut buf)
                        .expect("lookup");
                    black_box(found.expect("found").index);
                }
            })
        });
    }
    store.set_read_path(ReadPath::default());
    group.finish();
}

/// The benchmark group `criterion_main!` runs.
#[allow(missing_docs)] // `criterion_group!` emits an undocumented `pub fn benches`.
pub mod group {
    criterion::criterion_group!(benches, super::bench_find_tx);
}
criterion_main!(group::benches);
