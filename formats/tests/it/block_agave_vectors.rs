//! Block markers against Agave's own code: `testdata/agave4/block_components.json`, written
//! by `interop/agave4-block` (solana-entry 4.2.2), and `testdata/agave44/`, written by the
//! same source built on solana-entry 4.4.0 (`interop/agave44-block`). Every marker variant
//! parses to the values the tool built and re-encodes byte for byte (both versions serialize
//! the same bytes); on every truncation and on six overwrites of every byte, bstore accepts
//! exactly what Agave 4.4 accepts, both its `BlockComponent` reader and its entry-view
//! parser, and exactly what 4.2 accepts except where 4.4's length-prefix rule (which 4.2
//! lacked) refuses it; a whole Alpenglow slot's data sets parse in order and their entries
//! chain (one hash each) to the slot's blockhash, restarting from the new parent after the
//! UpdateParent.

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

/// The Agave build a vector file comes from.
#[derive(Debug, Clone, Copy)]
enum Agave {
    /// solana-entry 4.2.2: reads a marker's length prefix and ignores it.
    V4_2,
    /// solana-entry 4.4.0: refuses a length prefix that is not the inner value's size.
    V4_4,
}

impl Agave {
    const ALL: [Agave; 2] = [Agave::V4_2, Agave::V4_4];

    fn vectors(self) -> Value {
        let file = match self {
            Agave::V4_2 => "../testdata/agave4/block_components.json",
            Agave::V4_4 => "../testdata/agave44/block_components.json",
        };
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        serde_json::from_str(&text).expect("vector file is JSON")
    }
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
    for agave in Agave::ALL {
        let v = agave.vectors();
        let markers = v["markers"].as_array().expect("markers");
        assert_eq!(markers.len(), 7);
        for m in markers {
            let name = m["name"].as_str().expect("name");
            let bytes = unhex(m["hex"].as_str().expect("hex"));
            let want = expected(name);
            assert_eq!(
                BlockMarker::parse_exact(&bytes).expect(name),
                want,
                "{agave:?} {name}"
            );
            assert_eq!(
                want.encode().expect(name),
                bytes,
                "{agave:?} {name}: encode"
            );
        }
    }
}

/// 4.4 serializes the recipe's markers and slot to the same bytes as 4.2: only the
/// verdicts differ between the files.
#[test]
fn agave_4_4_serializes_what_4_2_serializes() {
    let (old, new) = (Agave::V4_2.vectors(), Agave::V4_4.vectors());
    let hexes = |v: &Value, list: &str| -> Vec<Value> {
        let list = v.pointer(list).and_then(Value::as_array).expect("list");
        list.iter().map(|m| m["hex"].clone()).collect()
    };
    for list in ["/markers", "/slot/data_sets"] {
        assert_eq!(hexes(&old, list), hexes(&new, list), "{list}");
    }
    assert_eq!(old["aborted"], new["aborted"]);
    assert_eq!(old["mutation_values"], new["mutation_values"]);
}

/// Refusals by the length-prefix rule, which 4.2 lacked, are allowed against 4.2 only.
#[derive(Clone, Copy)]
enum LengthRule {
    /// The Agave build refuses a mismatched prefix itself: no exception.
    Agave,
    /// The Agave build ignores the prefix: bstore may refuse with `LengthMismatch` alone.
    Excepted,
}

/// bstore's verdict must be Agave's, except as `rule` allows; returns whether they differed
/// by such an allowed refusal.
fn same_verdict(
    what: &str,
    bstore: Result<(), FormatError>,
    agave_accepts: bool,
    rule: LengthRule,
) -> bool {
    match (bstore, agave_accepts, rule) {
        (Ok(()), true, _) | (Err(_), false, _) => false,
        (
            Err(FormatError::InvalidBlockMarker {
                defect: MarkerDefect::LengthMismatch { .. },
                ..
            }),
            true,
            LengthRule::Excepted,
        ) => true,
        (Err(e), true, _) => panic!("{what}: Agave accepts, bstore refuses with {e}"),
        (Ok(()), false, _) => panic!("{what}: Agave refuses, bstore accepts"),
    }
}

fn bits(m: &Value, key: &str) -> Vec<bool> {
    m[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key}"))
        .chars()
        .map(|c| c == '1')
        .collect()
}

/// Checks one Agave reader's recorded verdicts (`keys`: cuts, overwrites, trailing byte) on
/// every marker of `v` against `parse`; returns, per marker, the overwrite indexes where
/// `rule` excused a difference.
fn check_verdicts(
    v: &Value,
    keys: [&str; 3],
    parse: fn(&[u8]) -> Result<(), FormatError>,
    rule: LengthRule,
) -> Vec<Vec<usize>> {
    let [cuts_key, flips_key, trailing_key] = keys;
    let values = unhex(v["mutation_values"].as_str().expect("values"));
    let mut excused = Vec::new();
    for m in v["markers"].as_array().expect("markers") {
        let name = m["name"].as_str().expect("name");
        let bytes = unhex(m["hex"].as_str().expect("hex"));
        let cuts = bits(m, cuts_key);
        assert_eq!(cuts.len(), bytes.len() + 1);
        for (n, &ok) in cuts.iter().enumerate() {
            // Not collected: 4.2 and 4.4 cut verdicts are equal (checked below), so a cut
            // the rule excuses against 4.2 fails the 4.4 check.
            same_verdict(
                &format!("{name} {cuts_key} cut to {n}"),
                parse(&bytes[..n]),
                ok,
                rule,
            );
        }
        let flips = bits(m, flips_key);
        assert_eq!(flips.len(), bytes.len() * values.len());
        let mut here = Vec::new();
        let mut copy = bytes.clone();
        for i in 0..bytes.len() {
            for (k, &value) in values.iter().enumerate() {
                copy[i] = value;
                let what = format!("{name} {flips_key} byte {i} = {value:#04x}");
                let at = i * values.len() + k;
                if same_verdict(&what, parse(&copy), flips[at], rule) {
                    here.push(at);
                }
            }
            copy[i] = bytes[i];
        }
        excused.push(here);
        let mut trailing = bytes.clone();
        trailing.push(0);
        assert_eq!(m[trailing_key], Value::Bool(true), "{name} {trailing_key}");
        assert!(parse(&trailing).is_ok(), "{name}: trailing byte");
    }
    excused
}

const COMPONENT_KEYS: [&str; 3] = ["truncations", "mutations", "trailing_zero_accepted"];
const VIEW_KEYS: [&str; 3] = [
    "view_truncations",
    "view_mutations",
    "view_trailing_zero_accepted",
];

fn marker_parse(bytes: &[u8]) -> Result<(), FormatError> {
    BlockMarker::parse(bytes).map(|_| ())
}

fn data_set_parse(bytes: &[u8]) -> Result<(), FormatError> {
    parse_data_set(bytes).map(|_| ())
}

/// Against 4.4: bstore's marker parse and its data set parse agree with 4.4's
/// `BlockComponent` reader and its entry-view parser on every cut and overwrite, with no
/// exception.
#[test]
fn truncations_and_overwrites_get_agave_4_4s_verdict() {
    let v = Agave::V4_4.vectors();
    for parse in [marker_parse, data_set_parse] {
        for keys in [COMPONENT_KEYS, VIEW_KEYS] {
            check_verdicts(&v, keys, parse, LengthRule::Agave);
        }
    }
}

/// Against 4.2: the same, except refusals by the length rule; and those are exactly the
/// overwrites 4.2 accepts and 4.4 refuses, so the rule is the only difference between them.
#[test]
fn truncations_and_overwrites_get_agave_4_2s_verdict_but_the_length_rule() {
    let v = Agave::V4_2.vectors();
    let excused = check_verdicts(&v, COMPONENT_KEYS, marker_parse, LengthRule::Excepted);
    let newer = Agave::V4_4.vectors();
    let (old, new) = (v["markers"].as_array(), newer["markers"].as_array());
    let pairs = old.expect("markers").iter().zip(new.expect("markers"));
    for ((m42, m44), excused) in pairs.zip(&excused) {
        assert_eq!(bits(m42, "truncations"), bits(m44, "truncations"));
        let (a, b) = (bits(m42, "mutations"), bits(m44, "mutations"));
        let differ: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
        assert_eq!(&differ, excused, "{}", m42["name"]);
    }
    // The length prefix's own bytes at least (two per marker, five other values each).
    let total: usize = excused.iter().map(Vec::len).sum();
    assert!(total >= 7 * 2 * 5, "{total}");
}

#[test]
fn aborted_block_payload() {
    for agave in Agave::ALL {
        let v = agave.vectors();
        let bytes = unhex(v["aborted"]["hex"].as_str().expect("hex"));
        assert_eq!(v["aborted"]["accepted"], Value::Bool(false), "{agave:?}");
        assert!(is_aborted_block(&bytes));
        assert!(matches!(
            parse_data_set(&bytes),
            Err(FormatError::BlockAborted)
        ));
    }
}

#[test]
fn whole_alpenglow_slot_parses_and_chains() {
    for agave in Agave::ALL {
        slot_parses_and_chains(&agave.vectors()["slot"]);
    }
}

fn slot_parses_and_chains(slot: &Value) {
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
