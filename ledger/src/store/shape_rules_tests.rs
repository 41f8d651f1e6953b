//! Each Agave 4.x shape rule on shreds from the shredder with one header field rewritten
//! (the rules read headers only), and `ShapeRules::Legacy` letting all of them through.

use ed25519_dalek::SigningKey;

use super::*;
use crate::shred::{BatchOptions, LastInSlot, Resign, Shredder};
use crate::types::Slot;

const VARIANT: usize = 64;
const FEC_SET_INDEX: usize = 79;
const FLAGS: usize = 85;
const NUM_DATA: usize = 83;

/// One full slot of one 32:32 set: data shreds then code shreds.
fn slot() -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let mut shredder =
        Shredder::new(Slot(9), Slot(8), 1, SigningKey::from_bytes(&[7; 32])).expect("shredder");
    let opts = BatchOptions {
        last_in_slot: LastInSlot::Yes,
        reference_tick: 0,
        resign_last: Resign::No,
    };
    let batch = shredder
        .shred_batch_with_code(&[1u8; 3000], opts)
        .expect("batch");
    (batch.data, batch.code)
}

fn with(packet: &[u8], offset: usize, bytes: &[u8]) -> Vec<u8> {
    let mut p = packet.to_vec();
    p[offset..offset + bytes.len()].copy_from_slice(bytes);
    p
}

fn agave4(packet: &[u8]) -> Option<InsertDefect> {
    let shred = ShredRef::parse(packet).expect("parses");
    let defect = check(&shred, ShapeRules::Agave4);
    assert_eq!(
        check(&shred, ShapeRules::Legacy),
        None,
        "legacy takes every shape"
    );
    defect
}

#[test]
fn a_shredded_slot_passes() {
    let (data, code) = slot();
    assert_eq!(data.len(), 32);
    assert_eq!(code.len(), 32);
    for p in data.iter().chain(&code) {
        assert_eq!(agave4(p), None);
    }
}

#[test]
fn each_rule_names_its_defect() {
    let (data, code) = slot();
    let (first, last) = (&data[0], &data[31]);
    // Unchained Merkle data (0x8_ with the same proof size).
    let unchained = with(first, VARIANT, &[0x80 | (first[VARIANT] & 0x0F)]);
    assert!(matches!(
        agave4(&unchained),
        Some(InsertDefect::VariantRetired { variant }) if variant & 0xF0 == 0x80
    ));
    // DATA_COMPLETE in the middle of the set.
    let mid = with(&data[5], FLAGS, &[0x40]);
    assert_eq!(
        agave4(&mid),
        Some(InsertDefect::DataCompleteInsideSet { fec_set_index: 0 })
    );
    // LAST_IN_SLOT in the middle of the set.
    let mid_last = with(&data[5], FLAGS, &[0xC0]);
    assert_eq!(agave4(&mid_last), Some(InsertDefect::LastInSlotInsideSet));
    assert_eq!(agave4(last), None, "the set's last shred may end the slot");
    // A set index that is not a multiple of 32 (data shred 31 claiming set 16).
    let off = with(last, FEC_SET_INDEX, &16u32.to_le_bytes());
    assert_eq!(
        agave4(&off),
        Some(InsertDefect::SetNotFixed { fec_set_index: 16 })
    );
    // A proof of 5 entries (a set of at most 32 leaves) in the variant byte.
    let short_proof = with(first, VARIANT, &[(first[VARIANT] & 0xF0) | 5]);
    assert_eq!(
        agave4(&short_proof),
        Some(InsertDefect::ProofSizeNotFixed { proof_size: 5 })
    );
    // A coding shred of a 31:32 set.
    let short = with(&code[0], NUM_DATA, &31u16.to_le_bytes());
    assert_eq!(
        agave4(&short),
        Some(InsertDefect::ErasureConfigNotFixed {
            num_data: 31,
            num_code: 32
        })
    );
}
