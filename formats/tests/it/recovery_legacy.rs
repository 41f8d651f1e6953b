//! Legacy FEC sets (0xA5 data / 0x5A code), built here the way legacy leaders built them:
//! every data shred zero-padded to 1228 bytes and signed over `payload[64..]`, parity over
//! the first 1139 bytes of each data payload. Recovery gives back the trimmed stored
//! payloads; a corrupted code shard is caught by the header / padding checks or, with the
//! leader's key, by the recovered shred's own signature, and never returns a wrong shred.

use bstore_formats::shred::{
    RecoverOptions, ShredRef, encode_parity, recover_fec_set, recover_fec_set_with,
};
use bstore_formats::{FormatError, Pubkey};
use ed25519_dalek::{Signer, SigningKey};
use proptest::prelude::*;

const SLOT: u64 = 77;
const FEC: u32 = 40;
const SHARD: usize = 1139;

fn key() -> SigningKey {
    SigningKey::from_bytes(&[3u8; 32])
}

fn header(buf: &mut [u8], variant: u8, index: u32) {
    buf[64] = variant;
    buf[65..73].copy_from_slice(&SLOT.to_le_bytes());
    buf[73..77].copy_from_slice(&index.to_le_bytes());
    buf[77..79].copy_from_slice(&9u16.to_le_bytes());
    buf[79..83].copy_from_slice(&FEC.to_le_bytes());
}

fn sign(buf: &mut [u8]) {
    let sig = key().sign(&buf[64..]).to_bytes();
    buf[..64].copy_from_slice(&sig);
}

/// `(stored data payloads, code payloads)` of one legacy set over `chunks`.
fn legacy_set(chunks: &[Vec<u8>], num_code: usize) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
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
    let shards: Vec<&[u8]> = full.iter().map(|b| &b[..SHARD]).collect();
    let parity = encode_parity(&shards, num_code).expect("parity");
    let code = parity
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let mut buf = vec![0u8; 1228];
            header(&mut buf, 0x5A, 1000 + i as u32);
            buf[83..85].copy_from_slice(&(chunks.len() as u16).to_le_bytes());
            buf[85..87].copy_from_slice(&(num_code as u16).to_le_bytes());
            buf[87..89].copy_from_slice(&(i as u16).to_le_bytes());
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

fn chunks_strategy() -> impl Strategy<Value = Vec<Vec<u8>>> {
    proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..=1051), 1..20)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn legacy_sets_recover_trimmed_payloads(
        chunks in chunks_strategy(),
        num_code in 1usize..24,
        seed in any::<u64>(),
    ) {
        let (data, code) = legacy_set(&chunks, num_code);
        let total = data.len() + num_code;
        let lose = (seed as usize) % (num_code + 1);
        let dropped: Vec<usize> = (0..lose).map(|i| (seed as usize / 7 + i * 5) % total).collect();
        let all: Vec<&Vec<u8>> = data.iter().chain(&code).collect();
        let kept: Vec<ShredRef<'_>> = (0..total)
            .filter(|p| !dropped.contains(p))
            .map(|p| ShredRef::parse(all[p]).expect("parses"))
            .collect();
        if !kept.iter().any(|s| !s.is_data()) {
            return Ok(()); // no code shred left: num_data unknown (tested below)
        }
        let leader = Pubkey(key().verifying_key().to_bytes());
        let options = RecoverOptions { leader: Some(leader), ..RecoverOptions::default() };
        let got = recover_fec_set_with(&kept, &options).expect("recovers");
        let mut lost: Vec<usize> = dropped.iter().copied().filter(|&p| p < data.len()).collect();
        lost.sort_unstable();
        lost.dedup();
        let want: Vec<&Vec<u8>> = lost.iter().map(|&p| &data[p]).collect();
        prop_assert_eq!(got.data.iter().collect::<Vec<_>>(), want);
        prop_assert!(got.code.is_empty(), "legacy code shreds are not rebuilt");
    }

    #[test]
    fn legacy_corruption_never_returns_a_wrong_shred(
        chunks in chunks_strategy(),
        victim in 0usize..4,
        at in 89usize..1228,
        flip in 1u8..=255,
    ) {
        let num_code = 4;
        let (data, mut code) = legacy_set(&chunks, num_code);
        code[victim][at] ^= flip;
        // Every data shred lost: recovery must use the corrupted code shred if num_data ≥ 4.
        let shreds: Vec<ShredRef<'_>> = code.iter().map(|p| ShredRef::parse(p).expect("parses")).collect();
        let leader = Pubkey(key().verifying_key().to_bytes());
        let options = RecoverOptions { leader: Some(leader), ..RecoverOptions::default() };
        match recover_fec_set_with(&shreds, &options) {
            Ok(got) => prop_assert_eq!(got.data, data),
            Err(FormatError::Recovery { fec_set_index, .. }) => prop_assert_eq!(fec_set_index, FEC),
            Err(other) => prop_assert!(false, "unexpected error {other}"),
        }
    }
}

#[test]
fn without_the_key_header_damage_is_still_caught() {
    let chunks: Vec<Vec<u8>> = (0..4).map(|i| vec![i as u8 + 1; 300]).collect();
    let (_, mut code) = legacy_set(&chunks, 4);
    // Shard byte 65.. is the recovered shreds' slot field: any change there is a mismatch.
    code[0][89 + 66] ^= 0x10;
    let shreds: Vec<ShredRef<'_>> = code
        .iter()
        .map(|p| ShredRef::parse(p).expect("parses"))
        .collect();
    let err = recover_fec_set(&shreds).expect_err("header damage");
    assert!(err.to_string().contains("does not match the set"), "{err}");
}
