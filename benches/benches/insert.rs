//! The cost of insert's checks, measured against insert without them in the same run:
//! the 320 real testnet shreds into a fresh RocksDB ledger per iteration (one insert call,
//! one write batch), with
//!
//! - `skip` (baseline): no root or signature check (`MerkleCheck::Skip`);
//! - `merkle` (the default): every Merkle shred checked against its FEC set's root;
//! - `merkle+leader`: also the leader's signature, once per set (`ledger ingest --leader`).
//!
//! Opening the ledger is setup, not timed. Read the ratios `merkle / skip` and
//! `merkle+leader / skip` from one run (BENCHMARKS.md).
//!
//! `merkle_roots_testnet_slot` isolates the root computation of the check: the 320 shreds'
//! roots one by one (`no_memo`, the baseline: leaf and six node hashes each) and with one
//! `NodeMemo` shared by the pass, as an insert call shares it (`memo`). Both passes must
//! give the same roots.

mod common;

use bstore_ledger::Pubkey;
use bstore_ledger::shred::{NodeMemo, ShredRef, merkle_root, merkle_root_with};
use bstore_ledger::store::{AccessMode, Blockstore, InsertOptions, LeaderCheck, MerkleCheck};
use criterion::{BatchSize, Criterion, Throughput, criterion_main};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn bench_insert(c: &mut Criterion) {
    let packets = common::testnet_shreds();
    let leader: Pubkey = "4Nh8T1d4YBZHEuQNRmFbLXPT5HbWicqPxGeKZ5SdAr4i"
        .parse()
        .expect("leader key");
    let cases = [
        ("skip", MerkleCheck::Skip, LeaderCheck::Skip),
        ("merkle", MerkleCheck::Verify, LeaderCheck::Skip),
        (
            "merkle+leader",
            MerkleCheck::Verify,
            LeaderCheck::Verify(leader),
        ),
    ];
    let mut group = c.benchmark_group("insert_testnet_slot");
    group.throughput(Throughput::Elements(packets.len() as u64));
    group.sample_size(30);
    for (name, merkle, leader) in cases {
        let options = InsertOptions {
            leader,
            merkle,
            ..InsertOptions::default()
        };
        group.bench_function(name, |b| {
            b.iter_batched(
                || {
                    let dir = tempfile::tempdir().expect("tempdir");
                    let store = Blockstore::open(dir.path(), AccessMode::ReadWrite).expect("open");
                    (dir, store)
                },
                |(dir, store)| {
                    let out = store.insert_shreds_with(&packets, options).expect("insert");
                    assert_eq!(out.inserted, 320);
                    (dir, store)
                },
                BatchSize::PerIteration,
            );
        });
    }
    group.finish();
}

fn bench_merkle_roots(c: &mut Criterion) {
    let packets = common::testnet_shreds();
    let shreds: Vec<ShredRef<'_>> = packets
        .iter()
        .map(|p| ShredRef::parse(p).expect("testnet shred parses"))
        .collect();
    let plain: Vec<_> = shreds
        .iter()
        .map(|s| merkle_root(s).expect("root"))
        .collect();
    let mut memo = NodeMemo::for_shreds(shreds.len());
    let shared: Vec<_> = shreds
        .iter()
        .map(|s| merkle_root_with(s, &mut memo).expect("root"))
        .collect();
    assert_eq!(plain, shared, "the memo changes no root");
    let mut group = c.benchmark_group("merkle_roots_testnet_slot");
    group.throughput(Throughput::Elements(shreds.len() as u64));
    group.bench_function("no_memo", |b| {
        b.iter(|| {
            shreds
                .iter()
                .map(|s| merkle_root(s).expect("root"))
                .fold(0u8, |acc, r| acc ^ r.0[0])
        });
    });
    group.bench_function("memo", |b| {
        b.iter(|| {
            // A fresh memo per pass, as each insert call makes its own.
            let mut memo = NodeMemo::for_shreds(shreds.len());
            shreds
                .iter()
                .map(|s| merkle_root_with(s, &mut memo).expect("root"))
                .fold(0u8, |acc, r| acc ^ r.0[0])
        });
    });
    group.finish();
}

/// The benchmark group `criterion_main!` runs.
#[allow(missing_docs)] // `criterion_group!` emits an undocumented `pub fn benches`.
pub mod group {
    criterion::criterion_group!(benches, super::bench_insert, super::bench_merkle_roots);
}
criterion_main!(group::benches);
