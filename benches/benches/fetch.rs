//! The store-backed fetch of a full slot, against its floor, for 64, 1,000 and 4,000 data
//! shreds per slot of generated mainnet-like content (warm block cache). One criterion group
//! per size, so every path and the floor are measured in the same run:
//!
//! - `floor`: the same single multi-get plus one copy of every shred's data bytes, with no
//!   checks, deshred rules or decoding (`bstore_testkit::floor::copy_slot_data_unchecked`);
//! - `views`: `fetch_slot_views` into a reused `FetchBuffer` (zero-copy entries);
//! - `serial`: `get_slot_entries_with_shred_info` (owned entries, caller's thread);
//! - `pool_N` (feature `fetch-pool`): `get_slot_entries_pooled` with N = 1, 2, 4 workers;
//! - `incremental_per_call`: replay style, one call per newly completed data set
//!   (`fetch_data_block_views`; Throughput = one data set's bytes on average).
//!
//! Throughput is the slot's data bytes, so results read as MB/s.

use std::hint::black_box;

use bstore_ledger::fetch::{AllowDead, EntryFetch, FetchBuffer, ViewFetch};
use bstore_ledger::store::{AccessMode, Blockstore};
use bstore_ledger::synth::{SlotGenerator, SlotSpec};
use bstore_ledger::{Hash, Slot};
use bstore_testkit::floor::copy_slot_data_unchecked;
use criterion::{Criterion, Throughput, criterion_main};

/// The allocator the `bstore` binary uses (owned decode allocates per transaction).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

struct Ledger {
    _dir: tempfile::TempDir,
    store: Blockstore,
    slot: Slot,
    data_bytes: u64,
    data_sets: Vec<std::ops::Range<u32>>,
}

fn ledger(shreds_per_slot: u32) -> Ledger {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Blockstore::open(dir.path(), AccessMode::ReadWrite).expect("open");
    let mut generator = SlotGenerator::new(7, 1);
    let spec = SlotSpec {
        data_shreds: shreds_per_slot,
        ..SlotSpec::default()
    };
    let slot = generator
        .generate(Slot(1), Slot(0), Hash::default(), spec)
        .expect("generate");
    store.insert_shreds(&slot.data_shreds).expect("insert");
    let mut warm = Vec::new();
    copy_slot_data_unchecked(&store, Slot(1), 0, &mut warm).expect("warm the block cache");
    Ledger {
        _dir: dir,
        store,
        slot: Slot(1),
        data_bytes: slot.data_bytes,
        data_sets: slot.data_sets,
    }
}

fn bench_fetch(c: &mut Criterion) {
    for shreds in [64u32, 1_000, 4_000] {
        let l = ledger(shreds);
        let mut group = c.benchmark_group(format!("fetch/{shreds}_shreds"));
        group.throughput(Throughput::Bytes(l.data_bytes));
        if shreds >= 4_000 {
            group.sample_size(30);
        }
        group.bench_function("floor", |b| {
            let mut out = Vec::new();
            b.iter(|| {
                black_box(copy_slot_data_unchecked(&l.store, l.slot, 0, &mut out).expect("floor"))
            })
        });
        group.bench_function("views", |b| {
            let mut buf = FetchBuffer::new();
            b.iter(|| {
                let v = l
                    .store
                    .fetch_slot_views(l.slot, 0, AllowDead::No, &mut buf)
                    .expect("views");
                black_box(v.num_entries())
            })
        });
        group.bench_function("serial", |b| {
            b.iter(|| {
                black_box(
                    l.store
                        .get_slot_entries_with_shred_info(l.slot, 0, AllowDead::No)
                        .expect("serial"),
                )
            })
        });
        #[cfg(feature = "fetch-pool")]
        for threads in [1usize, 2, 4] {
            let pool = bstore_ledger::fetch::FetchPool::new(
                std::num::NonZeroUsize::new(threads).expect("non-zero"),
                "bench-pool",
            )
            .expect("pool");
            group.bench_with_input(
                criterion::BenchmarkId::new("pool", threads),
                &pool,
                |b, pool| {
                    b.iter(|| {
                        black_box(
                            l.store
                                .get_slot_entries_pooled(l.slot, 0, AllowDead::No, pool)
                                .expect("pool"),
                        )
                    })
                },
            );
        }
        // Replay style: each call returns one newly completed data set.
        let per_set = l.data_bytes / l.data_sets.len().max(1) as u64;
        group.throughput(Throughput::Bytes(per_set));
        group.bench_function("incremental_per_call", |b| {
            let mut buf = FetchBuffer::new();
            let mut sets = l.data_sets.iter().cycle();
            b.iter(|| {
                let range = sets.next().expect("cycle").clone();
                let v = l
                    .store
                    .fetch_data_block_views(l.slot, range, &mut buf)
                    .expect("one set");
                black_box(v.num_entries())
            })
        });
        group.finish();
    }
}

/// The benchmark group `criterion_main!` runs.
#[allow(missing_docs)] // `criterion_group!` emits an undocumented `pub fn benches`.
pub mod group {
    criterion::criterion_group!(benches, super::bench_fetch);
}
criterion_main!(group::benches);
