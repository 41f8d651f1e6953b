//! Block markers against Agave's own code: `testdata/agave4/block_components.json`, written
//! by `interop/agave4-block` (solana-entry 4.2.2). Every marker variant parses to the
//! values the tool built and re-encodes byte for byte; on every truncation and on six
//! overwrites of every byte, bstore accepts exactly what Agave accepts, except where
//! Agave 4.4's length-prefix rule (which 4.2 lacked) refuses it; a whole Alpenglow slot's
//! data sets parse in order and their entries chain (one hash each) to the slot's
//! blockhash, restarting from the new parent after the UpdateParent.

use std::path::Path;

use bstore_formats::FormatError;
use bstore_formats::block::{
    BLS_SIGNATURE_BYTES, BLS_SIGNATURE_COMPRESSED_BYTES, BlockFooter, BlockHeader, BlockMarker,
    BlsSignature, BlsSignatureCompressed, DataSet, FinalizationCert, GenesisCertificate,
    MarkerDefect, NotarRewardCert, SkipRewardCert, UpdateParent, VotesAggregate, is_aborted_block,
    parse_data_set,
};
use bstore_formats::entry::verify_poh;
use bstore_formats::types::{Hash, Slot};
use serde_json::Value;

pub(crate) fn vectors() -> Value {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/agave4/block_components.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("vector file is JSON")
}

pub(crate) fn unhex(s: &str) -> Vec<u8> {
    assert!(s.len().is_multiple_of(2), "odd hex length");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex digit"))
        .collect()
}

fn hash_of(v: &Value) -> Hash {
    let bytes = unhex(v.as_str().expect("hex string"));
    Hash(bytes.try_into().expect("32 bytes"))
}

fn footer(user_agent: &[u8]) -> BlockFooter {
    BlockFooter {
        bank_hash: Hash([0x33; 32]),
        producer_time_nanos: 1_700_000_000_123_456_789,
        user_agent: user_agent.to_vec(),
        final_cert: None,
        skip_reward_cert: None,
        notar_reward_cert: None,
    }
}

fn aggregate(sig: u8, bitmap: &[u8]) -> VotesAggregate {
    VotesAggregate {
        signature: BlsSignatureCompressed([sig; BLS_SIGNATURE_COMPRESSED_BYTES]),
        bitmap: bitmap.to_vec(),
    }
}

/// The values `interop/agave4-block` serialized, by the same recipe.
fn expected(name: &str) -> BlockMarker {
    match name {
        "header" => BlockMarker::Header(BlockHeader {
            parent_slot: Slot(41),
            parent_block_id: Hash([0x11; 32]),
        }),
        "update_parent" => BlockMarker::UpdateParent(UpdateParent {
            new_parent_slot: Slot(40),
            new_parent_block_id: Hash([0x22; 32]),
        }),
        "footer_minimal" => BlockMarker::footer(footer(b"bstore-vectors/agave-4.2.2")),
        "footer_full" => BlockMarker::footer(BlockFooter {
            final_cert: Some(FinalizationCert {
                slot: Slot(39),
                block_id: Hash([0x44; 32]),
                final_aggregate: aggregate(0x55, &[0xaa; 64]),
                notar_aggregate: None,
            }),
            skip_reward_cert: Some(SkipRewardCert {
                slot: Slot(38),
                signature: BlsSignatureCompressed([0x66; BLS_SIGNATURE_COMPRESSED_BYTES]),
                bitmap: vec![0x0f; 200],
            }),
            notar_reward_cert: Some(NotarRewardCert {
                slot: Slot(38),
                block_id: Hash([0x77; 32]),
                signature: BlsSignatureCompressed([0x88; BLS_SIGNATURE_COMPRESSED_BYTES]),
                bitmap: vec![0xf0; 3],
            }),
            ..footer(b"agave/4.2.2")
        }),
        "footer_slow" => BlockMarker::footer(BlockFooter {
            final_cert: Some(FinalizationCert {
                slot: Slot(39),
                block_id: Hash([0x44; 32]),
                final_aggregate: aggregate(0x55, &[0xaa; 2]),
                notar_aggregate: Some(aggregate(0x99, &[0x01; 2])),
            }),
            ..footer(b"")
        }),
        "footer_max_user_agent" => BlockMarker::footer(footer(&[b'a'; 255])),
        "genesis_certificate" => BlockMarker::genesis_certificate(GenesisCertificate {
            slot: Slot(40),
            block_id: Hash([0xab; 32]),
            signature: BlsSignature([0xcd; BLS_SIGNATURE_BYTES]),
            bitmap: vec![0xef; 64],
        }),
        other => panic!("unknown vector {other}"),
    }
}

#[test]
fn every_marker_variant_is_byte_exact_with_agave() {
    let v = vectors();
    let markers = v["markers"].as_array().expect("markers");
    assert_eq!(markers.len(), 7);
    for m in markers {
        let name = m["name"].as_str().expect("name");
        let bytes = unhex(m["hex"].as_str().expect("hex"));
        let want = expected(name);
        assert_eq!(
            BlockMarker::parse_exact(&bytes).expect(name),
            want,
            "{name}"
        );
        assert_eq!(want.encode().expect(name), bytes, "{name}: encode");
    }
}

/// bstore's verdict must be Agave's, except a refusal by the length-prefix rule of Agave
/// 4.4 (the vectors come from 4.2, which read the prefix and ignored it).
fn same_verdict(name: &str, what: &str, bytes: &[u8], agave_accepts: bool) {
    match (BlockMarker::parse(bytes), agave_accepts) {
        (Ok(_), true) | (Err(_), false) => {}
        (Err(FormatError::InvalidBlockMarker { defect, .. }), true) => assert!(
            matches!(defect, MarkerDefect::LengthMismatch { .. }),
            "{name} {what}: Agave accepts, bstore refuses with {defect}"
        ),
        (Err(e), true) => panic!("{name} {what}: Agave accepts, bstore refuses with {e}"),
        (Ok(m), false) => panic!("{name} {what}: Agave refuses, bstore accepts {m:?}"),
    }
}

#[test]
fn truncations_and_overwrites_get_agaves_verdict() {
    let v = vectors();
    let values = unhex(v["mutation_values"].as_str().expect("values"));
    let mut length_rule_refusals = 0;
    for m in v["markers"].as_array().expect("markers") {
        let name = m["name"].as_str().expect("name");
        let bytes = unhex(m["hex"].as_str().expect("hex"));
        let cuts: Vec<bool> = m["truncations"]
            .as_str()
            .expect("cuts")
            .chars()
            .map(|c| c == '1')
            .collect();
        assert_eq!(cuts.len(), bytes.len() + 1);
        for (n, &ok) in cuts.iter().enumerate() {
            same_verdict(name, &format!("cut to {n}"), &bytes[..n], ok);
        }
        let flips: Vec<bool> = m["mutations"]
            .as_str()
            .expect("mutations")
            .chars()
            .map(|c| c == '1')
            .collect();
        assert_eq!(flips.len(), bytes.len() * values.len());
        let mut copy = bytes.clone();
        for i in 0..bytes.len() {
            for (k, &value) in values.iter().enumerate() {
                copy[i] = value;
                let agave = flips[i * values.len() + k];
                if agave && BlockMarker::parse(&copy).is_err() {
                    length_rule_refusals += 1;
                }
                same_verdict(name, &format!("byte {i} = {value:#04x}"), &copy, agave);
            }
            copy[i] = bytes[i];
        }
        let mut trailing = bytes.clone();
        trailing.push(0);
        assert_eq!(m["trailing_zero_accepted"], Value::Bool(true));
        assert!(
            BlockMarker::parse(&trailing).is_ok(),
            "{name}: trailing byte"
        );
    }
    // The length prefix's own bytes at least (two per marker, six values each).
    assert!(length_rule_refusals >= 7 * 2 * 5, "{length_rule_refusals}");
}

#[test]
fn aborted_block_payload() {
    let v = vectors();
    let bytes = unhex(v["aborted"]["hex"].as_str().expect("hex"));
    assert_eq!(v["aborted"]["accepted"], Value::Bool(false));
    assert!(is_aborted_block(&bytes));
    assert!(matches!(
        parse_data_set(&bytes),
        Err(FormatError::BlockAborted)
    ));
}

#[test]
fn whole_alpenglow_slot_parses_and_chains() {
    let v = vectors();
    let slot = &v["slot"];
    let sets: Vec<(String, Vec<u8>)> = slot["data_sets"]
        .as_array()
        .expect("data sets")
        .iter()
        .map(|d| {
            (
                d["kind"].as_str().expect("kind").to_string(),
                unhex(d["hex"].as_str().expect("hex")),
            )
        })
        .collect();
    let mut running = hash_of(&slot["parent_blockhash"]);
    let mut kinds = Vec::new();
    for (kind, bytes) in &sets {
        match parse_data_set(bytes).expect("every data set parses") {
            DataSet::Marker(m) => {
                assert_eq!(kind, "marker");
                if let Some(u) = m.as_update_parent() {
                    assert_eq!(running, hash_of(&slot["prefix_last_hash"]));
                    assert_eq!(
                        u.new_parent_slot,
                        Slot(slot["new_parent_slot"].as_u64().expect("slot"))
                    );
                    running = hash_of(&slot["new_parent_blockhash"]);
                }
                kinds.push(m.kind().name().to_string());
            }
            DataSet::Entries(view) => {
                assert_eq!(kind, "entries");
                assert!(view.iter().all(|e| e.num_hashes() == 1));
                running = verify_poh(&running, view.iter()).expect("chain holds");
                kinds.push(format!("{} entries", view.len()));
            }
        }
    }
    assert_eq!(
        kinds,
        [
            "header",
            "genesis_certificate",
            "2 entries",
            "1 entries",
            "update_parent",
            "2 entries",
            "footer",
            "1 entries"
        ]
    );
    assert_eq!(running, hash_of(&slot["blockhash"]));
}
