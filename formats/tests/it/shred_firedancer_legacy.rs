//! Firedancer localnet shreds: legacy 0xA5 data stored trimmed to `size` and early-layout
//! Merkle 0x85 data (root stored in the payload, so roots are not checked). Every shred parses
//! and its header facts equal `firedancer/expected.json`; a trimmed legacy payload is exactly
//! `size` bytes and its data ends there.

use crate::common;

use std::collections::BTreeMap;

use bstore_formats::shred::{ShredRef, ShredVariant};
use serde_json::Value;

fn u64s(v: &Value) -> Vec<u64> {
    v.as_array()
        .expect("list")
        .iter()
        .map(|x| x.as_u64().expect("number"))
        .collect()
}

#[test]
fn firedancer_localnet_shreds_parse_with_expected_headers() {
    let expected = common::json("firedancer/expected.json");
    let items = expected["items"].as_object().expect("items");
    let mut files = 0;
    for (name, item) in items {
        if !(name.starts_with("localnet-shreds/") && name.ends_with(".ar")) {
            continue;
        }
        files += 1;
        let facts = &item["shreds"];
        let packets = common::read_ar(&format!("firedancer/{name}"));
        assert_eq!(
            packets.len() as u64,
            facts["count"].as_u64().expect("count"),
            "{name}"
        );
        let mut variants: BTreeMap<String, u64> = BTreeMap::new();
        let mut lengths: BTreeMap<String, u64> = BTreeMap::new();
        let mut complete = Vec::new();
        let mut last = Vec::new();
        for packet in &packets {
            let s = ShredRef::parse(packet).unwrap_or_else(|e| panic!("{name}: {e}"));
            let index = u64::from(s.index().0);
            assert!(s.is_data());
            assert_eq!(facts["slots"][0].as_u64(), Some(s.slot().0), "{name}");
            assert_eq!(
                facts["shred_versions"][0].as_u64(),
                Some(u64::from(s.version()))
            );
            assert_eq!(
                facts["parent_offset"][0].as_u64(),
                s.parent_offset().map(u64::from)
            );
            assert_eq!(
                facts["parent_slot"][0].as_u64(),
                s.parent_slot().map(|p| p.0)
            );
            *variants
                .entry(format!("data {:#04x}", s.variant().to_byte()))
                .or_default() += 1;
            *lengths.entry(s.payload().len().to_string()).or_default() += 1;
            let size = usize::from(s.size().expect("data shred"));
            assert_eq!(s.data().len(), size - 88);
            if s.variant() == ShredVariant::LegacyData {
                assert_eq!(s.payload().len(), size, "{name}: trimmed to size");
                assert_eq!(s.proof_size(), None);
            }
            if s.data_complete() {
                complete.push(index);
            }
            if s.last_in_slot() {
                last.push(index);
            }
            if let Some(tick) = facts["reference_ticks"][index.to_string()].as_u64() {
                assert_eq!(
                    s.reference_tick().map(u64::from),
                    Some(tick),
                    "{name} {index}"
                );
            }
        }
        let to_map = |v: &Value| -> BTreeMap<String, u64> {
            v.as_object()
                .expect("map")
                .iter()
                .map(|(k, n)| (k.clone(), n.as_u64().expect("count")))
                .collect()
        };
        assert_eq!(variants, to_map(&facts["variants"]), "{name}");
        assert_eq!(lengths, to_map(&facts["payload_lengths"]), "{name}");
        complete.sort_unstable();
        last.sort_unstable();
        assert_eq!(complete, u64s(&facts["data_complete_indices"]), "{name}");
        assert_eq!(last, u64s(&facts["last_in_slot_indices"]), "{name}");
    }
    assert_eq!(files, 4);
}
