//! Mainnet slot 102815960 (October 2021): legacy 32:32 FEC sets whose code shreds all state
//! position 0 and are numbered `fec_set_index + k`, as Solana 1.7 and early 1.8 leaders made
//! them. Every set is rebuilt byte for byte from random subsets of its shreds, with and
//! without the leader's key; without it a set is refused only when its single code shred
//! reads two ways and both readings rebuild valid shreds. A code shred that states another
//! place for the set's code range is still refused.

use std::collections::BTreeMap;
use std::str::FromStr;

use bstore_formats::shred::{
    FirstCodeIndex, RecoverOptions, RecoveryDefect, ShredRef, recover_fec_set, recover_fec_set_with,
};
use bstore_formats::{FormatError, Pubkey};

use crate::common::{json, read_records};

const DIR: &str = "radiance-mainnet-102815960";

/// Stored payloads of one set: data by index, code by index.
#[derive(Default)]
struct Set {
    data: BTreeMap<u32, Vec<u8>>,
    code: BTreeMap<u32, Vec<u8>>,
}

fn sets() -> BTreeMap<u32, Set> {
    let mut sets: BTreeMap<u32, Set> = BTreeMap::new();
    for (file, is_data) in [("data_shreds.bin", true), ("code_shreds.bin", false)] {
        for payload in read_records(&format!("{DIR}/{file}")) {
            let shred = ShredRef::parse(&payload).expect("mainnet shred parses");
            let (index, fec) = (shred.index().0, shred.fec_set_index());
            let set = sets.entry(fec).or_default();
            let map = if is_data {
                &mut set.data
            } else {
                &mut set.code
            };
            map.insert(index, payload);
        }
    }
    sets
}

fn leader() -> Pubkey {
    let text = json(&format!("{DIR}/expected.json"))["shreds"]["leader"]
        .as_str()
        .expect("leader in expected.json")
        .to_string();
    Pubkey::from_str(&text).expect("base58 leader")
}

/// xorshift64: deterministic subsets without a dependency.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    /// A random subset of `items` of size `k`.
    fn pick<T: Copy>(&mut self, items: &[T], k: usize) -> Vec<T> {
        let mut pool = items.to_vec();
        for i in 0..k.min(pool.len()) {
            let j = i + self.below(pool.len() - i);
            pool.swap(i, j);
        }
        pool.truncate(k);
        pool
    }
}

#[test]
fn the_slot_states_position_zero_everywhere() {
    let sets = sets();
    assert_eq!(sets.len(), 45);
    for (fec, set) in &sets {
        for (index, payload) in &set.code {
            let shred = ShredRef::parse(payload).expect("parses");
            assert_eq!(shred.position(), Some(0), "code shred {index}");
            let readings = FirstCodeIndex::of(&shred).expect("code shred");
            assert!(readings.admits(*fec), "code shred {index} is in set {fec}");
            assert_eq!(readings.is_ambiguous(), index != fec);
        }
    }
}

#[test]
fn every_set_recovers_from_random_subsets() {
    let sets = sets();
    let with_key = RecoverOptions {
        leader: Some(leader()),
        ..RecoverOptions::default()
    };
    let mut rng = Rng(0x2021_1020_D1CE_5EED);
    let (mut rounds, mut lone, mut ambiguous) = (0, 0, 0);
    for (fec, set) in &sets {
        let data_indexes: Vec<u32> = set.data.keys().copied().collect();
        let code_indexes: Vec<u32> = set.code.keys().copied().collect();
        let num_data = data_indexes.len();
        for round in 0..24 {
            // Keep k ≥ 1 code shreds (round 0: exactly one) and just enough data shreds,
            // or a few more.
            let k = if round == 0 {
                1
            } else {
                1 + rng.below(code_indexes.len())
            };
            let code = rng.pick(&code_indexes, k);
            if code.len() == 1 && code[0] != *fec {
                lone += 1; // a single code shred that reads two ways
            }
            let spare = rng.below(3);
            let keep = num_data.saturating_sub(k) + spare;
            let data = rng.pick(&data_indexes, keep.min(num_data - 1));
            let mut dropped: Vec<u32> = data_indexes
                .iter()
                .copied()
                .filter(|i| !data.contains(i))
                .collect();
            dropped.sort_unstable();
            let shreds: Vec<ShredRef<'_>> = data
                .iter()
                .map(|i| &set.data[i])
                .chain(code.iter().map(|i| &set.code[i]))
                .map(|p| ShredRef::parse(p).expect("parses"))
                .collect();
            let want: Vec<&Vec<u8>> = dropped.iter().map(|i| &set.data[i]).collect();
            let got = recover_fec_set_with(&shreds, &with_key)
                .unwrap_or_else(|e| panic!("set {fec} round {round} with the key: {e}"));
            assert_eq!(got.data.iter().collect::<Vec<_>>(), want, "set {fec}");
            rounds += 1;
            match recover_fec_set(&shreds) {
                Ok(got) => assert_eq!(got.data.iter().collect::<Vec<_>>(), want, "set {fec}"),
                Err(FormatError::Recovery {
                    defect: RecoveryDefect::AmbiguousCodePosition { index },
                    ..
                }) => {
                    assert_eq!(code, vec![index], "only a lone code shred is ambiguous");
                    ambiguous += 1;
                }
                Err(e) => panic!("set {fec} round {round} without the key: {e}"),
            }
        }
    }
    assert_eq!(rounds, 45 * 24);
    // Each set had rounds with a lone code shred away from the set's index; the recovered
    // headers (index, flags, size, zero padding) told its two readings apart nearly always.
    assert!(lone >= 40, "{lone} rounds with a lone two-way code shred");
    assert!(
        ambiguous * 10 < lone,
        "{ambiguous} of {lone} lone rounds were ambiguous"
    );
}

#[test]
fn a_code_shred_stating_another_code_range_is_refused() {
    let sets = sets();
    let set = &sets[&64];
    let a = set.code.values().next().expect("a code shred");
    let (&b_index, b) = set.code.iter().next_back().expect("another");
    let a_index = *set.code.keys().next().expect("a code shred");
    // `b` restated with a position p that puts its code range at b − p, where neither
    // reading of `a` (position 0: a itself, or the set's index 64) can be.
    let p = (1..32u16)
        .find(|&p| ![a_index, 64].contains(&(b_index - u32::from(p))))
        .expect("a position");
    let mut forged = b.clone();
    forged[87..89].copy_from_slice(&p.to_le_bytes());
    let a_shred = ShredRef::parse(a).expect("parses");
    let forged_shred = ShredRef::parse(&forged).expect("parses");
    let (ra, rf) = (
        FirstCodeIndex::of(&a_shred).expect("code"),
        FirstCodeIndex::of(&forged_shred).expect("code"),
    );
    assert!(!ra.agrees_with(&rf), "{ra:?} vs {rf:?}");
    let data: Vec<ShredRef<'_>> = set
        .data
        .values()
        .skip(2)
        .map(|p| ShredRef::parse(p).expect("parses"))
        .chain([a_shred, forged_shred])
        .collect();
    let err = recover_fec_set(&data).expect_err("inconsistent code shreds");
    assert!(
        matches!(
            err,
            FormatError::Recovery {
                defect: RecoveryDefect::CodeHeaderMismatch { .. },
                ..
            }
        ),
        "{err}"
    );
}

mod generated {
    //! Legacy sets built as each leader generation built them, over random data: code
    //! shred `k` at `F + k` stating position 0 (1.7), at `F + k` stating `k` (later 1.8), or
    //! at `X + k` stating `k` (1.9 and later, `X` anywhere). Every way recovers exactly.

    use super::*;
    use bstore_formats::shred::encode_parity;
    use ed25519_dalek::{Signer, SigningKey};
    use proptest::prelude::*;

    const SLOT: u64 = 900;
    const FEC: u32 = 64;

    fn key() -> SigningKey {
        SigningKey::from_bytes(&[9u8; 32])
    }

    fn header(buf: &mut [u8], variant: u8, index: u32) {
        buf[64] = variant;
        buf[65..73].copy_from_slice(&SLOT.to_le_bytes());
        buf[73..77].copy_from_slice(&index.to_le_bytes());
        buf[77..79].copy_from_slice(&5u16.to_le_bytes());
        buf[79..83].copy_from_slice(&FEC.to_le_bytes());
    }

    fn sign(buf: &mut [u8]) {
        let sig = key().sign(&buf[64..]).to_bytes();
        buf[..64].copy_from_slice(&sig);
    }

    /// `(stored data payloads, code payloads)`; code shred `k` at `first_code + k` stating
    /// `position(k)`.
    fn build(
        chunks: &[Vec<u8>],
        num_code: usize,
        first_code: u32,
        position: impl Fn(usize) -> u16,
    ) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
        let mut full = Vec::new();
        for (k, chunk) in chunks.iter().enumerate() {
            let mut buf = vec![0u8; 1228];
            header(&mut buf, 0xA5, FEC + k as u32);
            buf[83..85].copy_from_slice(&1u16.to_le_bytes());
            buf[85] = if k + 1 == chunks.len() { 0x40 } else { 0 };
            buf[86..88].copy_from_slice(&((88 + chunk.len()) as u16).to_le_bytes());
            buf[88..88 + chunk.len()].copy_from_slice(chunk);
            sign(&mut buf);
            full.push(buf);
        }
        let shards: Vec<&[u8]> = full.iter().map(|b| &b[..1139]).collect();
        let parity = encode_parity(&shards, num_code).expect("parity");
        let code = parity
            .iter()
            .enumerate()
            .map(|(k, p)| {
                let mut buf = vec![0u8; 1228];
                header(&mut buf, 0x5A, first_code + k as u32);
                buf[83..85].copy_from_slice(&(chunks.len() as u16).to_le_bytes());
                buf[85..87].copy_from_slice(&(num_code as u16).to_le_bytes());
                buf[87..89].copy_from_slice(&position(k).to_le_bytes());
                buf[89..].copy_from_slice(p);
                sign(&mut buf);
                buf
            })
            .collect();
        let stored = full
            .iter()
            .zip(chunks)
            .map(|(b, c)| b[..88 + c.len()].to_vec())
            .collect();
        (stored, code)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn every_generation_recovers_exactly(
            chunks in proptest::collection::vec(
                proptest::collection::vec(any::<u8>(), 0..=1051), 1..24),
            num_code in 1usize..24,
            generation in 0u8..3,
            offset in 0u32..200,
            seed in any::<u64>(),
        ) {
            let (data, code) = match generation {
                0 => build(&chunks, num_code, FEC, |_| 0),
                1 => build(&chunks, num_code, FEC, |k| k as u16),
                _ => build(&chunks, num_code, FEC + offset, |k| k as u16),
            };
            let mut rng = Rng(seed | 1);
            // Keep at least one code shred and exactly enough shreds in all.
            let k = 1 + rng.below(num_code);
            let code_kept = rng.pick(&(0..num_code).collect::<Vec<_>>(), k);
            let data_kept = rng.pick(
                &(0..data.len()).collect::<Vec<_>>(),
                data.len().saturating_sub(k),
            );
            let shreds: Vec<ShredRef<'_>> = data_kept
                .iter()
                .map(|&i| &data[i])
                .chain(code_kept.iter().map(|&i| &code[i]))
                .map(|p| ShredRef::parse(p).expect("parses"))
                .collect();
            let want: Vec<&Vec<u8>> = (0..data.len())
                .filter(|i| !data_kept.contains(i))
                .map(|i| &data[i])
                .collect();
            let leader = Pubkey(key().verifying_key().to_bytes());
            let options = RecoverOptions { leader: Some(leader), ..RecoverOptions::default() };
            let got = recover_fec_set_with(&shreds, &options).expect("recovers with the key");
            prop_assert_eq!(got.data.iter().collect::<Vec<_>>(), want.clone());
            match recover_fec_set(&shreds) {
                Ok(got) => prop_assert_eq!(got.data.iter().collect::<Vec<_>>(), want),
                Err(FormatError::Recovery {
                    defect: RecoveryDefect::AmbiguousCodePosition { .. },
                    ..
                }) => prop_assert_eq!(code_kept.len(), 1),
                Err(e) => prop_assert!(false, "without the key: {e}"),
            }
        }
    }
}
