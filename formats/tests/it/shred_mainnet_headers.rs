//! 99 single mainnet Merkle data shreds (0x86/0x87), 27 of them received with 21 trailing
//! bytes: every header field and every Merkle root equals `mainnet_shreds.expected.json`
//! (upstream `expected_*` and derived fields), and trailing bytes are not part of the payload.

use crate::common;

use bstore_formats::Hash;
use bstore_formats::shred::{ShredRef, chained_merkle_root, merkle_root};

#[test]
fn mainnet_headers_and_roots_match() {
    let expected = common::json("sig-mainnet-shreds/mainnet_shreds.expected.json");
    let wants = expected["shreds"].as_array().expect("shreds");
    let packets = common::read_records("sig-mainnet-shreds/mainnet_shreds.bin");
    assert_eq!(packets.len(), wants.len());
    let mut with_trailer = 0;
    for (packet, want) in packets.iter().zip(wants) {
        let u = |k: &str| want[k].as_u64().unwrap_or_else(|| panic!("{k} missing"));
        let d = &want["derived"];
        let du = |k: &str| {
            d[k].as_u64()
                .unwrap_or_else(|| panic!("derived {k} missing"))
        };
        assert_eq!(packet.len() as u64, u("payload_len"));
        let s = ShredRef::parse(packet).expect("valid shred");
        let ctx = format!("slot {} index {}", s.slot(), s.index());
        assert_eq!(
            format!("{:#04x}", s.variant().to_byte()),
            want["variant"].as_str().expect("v")
        );
        assert_eq!(s.slot().0, u("expected_slot"));
        assert_eq!(u64::from(s.index().0), u("expected_index"));
        assert_eq!(
            u64::from(s.fec_set_index()),
            u("expected_fec_set_index"),
            "{ctx}"
        );
        let root: Hash = want["expected_merkle_root"]
            .as_str()
            .expect("root")
            .parse()
            .expect("hash");
        assert_eq!(merkle_root(&s).expect("root"), root, "{ctx}");
        assert_eq!(chained_merkle_root(&s), None);

        assert_eq!(u64::from(s.version()), du("shred_version"));
        assert_eq!(s.parent_offset().map(u64::from), Some(du("parent_offset")));
        let flags = d["flags"].as_str().expect("flags");
        assert_eq!(
            s.flags().map(|f| format!("{f:#04x}")).as_deref(),
            Some(flags),
            "{ctx}"
        );
        assert_eq!(s.size().map(u64::from), Some(du("size")));
        assert_eq!(s.data().len() as u64, du("size") - 88);
        assert_eq!(s.proof_size().map(u64::from), Some(du("proof_size")));
        assert_eq!(Some(s.data_complete()), d["data_complete"].as_bool());
        assert_eq!(Some(s.last_in_slot()), d["last_in_slot"].as_bool());

        assert_eq!(s.payload().len(), 1203);
        assert_eq!(s.payload(), &packet[..1203]);
        if packet.len() == 1224 {
            with_trailer += 1;
        }
    }
    assert_eq!(with_trailer, 27);
}
