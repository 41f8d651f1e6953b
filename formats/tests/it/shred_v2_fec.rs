//! One real FEC set with code shreds (slot 410010000, set 0: 32 data 0x96 + 27 code 0x66):
//! coding headers parse, data AND code leaves fold to the one expected root (this pins the
//! code-shred layout), the chained root matches, the leader signature verifies on all 59,
//! and our Reed–Solomon encoder reproduces every received code shard from the data shards.

use crate::common;

use bstore_formats::shred::{
    ShredKind, ShredRef, chained_merkle_root, encode_parity, erasure_shard, merkle_root,
    verify_signature,
};
use bstore_formats::{Hash, Pubkey};

const DIR: &str = "sig-v2-slot410010000-fec0";

#[test]
fn v2_fec_set_roots_code_headers_signatures_and_parity() {
    let expected = common::json(&format!("{DIR}/expected.json"));
    let shreds_json = &expected["shreds"];
    let set = &shreds_json["fec_sets"][0];
    let root: Hash = set["merkle_root"]
        .as_str()
        .expect("root")
        .parse()
        .expect("hash");
    let chained: Hash = set["chained_merkle_root"]
        .as_str()
        .expect("chained")
        .parse()
        .expect("hash");
    let leader: Pubkey = shreds_json["leader"]
        .as_str()
        .expect("leader")
        .parse()
        .expect("key");
    let num_data = set["num_data"].as_u64().expect("num_data");
    let num_code = set["num_code"].as_u64().expect("num_code");
    let slot = expected["slot"].as_u64().expect("slot");
    let version = shreds_json["shred_versions"][0].as_u64().expect("version");

    let packets = common::read_records(&format!("{DIR}/shreds.bin"));
    assert_eq!(
        packets.len() as u64,
        shreds_json["count"].as_u64().expect("count")
    );
    let shreds: Vec<ShredRef<'_>> = packets
        .iter()
        .map(|p| ShredRef::parse(p).expect("valid shred"))
        .collect();

    let (data, code): (Vec<ShredRef<'_>>, Vec<ShredRef<'_>>) =
        shreds.iter().partition(|s| s.is_data());
    assert_eq!(
        data.len() as u64,
        shreds_json["data_count"].as_u64().expect("n")
    );
    assert_eq!(
        code.len() as u64,
        shreds_json["code_count"].as_u64().expect("n")
    );
    for s in &shreds {
        assert_eq!(s.slot().0, slot);
        assert_eq!(u64::from(s.version()), version);
        assert_eq!(s.fec_set_index(), 0);
        assert_eq!(s.proof_size(), Some(6));
        assert_eq!(
            merkle_root(s).expect("root"),
            root,
            "shred {:?} {}",
            s.kind(),
            s.index()
        );
        assert_eq!(chained_merkle_root(s), Some(chained));
        verify_signature(s, &leader).expect("leader signature");
    }
    for c in &code {
        assert_eq!(c.kind(), ShredKind::Code);
        assert_eq!(c.variant().name(), "merkle_code_chained");
        assert_eq!(c.payload().len(), 1228);
        assert_eq!(c.num_data().map(u64::from), Some(num_data));
        assert_eq!(c.num_code().map(u64::from), Some(num_code));
        assert_eq!(c.position().map(u32::from), Some(c.index().0));
        assert!(c.data().is_empty() && c.flags().is_none());
    }

    // Reed–Solomon: the parity of the 32 data shards equals each received code shard.
    let mut data_sorted = data.clone();
    data_sorted.sort_by_key(|s| s.index());
    let shards: Vec<&[u8]> = data_sorted
        .iter()
        .map(|s| erasure_shard(s).expect("merkle shard"))
        .collect();
    let parity = encode_parity(&shards, num_code as usize).expect("parity");
    for c in &code {
        let position = usize::from(c.position().expect("code"));
        assert_eq!(
            Some(parity[position].as_slice()),
            erasure_shard(c),
            "code shard at position {position}"
        );
    }
}
