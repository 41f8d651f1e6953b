//! Every validation rule rejects with its own typed defect and the shred's slot and index,
//! and mutations of real shreds (truncation at every length, every variant byte, bad flags,
//! size, index, fec_set_index, parent offset, coding header) never panic.

use crate::common;

use bstore_formats::shred::{
    ShredDefect, ShredRef, ShredVariant, chained_merkle_root, erasure_shard, merkle_leaf,
    merkle_root, verify_signature,
};
use bstore_formats::{FormatError, Pubkey, ShredIndex, Slot};

/// (slot, index, defect) of a rejected shred.
fn reject(bytes: &[u8]) -> (Option<Slot>, Option<ShredIndex>, ShredDefect) {
    match ShredRef::parse(bytes) {
        Err(FormatError::InvalidShred {
            slot,
            index,
            defect,
        }) => (slot, index, defect),
        Err(other) => panic!("wrong error type: {other}"),
        Ok(s) => panic!("accepted: {s:?}"),
    }
}

fn testnet_data() -> Vec<u8> {
    common::read_records("sig-testnet-417955322/shreds.bin").swap_remove(40)
}

fn v2_code() -> Vec<u8> {
    let packets = common::read_records("sig-v2-slot410010000-fec0/shreds.bin");
    // A code shred with a non-zero position, so `index < position` can be provoked.
    packets
        .into_iter()
        .find(|p| p[64] == 0x66 && p[87] == 3)
        .expect("code shred at position 3")
}

fn legacy_data() -> Vec<u8> {
    common::read_ar("firedancer/localnet-shreds/localnet-v14-slot1-shreds.ar").swap_remove(2)
}

/// Runs every accessor and derived computation; none may panic.
fn exercise(bytes: &[u8]) {
    if let Ok(s) = ShredRef::parse(bytes) {
        let _ = (
            s.payload(),
            s.signature(),
            s.variant().name(),
            s.data(),
            s.parent_slot(),
        );
        let _ = (s.num_data(), s.num_code(), s.position(), s.reference_tick());
        let _ = (
            merkle_leaf(&s),
            merkle_root(&s),
            chained_merkle_root(&s),
            erasure_shard(&s),
        );
        let _ = verify_signature(&s, &Pubkey::default());
    }
}

fn set_u16(b: &mut [u8], at: usize, v: u16) {
    b[at..at + 2].copy_from_slice(&v.to_le_bytes());
}

fn set_u32(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

#[test]
fn truncation_at_every_length_is_too_short() {
    for original in [testnet_data(), v2_code(), legacy_data()] {
        let need = ShredRef::parse(&original).expect("valid").payload().len();
        for len in 0..need {
            let (slot, index, defect) = reject(&original[..len]);
            assert!(
                matches!(defect, ShredDefect::TooShort { len: l, .. } if l == len),
                "len {len}: {defect}"
            );
            assert_eq!(slot.is_some(), len >= 73, "len {len}");
            assert_eq!(index.is_some(), len >= 77, "len {len}");
        }
        // Extra bytes after the payload are ignored.
        let mut longer = original.clone();
        longer.extend_from_slice(&[0xEE; 30]);
        let s = ShredRef::parse(&longer).expect("trailing bytes ignored");
        assert_eq!(s.payload(), &original[..need]);
    }
}

#[test]
fn every_variant_byte_is_typed_or_parsed_never_a_panic() {
    for original in [testnet_data(), v2_code(), legacy_data()] {
        let s = ShredRef::parse(&original).expect("valid");
        let (slot, index) = (s.slot(), s.index());
        for b in 0..=u8::MAX {
            let mut bytes = original.clone();
            bytes[64] = b;
            exercise(&bytes);
            if ShredVariant::from_byte(b).is_err() {
                assert_eq!(
                    reject(&bytes),
                    (Some(slot), Some(index), ShredDefect::InvalidVariant(b))
                );
            }
        }
    }
}

#[test]
fn data_header_rules_each_have_their_defect() {
    let good = testnet_data();
    // The error names the (possibly mutated) slot and index of the rejected bytes.
    let check = |mutate: &dyn Fn(&mut Vec<u8>), want: ShredDefect| {
        let mut b = good.clone();
        mutate(&mut b);
        let (slot, index, defect) = reject(&b);
        assert_eq!(defect, want);
        let header_slot = u64::from_le_bytes(b[65..73].try_into().expect("8 bytes"));
        let header_index = u32::from_le_bytes(b[73..77].try_into().expect("4 bytes"));
        assert_eq!(
            (slot, index),
            (Some(Slot(header_slot)), Some(ShredIndex(header_index)))
        );
    };
    check(&|b| b[85] = 0x80, ShredDefect::InvalidFlags(0x80));
    check(&|b| b[85] = 0x8A, ShredDefect::InvalidFlags(0x8A));
    let max = 88 + 963;
    check(
        &|b| set_u16(b, 86, 87),
        ShredDefect::SizeOutOfRange {
            size: 87,
            min: 88,
            max,
        },
    );
    check(
        &|b| set_u16(b, 86, max as u16 + 1),
        ShredDefect::SizeOutOfRange {
            size: max as u16 + 1,
            min: 88,
            max,
        },
    );
    check(
        &|b| set_u32(b, 73, 32_768),
        ShredDefect::IndexTooLarge(32_768),
    );
    check(
        &|b| set_u32(b, 73, u32::MAX),
        ShredDefect::IndexTooLarge(u32::MAX),
    );
    check(
        &|b| set_u32(b, 79, 41),
        ShredDefect::FecSetIndexAfterIndex {
            fec_set_index: 41,
            index: 40,
        },
    );
    check(&|b| set_u16(b, 83, 0), ShredDefect::ParentOffsetZero);
    check(
        &|b| {
            b[65..73].copy_from_slice(&5u64.to_le_bytes());
            set_u16(b, 83, 6);
        },
        ShredDefect::ParentOffsetBeyondSlot {
            parent_offset: 6,
            slot: 5,
        },
    );
    // Slot 0 with offset 0 is the genesis case and is accepted.
    let mut genesis = good.clone();
    genesis[65..73].copy_from_slice(&0u64.to_le_bytes());
    set_u16(&mut genesis, 83, 0);
    assert_eq!(
        ShredRef::parse(&genesis).expect("genesis").parent_slot(),
        Some(Slot(0))
    );
    // Size at the maximum and at 88 (empty) are legal.
    let mut edge = good.clone();
    set_u16(&mut edge, 86, max as u16);
    assert_eq!(ShredRef::parse(&edge).expect("max size").data().len(), 963);
    set_u16(&mut edge, 86, 88);
    assert!(ShredRef::parse(&edge).expect("empty").data().is_empty());
}

#[test]
fn legacy_size_must_fit_capacity_and_bytes_present() {
    let good = legacy_data();
    let size = good.len();
    let mut big = good.clone();
    set_u16(&mut big, 86, 88 + 1052);
    let (_, _, defect) = reject(&big);
    assert_eq!(
        defect,
        ShredDefect::SizeOutOfRange {
            size: 1140,
            min: 88,
            max: 1139
        }
    );
    let mut past = good.clone();
    set_u16(&mut past, 86, size as u16 + 1);
    let (_, _, defect) = reject(&past);
    assert_eq!(
        defect,
        ShredDefect::TooShort {
            len: size,
            need: size + 1
        }
    );
    // Legacy shreds have no Merkle root.
    let s = ShredRef::parse(&good).expect("valid");
    assert!(matches!(
        merkle_root(&s),
        Err(FormatError::InvalidShred {
            defect: ShredDefect::WrongKind { .. },
            ..
        })
    ));
}

#[test]
fn coding_header_rules_each_have_their_defect() {
    let good = v2_code();
    let s = ShredRef::parse(&good).expect("valid");
    let (index, position) = (s.index().0, s.position().expect("code"));
    let bad = |field, value| ShredDefect::InvalidCodeHeader { field, value };
    let check = |mutate: &dyn Fn(&mut Vec<u8>), want: ShredDefect| {
        let mut b = good.clone();
        mutate(&mut b);
        let (slot, idx, defect) = reject(&b);
        assert_eq!(defect, want);
        assert_eq!((slot, idx.is_some()), (Some(s.slot()), true));
    };
    check(&|b| set_u16(b, 83, 0), bad("num_data", 0));
    check(&|b| set_u16(b, 85, 0), bad("num_code", 0));
    check(&|b| set_u16(b, 85, 257), bad("num_code", 257));
    check(&|b| set_u16(b, 87, 32), bad("position", 32));
    assert_eq!(position, 3);
    check(&|b| set_u32(b, 73, 2), bad("position", 3));
    check(&|b| set_u32(b, 79, 32_768 - 31), bad("num_data", 32));
    check(&|b| set_u32(b, 73, 32_767), bad("num_code", 32));
    check(
        &|b| set_u32(b, 73, 40_000),
        ShredDefect::IndexTooLarge(40_000),
    );
    // Code shreds may sit at an index below their set's fec_set_index (own sequence).
    let mut low = good.clone();
    set_u32(&mut low, 79, index + 100);
    assert!(ShredRef::parse(&low).is_ok());
}

#[test]
fn leaf_position_outside_the_proof_is_an_invalid_proof() {
    let mut b = testnet_data();
    // Index 40 in a set starting at 32 is leaf 8; pretend the set starts 64 earlier.
    set_u32(&mut b, 73, 40 + 64);
    set_u32(&mut b, 79, 32);
    let s = ShredRef::parse(&b).expect("header is fine");
    match merkle_root(&s) {
        Err(FormatError::InvalidShred {
            slot,
            index,
            defect,
        }) => {
            assert_eq!(defect, ShredDefect::InvalidMerkleProof);
            assert_eq!((slot, index), (Some(s.slot()), Some(ShredIndex(104))));
        }
        other => panic!("expected InvalidMerkleProof, got {other:?}"),
    }
    assert!(verify_signature(&s, &Pubkey::default()).is_err());
}

#[test]
fn single_byte_mutations_of_real_shreds_never_panic() {
    for original in [testnet_data(), v2_code(), legacy_data()] {
        for at in 0..original.len().min(100) {
            for v in [0x00, 0x01, 0x7F, 0x80, 0xFF] {
                let mut b = original.clone();
                b[at] = v;
                exercise(&b);
            }
        }
    }
}
