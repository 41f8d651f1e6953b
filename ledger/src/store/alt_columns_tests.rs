//! Key and value layouts of the Agave 4.x families, bytes written by hand from
//! `docs/on-disk-layout.md#agave-4x-column-families`.

use proptest::prelude::*;

use super::*;
use crate::error::LedgerError;
use crate::shred::ShredKind;
use crate::store::Column;
use crate::store::agave_meta::MerkleRootMeta;
use crate::store::slot_meta::SlotMeta;
use crate::types::Slot;

const ID: Hash = Hash([0xAB; 32]);

fn slot_and_id(slot: u8) -> Vec<u8> {
    let mut k = vec![0, 0, 0, 0, 0, 0, 0, slot];
    k.extend([0xAB; 32]);
    k
}

#[test]
fn keys_are_slot_block_id_then_index_big_endian() {
    assert_eq!(AltMeta::encode_key((Slot(7), ID)).to_vec(), slot_and_id(7));
    assert_eq!(AltIndex::encode_key((Slot(7), ID)).to_vec(), slot_and_id(7));
    let mut shred = slot_and_id(7);
    shred.extend([0, 0, 0, 0, 0, 0, 1, 2]);
    assert_eq!(
        AltDataShred::encode_key((Slot(7), ID, 0x0102)).to_vec(),
        shred
    );
    assert_eq!(
        AltDataShred::decode_key(&shred).ok(),
        Some((Slot(7), ID, 0x0102))
    );
    let mut root = slot_and_id(7);
    root.extend([0, 0, 0, 32]);
    assert_eq!(
        AltMerkleRootMeta::encode_key((Slot(7), ID, 32)).to_vec(),
        root
    );
    assert_eq!(
        AltMerkleRootMeta::decode_key(&root).ok(),
        Some((Slot(7), ID, 32))
    );
    // The original block is keyed with 32 zero bytes.
    let original = DoubleMerkleMetaColumn::encode_key((Slot(7), BlockLocation::Original));
    assert_eq!(&original[8..], &[0u8; 32]);
    assert_eq!(
        DoubleMerkleMetaColumn::decode_key(&slot_and_id(7)).ok(),
        Some((Slot(7), BlockLocation::Alternate { block_id: ID }))
    );
}

#[test]
fn corrupt_keys_and_values_are_errors_naming_the_column() {
    assert!(matches!(
        AltMeta::decode_key(&[0; 39]),
        Err(LedgerError::CorruptKey {
            column: "alt_meta",
            ..
        })
    ));
    let mut huge = slot_and_id(1);
    huge.extend([0, 0, 0, 1, 0, 0, 0, 0]); // index 2^32
    assert!(AltDataShred::decode_key(&huge).is_err());
    let meta = SlotMeta::new(Slot(4), Some(Slot(3))).encode();
    assert!(matches!(
        AltMeta::decode_value((Slot(5), ID), &meta),
        Err(LedgerError::CorruptValue {
            column: "alt_meta",
            ..
        })
    ));
    let mut bomb = vec![0u8; 36];
    bomb.extend(u64::MAX.to_le_bytes());
    assert!(matches!(
        DoubleMerkleMetaColumn::decode_value((Slot(1), BlockLocation::Original), &bomb),
        Err(LedgerError::CorruptValue {
            column: "double_merkle_meta",
            ..
        })
    ));
}

#[test]
fn double_merkle_meta_layout() {
    let meta = DoubleMerkleMeta {
        double_merkle_root: Hash([9; 32]),
        fec_set_count: 3,
        proofs: vec![1; 4 * 2 * MERKLE_PROOF_ENTRY_BYTES],
    };
    let mut want = vec![9u8; 32];
    want.extend([3, 0, 0, 0]);
    want.extend(160u64.to_le_bytes());
    want.extend([1u8; 160]);
    assert_eq!(meta.encode(), want);
    assert_eq!(DoubleMerkleMeta::decode(&want), Ok(meta));
    assert!(DoubleMerkleMeta::decode(&want[..want.len() - 1]).is_err());
}

#[test]
fn alt_values_share_the_primary_layouts() {
    let root = MerkleRootMeta {
        merkle_root: Some(Hash([3; 32])),
        first_received_shred_index: 5,
        first_received_shred_kind: ShredKind::Data,
    };
    let key = (Slot(1), ID, 0);
    assert_eq!(
        AltMerkleRootMeta::decode_value(key, &AltMerkleRootMeta::encode_value(&root)).ok(),
        Some(root)
    );
    let mut meta = SlotMeta::new(Slot(5), Some(Slot(4)));
    meta.parent_block_id = Hash([2; 32]);
    assert_eq!(
        AltMeta::decode_value((Slot(5), ID), &AltMeta::encode_value(&meta)).ok(),
        Some(meta)
    );
}

proptest! {
    #[test]
    fn key_order_is_slot_then_block_then_index(
        a in (any::<u64>(), any::<[u8; 32]>(), any::<u32>()),
        b in (any::<u64>(), any::<[u8; 32]>(), any::<u32>()),
    ) {
        let ka = AltDataShred::encode_key((Slot(a.0), Hash(a.1), a.2));
        let kb = AltDataShred::encode_key((Slot(b.0), Hash(b.1), b.2));
        prop_assert_eq!(ka.cmp(&kb), a.cmp(&b));
        prop_assert_eq!(AltDataShred::decode_key(&ka).ok(), Some((Slot(a.0), Hash(a.1), a.2)));
    }

    #[test]
    fn double_merkle_meta_round_trips(
        root in any::<[u8; 32]>(), count in any::<u32>(),
        proofs in proptest::collection::vec(any::<u8>(), 0..400),
    ) {
        let meta = DoubleMerkleMeta { double_merkle_root: Hash(root), fec_set_count: count, proofs };
        prop_assert_eq!(DoubleMerkleMeta::decode(&meta.encode()), Ok(meta));
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..120)) {
        let _ = DoubleMerkleMeta::decode(&bytes);
        let _ = AltDataShred::decode_key(&bytes);
        let _ = AltMerkleRootMeta::decode_key(&bytes);
        let _ = DoubleMerkleMetaColumn::decode_key(&bytes);
    }
}
