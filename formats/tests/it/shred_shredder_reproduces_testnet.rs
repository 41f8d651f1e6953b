//! Our shredder, fed the 9 deshredded data sets of testnet slot 417955322 with the slot's
//! reference ticks and the first set's chained root, produces the same 10 FEC set roots as
//! the real leader. The roots cover data AND code leaves, so this proves the packing, the
//! padding, the resigned last set and the Reed–Solomon code shreds match Agave byte for byte
//! (only the signatures differ: we do not have the leader's key).

use crate::common;

use bstore_formats::shred::{
    BatchOptions, LastInSlot, Resign, ShredRef, Shredder, chained_merkle_root, merkle_root,
};
use bstore_formats::{Hash, Slot};
use ed25519_dalek::SigningKey;

const DIR: &str = "sig-testnet-417955322";

#[test]
fn shredder_reproduces_testnet_roots() {
    let expected = common::json(&format!("{DIR}/expected.json"));
    let facts = &expected["shreds"];
    let slot = expected["slot"].as_u64().expect("slot");
    let parent = facts["parent_slot"][0].as_u64().expect("parent");
    let version = u16::try_from(facts["shred_versions"][0].as_u64().expect("v")).expect("u16");
    let sets = facts["fec_sets"].as_array().expect("sets");
    let first_chained: Hash = sets[0]["chained_merkle_root"]
        .as_str()
        .expect("root")
        .parse()
        .expect("hash");
    let last_index = facts["last_in_slot_indices"][0].as_u64().expect("last");

    let key = SigningKey::from_bytes(&[7u8; 32]);
    let mut shredder = Shredder::new(Slot(slot), Slot(parent), version, key)
        .expect("shredder")
        .with_chained_root(first_chained);
    let mut produced = Vec::new();
    for batch in expected["deshred"]["batches"].as_array().expect("batches") {
        assert_eq!(batch["trailing_bytes"].as_u64(), Some(0));
        let data = std::fs::read(common::path(&format!(
            "{DIR}/{}",
            batch["file"].as_str().expect("file")
        )))
        .expect("batch file");
        let end = batch["end_index"].as_u64().expect("end");
        let tick = facts["reference_ticks"][end.to_string()]
            .as_u64()
            .expect("tick");
        let last = end == last_index;
        let opts = BatchOptions {
            last_in_slot: if last {
                LastInSlot::Yes
            } else {
                LastInSlot::No
            },
            reference_tick: u8::try_from(tick).expect("tick"),
            resign_last: if last { Resign::Yes } else { Resign::No },
        };
        let shreds = shredder.shred_batch(&data, opts).expect("shred");
        assert_eq!(
            shredder.next_index().0 as u64,
            end + 1,
            "batch ending at {end}"
        );
        produced.extend(shreds);
    }
    assert_eq!(
        produced.len() as u64,
        facts["count"].as_u64().expect("count")
    );

    let originals = common::read_records(&format!("{DIR}/shreds.bin"));
    for (ours, theirs) in produced.iter().zip(sort_by_index(&originals)) {
        let ours = ShredRef::parse(ours).expect("our shred parses");
        // Everything but the signature (and the retransmitter signature) is identical.
        assert_eq!(
            ours.payload()[64..1139],
            theirs.payload()[64..1139],
            "shred {:?}",
            ours.index()
        );
        assert_eq!(ours.variant(), theirs.variant());
        assert_eq!(
            merkle_root(&ours).expect("root"),
            merkle_root(&theirs).expect("root")
        );
        assert_eq!(chained_merkle_root(&ours), chained_merkle_root(&theirs));
    }
    let last_root: Hash = sets.last().expect("sets")["merkle_root"]
        .as_str()
        .expect("root")
        .parse()
        .expect("hash");
    assert_eq!(shredder.last_root(), last_root);
}

fn sort_by_index(packets: &[Vec<u8>]) -> Vec<ShredRef<'_>> {
    let mut shreds: Vec<ShredRef<'_>> = packets
        .iter()
        .map(|p| ShredRef::parse(p).expect("valid"))
        .collect();
    shreds.sort_by_key(|s| s.index());
    shreds
}
