//! Erasure recovery of one 32:32 Merkle FEC set made by the crate's shredder (chained,
//! proof size 6, 987-byte shards), against the Reed–Solomon crate alone on the same shards.
//!
//! - `recovery/ours_all_data_lost`: `recover_fec_set` given only the 32 code shreds
//!   (rebuilds 32 data shreds: root checks of 32 shreds, decode, header checks, tree, proofs);
//! - `recovery/crate_all_data_lost`: `ReedSolomon::reconstruct` of the same 32 shards,
//!   present shards copied in as recovery does (the decoder's floor);
//! - `recovery/ours_half_lost` / `crate_half_lost`: 16 data + 16 code shreds lost.
//!
//! Throughput is the bytes of the 32 data shards of the set (32 × 987).

use std::hint::black_box;

use bstore_ledger::Slot;
use bstore_ledger::shred::{
    BatchOptions, LastInSlot, Resign, SHREDS_PER_FEC_SET, ShredRef, Shredder, erasure_shard,
    recover_fec_set,
};
use criterion::{Criterion, Throughput, criterion_main};
use ed25519_dalek::SigningKey;
use reed_solomon_erasure::galois_8::ReedSolomon;

/// One full 32:32 set: 64 payloads, data first.
fn one_set() -> Vec<Vec<u8>> {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let data: Vec<u8> = (0..30_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    let key = SigningKey::from_bytes(&[3u8; 32]);
    let mut shredder = Shredder::new(Slot(10), Slot(9), 1, key).expect("shredder");
    let opts = BatchOptions {
        last_in_slot: LastInSlot::No,
        reference_tick: 0,
        resign_last: Resign::No,
    };
    let batch = shredder.shred_batch_with_code(&data, opts).expect("shreds");
    assert_eq!(batch.data.len(), SHREDS_PER_FEC_SET);
    batch.data.into_iter().chain(batch.code).collect()
}

fn bench_case(c: &mut Criterion, name: &str, set: &[Vec<u8>], lost: &dyn Fn(usize) -> bool) {
    let n = SHREDS_PER_FEC_SET;
    let shreds: Vec<ShredRef<'_>> = set
        .iter()
        .map(|p| ShredRef::parse(p).expect("parses"))
        .collect();
    let kept: Vec<ShredRef<'_>> = shreds
        .iter()
        .enumerate()
        .filter(|(p, _)| !lost(*p))
        .map(|(_, s)| *s)
        .collect();
    // The erasure shard of every position (the data shard is payload[64..64 + len]).
    let shard_len = erasure_shard(&shreds[n]).expect("code shard").len();
    let shards: Vec<&[u8]> = shreds
        .iter()
        .map(|s| {
            if s.is_data() {
                &s.payload()[64..64 + shard_len]
            } else {
                erasure_shard(s).expect("code shard")
            }
        })
        .collect();
    let rs = ReedSolomon::new(n, n).expect("32:32");

    let mut group = c.benchmark_group("recovery");
    group.throughput(Throughput::Bytes((n * shard_len) as u64));
    group.bench_function(format!("ours_{name}"), |b| {
        b.iter(|| black_box(recover_fec_set(black_box(&kept)).expect("recovers")))
    });
    group.bench_function(format!("crate_{name}"), |b| {
        b.iter(|| {
            let mut work: Vec<Option<Vec<u8>>> = shards
                .iter()
                .enumerate()
                .map(|(p, s)| (!lost(p)).then(|| s.to_vec()))
                .collect();
            rs.reconstruct(&mut work).expect("reconstructs");
            black_box(work)
        })
    });
    group.finish();
}

fn bench_recovery(c: &mut Criterion) {
    let set = one_set();
    let n = SHREDS_PER_FEC_SET;
    bench_case(c, "all_data_lost", &set, &|p| p < n);
    bench_case(c, "half_lost", &set, &|p| p % 2 == 1);
}

/// The benchmark group `criterion_main!` runs.
#[allow(missing_docs)] // `criterion_group!` emits an undocumented `pub fn benches`.
pub mod group {
    criterion::criterion_group!(benches, super::bench_recovery);
}
criterion_main!(group::benches);
