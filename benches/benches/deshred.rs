//! Deshredding: the 9 completed data sets of the real testnet slot 417955322 (320 shreds,
//! ~300 KB of data) into entry bytes. MB/s of data produced.
//!
//! - `deshred/ours`: `check_range_into` + `deshred_into`: shreds parsed and checked once,
//!   data copied once into a buffer reserved up front from the `size` fields;
//! - `deshred/copy_per_shred` (baseline, the seed design): every payload first copied out
//!   into its own `Vec` (as a non-pinned multi-get does), then the data concatenated into a
//!   growing buffer;
//! - `deshred/memcpy_floor`: only the data copy, no parsing or checks.

use std::hint::black_box;
use std::ops::Range;

use bstore_ledger::fetch::{deshred_into, group_by_slot};
use bstore_ledger::shred::ShredRef;
use criterion::{Criterion, Throughput, criterion_main};

mod common;

fn bench_deshred(c: &mut Criterion) {
    let packets = common::testnet_shreds();
    let shreds: Vec<ShredRef<'_>> = packets
        .iter()
        .map(|p| ShredRef::parse(p).expect("valid"))
        .collect();
    let slots = group_by_slot(shreds.iter().copied());
    let slot = slots.values().next().expect("one slot");
    let sets: Vec<Range<u32>> = slot.data_sets();
    // Stored payloads in index order, as a multi-get would return them.
    let payloads: Vec<&[u8]> = (0..slot.len() as u32)
        .map(|i| slot.get(i).expect("full slot").payload())
        .collect();
    let total: usize = sets
        .iter()
        .map(|r| slot.deshred(r).expect("deshreds").len())
        .sum();
    let id = slot.slot();

    let mut group = c.benchmark_group("deshred");
    group.throughput(Throughput::Bytes(total as u64));
    group.bench_function("ours", |b| {
        let mut out = Vec::new();
        b.iter(|| {
            out.clear();
            for r in &sets {
                let range = payloads[r.start as usize..r.end as usize].iter().copied();
                deshred_into(id, r, range, &mut out).expect("deshreds");
            }
            black_box(out.len())
        })
    });
    group.bench_function("copy_per_shred", |b| {
        b.iter(|| {
            let mut sets_out = Vec::with_capacity(sets.len());
            for r in &sets {
                let owned: Vec<Vec<u8>> = payloads[r.start as usize..r.end as usize]
                    .iter()
                    .map(|p| p.to_vec())
                    .collect();
                let mut out = Vec::new();
                for p in &owned {
                    let s = ShredRef::parse(p).expect("valid");
                    out.extend_from_slice(s.data());
                }
                sets_out.push(out);
            }
            black_box(sets_out)
        })
    });
    group.bench_function("memcpy_floor", |b| {
        let data: Vec<&[u8]> = shreds.iter().map(|s| s.data()).collect();
        let mut out = Vec::with_capacity(total);
        b.iter(|| {
            out.clear();
            for d in &data {
                out.extend_from_slice(d);
            }
            black_box(out.len())
        })
    });
    group.finish();
}

/// The benchmark group `criterion_main!` runs.
#[allow(missing_docs)] // `criterion_group!` emits an undocumented `pub fn benches`.
pub mod group {
    criterion::criterion_group!(benches, super::bench_deshred);
}
criterion_main!(group::benches);
