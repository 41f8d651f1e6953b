//! Shred parsing, Merkle roots and the shredder.
//!
//! - `shred_parse/parse`: `ShredRef::parse` over the 320 real testnet shreds (shreds/s);
//! - `shred_parse/merkle_root`: one Merkle root per shred (leaf hash + 6 node hashes);
//! - `shred_parse/verify_signature`: root + Ed25519 verification per shred;
//! - `shredder/shred_1mb`: a deterministic 1 MiB data set into signed 32:32 FEC sets,
//!   including Reed–Solomon code shreds (MB/s of input).

mod common;

use std::hint::black_box;

use bstore_ledger::Pubkey;
use bstore_ledger::Slot;
use bstore_ledger::shred::{
    BatchOptions, LastInSlot, Resign, ShredRef, Shredder, merkle_root, verify_signature,
};
use criterion::{Criterion, Throughput, criterion_main};
use ed25519_dalek::SigningKey;

fn bench_parse(c: &mut Criterion) {
    let packets = common::testnet_shreds();
    let leader: Pubkey = "4Nh8T1d4YBZHEuQNRmFbLXPT5HbWicqPxGeKZ5SdAr4i"
        .parse()
        .expect("leader key");
    let mut group = c.benchmark_group("shred_parse");
    group.throughput(Throughput::Elements(packets.len() as u64));
    group.bench_function("parse", |b| {
        b.iter(|| {
            for p in &packets {
                black_box(ShredRef::parse(black_box(p)).expect("valid"));
            }
        })
    });
    let shreds: Vec<ShredRef<'_>> = packets
        .iter()
        .map(|p| ShredRef::parse(p).expect("valid"))
        .collect();
    group.bench_function("merkle_root", |b| {
        b.iter(|| {
            for s in &shreds {
                black_box(merkle_root(black_box(s)).expect("root"));
            }
        })
    });
    group.sample_size(20);
    group.bench_function("verify_signature", |b| {
        b.iter(|| {
            for s in &shreds {
                verify_signature(black_box(s), &leader).expect("signature");
            }
        })
    });
    group.finish();
}

/// Deterministic, incompressible-looking 1 MiB (xorshift64).
fn one_mib() -> Vec<u8> {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    (0..1 << 20)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

fn bench_shredder(c: &mut Criterion) {
    let data = one_mib();
    let key = SigningKey::from_bytes(&[3u8; 32]);
    let opts = BatchOptions {
        last_in_slot: LastInSlot::Yes,
        reference_tick: 12,
        resign_last: Resign::Yes,
    };
    let mut group = c.benchmark_group("shredder");
    group.throughput(Throughput::Bytes(data.len() as u64));
    group.sample_size(20);
    group.bench_function("shred_1mb", |b| {
        b.iter(|| {
            let mut shredder =
                Shredder::new(Slot(100), Slot(99), 1, key.clone()).expect("shredder");
            black_box(
                shredder
                    .shred_batch(black_box(&data), opts)
                    .expect("shreds"),
            )
        })
    });
    group.finish();
}

/// The benchmark group `criterion_main!` runs.
#[allow(missing_docs)] // `criterion_group!` emits an undocumented `pub fn benches`.
pub mod group {
    criterion::criterion_group!(benches, super::bench_parse, super::bench_shredder);
}
criterion_main!(group::benches);
