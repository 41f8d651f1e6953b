//! All 320 data shreds of testnet slot 417955322 (0x96 + 0xB6): every shred parses with the
//! expected header facts, each FEC set's root and chained root equal `expected.json`, every
//! chained root is the previous set's root, the leader's signature verifies on all 320, and a
//! flipped byte breaks it.

use crate::common;

use std::collections::BTreeMap;

use bstore_formats::shred::{ShredRef, chained_merkle_root, merkle_root, verify_signature};
use bstore_formats::{Hash, Pubkey};

const DIR: &str = "sig-testnet-417955322";

fn hash(v: &serde_json::Value) -> Hash {
    v.as_str().expect("base58 string").parse().expect("hash")
}

#[test]
fn testnet_roots_chain_and_signatures_verify() {
    let expected = common::json(&format!("{DIR}/expected.json"));
    let facts = &expected["shreds"];
    let leader: Pubkey = facts["leader"]
        .as_str()
        .expect("leader")
        .parse()
        .expect("key");
    let packets = common::read_records(&format!("{DIR}/shreds.bin"));
    assert_eq!(
        packets.len() as u64,
        facts["count"].as_u64().expect("count")
    );

    let parent = facts["parent_slot"][0].as_u64().expect("parent");
    let version = facts["shred_versions"][0].as_u64().expect("version");
    let complete: Vec<u64> = facts["data_complete_indices"]
        .as_array()
        .expect("list")
        .iter()
        .map(|v| v.as_u64().expect("index"))
        .collect();
    let last_in_slot = facts["last_in_slot_indices"][0].as_u64().expect("last");

    // Per FEC set: (root, chained root), and every shred of a set must agree.
    let mut sets: BTreeMap<u32, (Hash, Option<Hash>)> = BTreeMap::new();
    let mut verified = 0u64;
    for packet in &packets {
        let s = ShredRef::parse(packet).expect("valid shred");
        assert_eq!(s.slot().0, expected["slot"].as_u64().expect("slot"));
        assert_eq!(s.parent_slot().map(|p| p.0), Some(parent));
        assert_eq!(u64::from(s.version()), version);
        assert_eq!(s.payload().len(), 1203);
        let index = u64::from(s.index().0);
        assert_eq!(
            s.data_complete(),
            complete.contains(&index),
            "index {index}"
        );
        assert_eq!(s.last_in_slot(), index == last_in_slot, "index {index}");
        if let Some(tick) = facts["reference_ticks"][index.to_string()].as_u64() {
            assert_eq!(s.reference_tick().map(u64::from), Some(tick));
        }
        let root = merkle_root(&s).expect("root");
        let chained = chained_merkle_root(&s);
        let entry = sets.entry(s.fec_set_index()).or_insert((root, chained));
        assert_eq!(
            *entry,
            (root, chained),
            "shred {index} disagrees with its set"
        );
        verify_signature(&s, &leader).expect("leader signature");
        verified += 1;
    }
    assert_eq!(
        verified,
        facts["leader_signature_valid"].as_u64().expect("n")
    );

    let expected_sets = facts["fec_sets"].as_array().expect("fec_sets");
    assert_eq!(sets.len(), expected_sets.len());
    let mut previous: Option<Hash> = None;
    for (want, (fec, (root, chained))) in expected_sets.iter().zip(&sets) {
        assert_eq!(
            u64::from(*fec),
            want["fec_set_index"].as_u64().expect("fec")
        );
        assert_eq!(*root, hash(&want["merkle_root"]), "set {fec}");
        assert_eq!(
            *chained,
            Some(hash(&want["chained_merkle_root"])),
            "set {fec}"
        );
        if let Some(prev) = previous {
            assert_eq!(
                *chained,
                Some(prev),
                "set {fec} does not chain to the previous set"
            );
        }
        previous = Some(*root);
    }

    // A flipped byte anywhere in the signed region breaks the signature.
    for at in [70usize, 100, 1000, 1150] {
        let mut bad = packets[5].clone();
        bad[at] ^= 0x01;
        let s = ShredRef::parse(&bad).expect("still well-formed");
        assert!(
            verify_signature(&s, &leader).is_err(),
            "flip at {at} verified"
        );
    }
    // And so does a flipped signature byte.
    let mut bad = packets[5].clone();
    bad[3] ^= 0x80;
    let s = ShredRef::parse(&bad).expect("still well-formed");
    assert!(verify_signature(&s, &leader).is_err());
}
