//! Owned decode (`decode_entries`) against view parse (`EntriesView::parse`) of the same
//! data sets in one group, so their ratio reads straight off the report (MB/s):
//! - `testnet_61k`: the real testnet data set of shreds 96..159 (16 entries, 171 txs);
//! - `synthetic_1m`: a seeded ~1 MB data set at mainnet density (~3 transactions per KB):
//!   mostly 1-signature vote-like transactions, some multi-signature ones and some v0 with
//!   address table lookups;
//! - `v1_1m`: the same density of v1 transactions (1–3 signers, config values, two
//!   instructions): the v1 walk against the legacy/v0 one.
//!
//! `view_walk` additionally visits every transaction's signatures through the views, what
//! the completed-data-sets service does after parsing.

use std::path::PathBuf;

use bstore_ledger::entry::{
    AddressTableLookup, CompiledInstruction, EntriesView, Entry, LegacyMessage, MessageHeader,
    TransactionConfig, V0Message, V1Message, VersionedMessage, VersionedTransaction,
    decode_entries, encode_entries,
};
use bstore_ledger::{Hash, Pubkey, Signature};
use criterion::{BenchmarkId, Criterion, Throughput, black_box, criterion_main};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn testdata() -> PathBuf {
    std::env::var_os("BSTORE_TESTDATA").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/testdata"),
        PathBuf::from,
    )
}

fn bytes32(rng: &mut ChaCha8Rng) -> [u8; 32] {
    rng.r#gen()
}

fn header(sigs: u8, ro_signed: u8, ro_unsigned: u8) -> MessageHeader {
    MessageHeader {
        num_required_signatures: sigs,
        num_readonly_signed_accounts: ro_signed,
        num_readonly_unsigned_accounts: ro_unsigned,
    }
}

fn signatures(rng: &mut ChaCha8Rng, n: usize) -> Vec<Signature> {
    (0..n)
        .map(|_| {
            let mut s = [0u8; 64];
            rng.fill(&mut s[..]);
            Signature(s)
        })
        .collect()
}

fn keys(rng: &mut ChaCha8Rng, n: usize) -> Vec<Pubkey> {
    (0..n).map(|_| Pubkey(bytes32(rng))).collect()
}

fn data(rng: &mut ChaCha8Rng, n: usize) -> Vec<u8> {
    let mut d = vec![0u8; n];
    rng.fill(&mut d[..]);
    d
}

/// A vote-like transaction: 1 signature, 5 keys, 1 instruction of 40–90 data bytes
/// (~335 B on the wire, like the 330-byte Firedancer `sample_vote.bin`).
fn vote(rng: &mut ChaCha8Rng) -> VersionedTransaction {
    let data_len = rng.gen_range(40..90);
    VersionedTransaction {
        signatures: signatures(rng, 1),
        message: VersionedMessage::Legacy(LegacyMessage {
            header: header(1, 0, 3),
            account_keys: keys(rng, 5),
            recent_blockhash: Hash(bytes32(rng)),
            instructions: vec![CompiledInstruction {
                program_id_index: 4,
                accounts: vec![1, 2, 3, 0],
                data: data(rng, data_len),
            }],
        }),
    }
}

/// A legacy transfer-like transaction with 2–3 signers and 2–4 instructions.
fn multi_sig(rng: &mut ChaCha8Rng) -> VersionedTransaction {
    let sigs = rng.gen_range(2..=3);
    let n_keys = rng.gen_range(6..12);
    let instructions = (0..rng.gen_range(2..=4))
        .map(|_| {
            let accounts = (0..rng.gen_range(1..8))
                .map(|_| rng.gen_range(0..n_keys as u8))
                .collect();
            let data_len = rng.gen_range(4..60);
            CompiledInstruction {
                program_id_index: rng.gen_range(0..n_keys as u8),
                accounts,
                data: data(rng, data_len),
            }
        })
        .collect();
    VersionedTransaction {
        signatures: signatures(rng, sigs),
        message: VersionedMessage::Legacy(LegacyMessage {
            header: header(sigs as u8, 0, 2),
            account_keys: keys(rng, n_keys),
            recent_blockhash: Hash(bytes32(rng)),
            instructions,
        }),
    }
}

/// A v0 swap-like transaction: 1 signer, 2 lookup tables, 3 instructions.
fn v0(rng: &mut ChaCha8Rng) -> VersionedTransaction {
    let lookups = (0..2)
        .map(|_| AddressTableLookup {
            account_key: Pubkey(bytes32(rng)),
            writable_indexes: data(rng, 4),
            readonly_indexes: data(rng, 3),
        })
        .collect();
    let instructions = (0..3)
        .map(|_| {
            let n = rng.gen_range(2..20);
            let data_len = rng.gen_range(8..40);
            CompiledInstruction {
                program_id_index: 4,
                accounts: data(rng, n),
                data: data(rng, data_len),
            }
        })
        .collect();
    VersionedTransaction {
        signatures: signatures(rng, 1),
        message: VersionedMessage::V0(V0Message {
            header: header(1, 0, 2),
            account_keys: keys(rng, 6),
            recent_blockhash: Hash(bytes32(rng)),
            instructions,
            address_table_lookups: lookups,
        }),
    }
}

/// A v1 transaction: 1–3 signers, compute limit and priority fee, two instructions.
fn v1(rng: &mut ChaCha8Rng) -> VersionedTransaction {
    let signers = rng.gen_range(1..=3u8);
    let instructions = (0..2)
        .map(|_| {
            let data_len = rng.gen_range(8..120);
            CompiledInstruction {
                program_id_index: signers + 2,
                accounts: vec![0, signers],
                data: data(rng, data_len),
            }
        })
        .collect();
    VersionedTransaction {
        signatures: signatures(rng, usize::from(signers)),
        message: VersionedMessage::V1(V1Message {
            header: header(signers, 0, 1),
            config: TransactionConfig {
                priority_fee: Some(rng.gen_range(0..100_000)),
                compute_unit_limit: Some(200_000),
                ..TransactionConfig::default()
            },
            recent_blockhash: Hash(bytes32(rng)),
            account_keys: keys(rng, usize::from(signers) + 3),
            instructions,
        }),
    }
}

/// ~1 MB of entries: 85% votes, 10% multi-signature, 5% v0 (all v1 with `only_v1`); 1–64
/// transactions per entry with a tick every few entries.
fn synthetic_data_set(target: usize, only_v1: bool) -> Vec<u8> {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed_e771);
    let mut entries = Vec::new();
    let mut size = 8;
    while size < target {
        let n = if rng.gen_ratio(1, 8) {
            0
        } else {
            rng.gen_range(1..=64)
        };
        let transactions: Vec<_> = (0..n)
            .map(|_| match rng.gen_range(0..100) {
                _ if only_v1 => v1(&mut rng),
                0..85 => vote(&mut rng),
                85..95 => multi_sig(&mut rng),
                _ => v0(&mut rng),
            })
            .collect();
        let entry = Entry {
            num_hashes: rng.gen_range(1..62_500),
            hash: Hash(bytes32(&mut rng)),
            transactions,
        };
        size += encode_entries(std::slice::from_ref(&entry)).len() - 8;
        entries.push(entry);
    }
    encode_entries(&entries)
}

fn bench(c: &mut Criterion) {
    let testnet =
        std::fs::read(testdata().join("sig-testnet-417955322/batches/batch_00096_00159.bin"))
            .expect("testnet data set (set BSTORE_TESTDATA)");
    let synthetic = synthetic_data_set(1 << 20, false);
    let v1 = synthetic_data_set(1 << 20, true);
    let mut group = c.benchmark_group("entry_decode");
    for (name, bytes) in [
        ("testnet_61k", &testnet),
        ("synthetic_1m", &synthetic),
        ("v1_1m", &v1),
    ] {
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_with_input(BenchmarkId::new("owned", name), bytes, |b, bytes| {
            b.iter(|| decode_entries(black_box(bytes)).map(|e| e.len()))
        });
        group.bench_with_input(BenchmarkId::new("view", name), bytes, |b, bytes| {
            b.iter(|| EntriesView::parse(black_box(bytes)).map(|v| v.len()))
        });
        group.bench_with_input(BenchmarkId::new("view_walk", name), bytes, |b, bytes| {
            b.iter(|| {
                EntriesView::parse(black_box(bytes)).map(|v| {
                    v.iter()
                        .flat_map(|e| e.transactions())
                        .map(|t| t.signatures().len())
                        .sum::<usize>()
                })
            })
        });
    }
    group.finish();
}

/// The benchmark group `criterion_main!` runs.
#[allow(missing_docs)] // `criterion_group!` emits an undocumented `pub fn benches`.
pub mod group {
    criterion::criterion_group!(benches, super::bench);
}
criterion_main!(group::benches);
