//! Base58 of keys (32 bytes) and signatures (64 bytes), as the JSON encoders write them for
//! every account key, blockhash and signature of an answer: the fixed-size path (limbs of
//! 58^5 filled by multiplication, no division in the main loop) against the any-length
//! path the encoders used before for the same values (repeated division by 58^5) and the
//! `bs58` crate, on the same 256 random values per size in one group, so the ratios read
//! straight off the report.

use criterion::{Criterion, Throughput, criterion_main};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use bstore_rpc::bench_base58::Base58;

/// One way to append a value's base58 text (with the writer's reusable working memory).
type Encoder = fn(&mut Base58, &[u8], &mut String);

fn values(len: usize) -> Vec<Vec<u8>> {
    let mut rng = ChaCha8Rng::seed_from_u64(58);
    (0..256)
        .map(|_| {
            let mut v = vec![0u8; len];
            rng.fill(&mut v[..]);
            v
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    for len in [32, 64] {
        let inputs = values(len);
        let mut group = c.benchmark_group(format!("base58_{len}_bytes"));
        group.throughput(Throughput::Elements(inputs.len() as u64));
        let mut out = String::with_capacity(inputs.len() * 90);
        let paths: [(&str, Encoder); 3] = [
            ("fixed", Base58::encode),
            ("by_division", Base58::encode_by_division),
            ("bs58_crate", |_, v, out| {
                out.push_str(&bs58::encode(v).into_string())
            }),
        ];
        for (name, path) in paths {
            group.bench_function(name, |b| {
                let mut writer = Base58::default();
                b.iter(|| {
                    out.clear();
                    for v in &inputs {
                        path(&mut writer, v, &mut out);
                    }
                    out.len()
                })
            });
        }
        group.finish();
    }
}

/// The benchmark group `criterion_main!` runs.
#[allow(missing_docs)] // `criterion_group!` emits an undocumented `pub fn benches`.
mod group {
    criterion::criterion_group!(benches, super::bench);
}
criterion_main!(group::benches);
