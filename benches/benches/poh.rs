//! PoH speed: `next_hash` over one tick's worth of hashes (hashes/s), the signature Merkle
//! mixin of a 64-transaction entry, and `verify_poh` over the whole real testnet slot
//! 417955322 (103 entries, 4,000,000 hashes) with owned entries and with views.

use std::path::PathBuf;

use bstore_ledger::Hash;
use bstore_ledger::entry::{EntriesView, decode_entries, next_hash, signatures_mixin, verify_poh};
use criterion::{Criterion, Throughput, black_box, criterion_main};

const TESTNET: &str = "sig-testnet-417955322";
/// Parent blockhash of the testnet slot (also in its expected.json).
const PARENT: &str = "67TBWCoT7EGNWCoJep2FY8pdU85tgs3CnGa29Pm8i2Bz";

fn testdata() -> PathBuf {
    std::env::var_os("BSTORE_TESTDATA").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/testdata"),
        PathBuf::from,
    )
}

/// The slot's data sets in shred order.
fn testnet_batches() -> Vec<Vec<u8>> {
    let dir = testdata().join(TESTNET).join("batches");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("testnet batches (set BSTORE_TESTDATA)")
        .map(|e| e.expect("dir entry").path())
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| std::fs::read(p).expect("readable batch"))
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("poh");

    const TICK_HASHES: u64 = 62_500;
    let seed = Hash([7; 32]);
    group.throughput(Throughput::Elements(TICK_HASHES));
    group.bench_function("next_hash_62500", |b| {
        b.iter(|| next_hash(black_box(&seed), TICK_HASHES, None))
    });

    let sigs: Vec<[u8; 64]> = (0..64u8).map(|i| [i; 64]).collect();
    group.throughput(Throughput::Elements(sigs.len() as u64));
    group.bench_function("signatures_mixin_64", |b| {
        b.iter(|| signatures_mixin(black_box(&sigs)))
    });

    let batches = testnet_batches();
    let parent: Hash = PARENT.parse().expect("valid hash");
    let entries: Vec<_> = batches
        .iter()
        .flat_map(|b| decode_entries(b).expect("valid batch"))
        .collect();
    let total_hashes: u64 = entries.iter().map(|e| e.num_hashes).sum();
    group.sample_size(10);
    group.throughput(Throughput::Elements(total_hashes));
    group.bench_function("verify_testnet_slot_owned", |b| {
        b.iter(|| verify_poh(black_box(&parent), &entries).map(|h| h.0[0]))
    });
    group.bench_function("verify_testnet_slot_views", |b| {
        b.iter(|| {
            let mut prev = parent;
            for bytes in &batches {
                let view = EntriesView::parse(black_box(bytes)).map_err(|e| e.to_string())?;
                prev = verify_poh(&prev, view.iter()).map_err(|e| e.to_string())?;
            }
            Ok::<_, String>(prev)
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
