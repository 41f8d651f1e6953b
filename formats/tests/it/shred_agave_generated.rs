//! Shreds from Agave's own shredder: slots 10/11/12 (34 data 0xB7 each, p = 7), slot 0 of
//! 1751 shreds (0xB6 + 0xB7, 54 FEC sets), 34 data + 34 code (0xB7/0x77) sets, and three
//! 0x76 code shreds: everything parses with the header facts of `expected.json`, and every
//! FEC set's root and chained root match; in slot 0 each set chains to the previous one.

use crate::common;

use std::collections::BTreeMap;

use bstore_formats::Hash;
use bstore_formats::shred::{ShredRef, chained_merkle_root, merkle_root};
use serde_json::Value;

const DIR: &str = "sig-agave-generated";

fn hashes(v: &Value) -> Vec<Hash> {
    match v {
        Value::String(s) => vec![s.parse().expect("hash")],
        Value::Array(a) => a.iter().flat_map(hashes).collect(),
        _ => panic!("not a hash: {v}"),
    }
}

/// What one FEC set's shreds showed: distinct roots, distinct chained roots, data and code
/// shred counts.
type SetSeen = (Vec<Hash>, Vec<Option<Hash>>, u64, u64);

fn check_file(name: &str, facts: &Value) {
    let packets = common::read_records(&format!("{DIR}/{name}"));
    assert_eq!(
        packets.len() as u64,
        facts["count"].as_u64().expect("count"),
        "{name}"
    );
    let slot = facts["slots"][0].as_u64().expect("slot");
    let mut sets: BTreeMap<u32, SetSeen> = BTreeMap::new();
    let mut variants: BTreeMap<String, u64> = BTreeMap::new();
    for packet in &packets {
        let s = ShredRef::parse(packet).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(s.slot().0, slot);
        let kind = if s.is_data() { "data" } else { "code" };
        *variants
            .entry(format!("{kind} {:#04x}", s.variant().to_byte()))
            .or_default() += 1;
        let root = merkle_root(&s).unwrap_or_else(|e| panic!("{name}: {e}"));
        let set = sets.entry(s.fec_set_index()).or_default();
        if !set.0.contains(&root) {
            set.0.push(root);
        }
        let chained = chained_merkle_root(&s);
        if !set.1.contains(&chained) {
            set.1.push(chained);
        }
        if s.is_data() {
            set.2 += 1;
            assert_eq!(
                s.parent_slot().map(|p| p.0),
                facts["parent_slot"][0].as_u64()
            );
        } else {
            set.3 += 1;
        }
    }
    let want_variants: BTreeMap<String, u64> = facts["variants"]
        .as_object()
        .expect("variants")
        .iter()
        .map(|(k, v)| (k.clone(), v.as_u64().expect("count")))
        .collect();
    assert_eq!(variants, want_variants, "{name}");

    let want_sets = facts["fec_sets"].as_array().expect("fec_sets");
    assert_eq!(sets.len(), want_sets.len(), "{name}");
    let mut previous: Option<Hash> = None;
    for (want, (fec, (roots, chained, n_data, n_code))) in want_sets.iter().zip(&sets) {
        assert_eq!(
            Some(u64::from(*fec)),
            want["fec_set_index"].as_u64(),
            "{name}"
        );
        assert_eq!(
            Some(*n_data),
            want["data_shreds_present"].as_u64(),
            "{name} set {fec}"
        );
        assert_eq!(
            Some(*n_code),
            want["code_shreds_present"].as_u64(),
            "{name} set {fec}"
        );
        let mut want_roots = hashes(&want["merkle_root"]);
        let mut got = roots.clone();
        want_roots.sort();
        got.sort();
        assert_eq!(got, want_roots, "{name} set {fec}");
        let want_chained = hashes(&want["chained_merkle_root"]);
        assert!(chained.contains(&Some(want_chained[0])), "{name} set {fec}");
        // The three-code-shred file is a conflicting-roots fixture (two code shreds of set 0
        // come from different sets); every other set is one consistent set.
        if facts["data_count"].as_u64() > Some(0) {
            assert_eq!(roots.len(), 1, "{name} set {fec}: several roots");
            assert_eq!(chained.len(), 1, "{name} set {fec}: several chained roots");
            if let Some(prev) = previous {
                assert_eq!(chained[0], Some(prev), "{name}: set {fec} does not chain");
            }
        }
        previous = roots.first().copied();
    }
}

#[test]
fn agave_generated_shreds_parse_with_expected_roots() {
    let expected = common::json(&format!("{DIR}/expected.json"));
    let files = expected["files"].as_object().expect("files");
    let mut checked = 0;
    for (name, facts) in files {
        // entries.bin holds entries, not shreds, and has no "shreds" facts.
        if let Some(shreds) = facts.get("shreds") {
            check_file(name, shreds);
            checked += 1;
        }
    }
    // test_get_rooted_block x3, bench_write_small, merkle_proof, recovery, metas_coding.
    assert_eq!(checked, 7);
}
