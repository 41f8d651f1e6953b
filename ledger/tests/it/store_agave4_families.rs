//! Scenario: a ledger with Agave 4.x's column-family set opens in every access mode with
//! every row of the new families kept and readable typed; a new ledger gets exactly that
//! set; a purge removes the new families' rows of the purged slots, as Agave's does.
#![cfg(feature = "storage")]

use bstore_ledger::shred::ShredKind;
use bstore_ledger::store::alt_columns::{
    AltDataShred, AltIndex, AltMerkleRootMeta, AltMeta, BlockLocation, DoubleMerkleMetaColumn,
};
use bstore_ledger::store::kv::{KvBatch, KvRead, KvWrite};
use bstore_ledger::store::{
    AccessMode, Blockstore, Column, DoubleMerkleMeta, MerkleRootMeta, SlotIndex, SlotMeta,
};
use bstore_ledger::{Hash, Slot};

const ID: Hash = Hash([0x42; 32]);

fn rows(slot: u64) -> Vec<(&'static str, Vec<u8>, Vec<u8>)> {
    let s = Slot(slot);
    let mut meta = SlotMeta::new(s, Some(Slot(slot - 1)));
    meta.parent_block_id = Hash([7; 32]);
    meta.replay_fec_set_index = 32;
    let index = SlotIndex {
        slot: s,
        data: [0u32, 1].into_iter().collect(),
        code: [0u32].into_iter().collect(),
    };
    let root = MerkleRootMeta {
        merkle_root: Some(Hash([3; 32])),
        first_received_shred_index: 0,
        first_received_shred_kind: ShredKind::Data,
    };
    let double = DoubleMerkleMeta {
        double_merkle_root: Hash([8; 32]),
        fec_set_count: 1,
        proofs: vec![1; 2 * 20],
    };
    vec![
        (
            AltMeta::NAME,
            AltMeta::encode_key((s, ID)).to_vec(),
            AltMeta::encode_value(&meta),
        ),
        (
            AltIndex::NAME,
            AltIndex::encode_key((s, ID)).to_vec(),
            AltIndex::encode_value(&index),
        ),
        (
            AltDataShred::NAME,
            AltDataShred::encode_key((s, ID, 1)).to_vec(),
            vec![0xEE; 1203],
        ),
        (
            AltMerkleRootMeta::NAME,
            AltMerkleRootMeta::encode_key((s, ID, 0)).to_vec(),
            AltMerkleRootMeta::encode_value(&root),
        ),
        (
            DoubleMerkleMetaColumn::NAME,
            DoubleMerkleMetaColumn::encode_key((s, BlockLocation::Alternate { block_id: ID }))
                .to_vec(),
            DoubleMerkleMetaColumn::encode_value(&double),
        ),
    ]
}

fn assert_rows(store: &Blockstore, slot: u64, present: bool) {
    for (cf, key, value) in rows(slot) {
        let got = store
            .kv()
            .get_pinned(cf, &key)
            .expect("read")
            .map(|v| v.to_vec());
        assert_eq!(got, present.then_some(value), "{cf} of slot {slot}");
    }
}

#[test]
fn the_4x_families_open_in_every_mode_with_every_row() {
    let dir = tempfile::tempdir().expect("tempdir");
    {
        let store = Blockstore::open(dir.path(), AccessMode::ReadWrite).expect("create");
        let mut batch = store.kv().batch().expect("batch");
        for slot in [10, 11] {
            for (cf, key, value) in rows(slot) {
                batch.put(cf, &key, &value).expect("put");
            }
        }
        store.kv().write(batch).expect("write");
    }
    let secondary = tempfile::tempdir().expect("secondary dir");
    let modes = [
        AccessMode::ReadWrite,
        AccessMode::ReadOnly,
        AccessMode::Secondary {
            secondary_path: secondary.path().to_path_buf(),
        },
    ];
    for mode in modes {
        let store = Blockstore::open(dir.path(), mode.clone()).expect("open");
        assert_rows(&store, 10, true);
        assert_rows(&store, 11, true);
        // Typed reads of what was written raw.
        let meta = store
            .kv()
            .get_pinned(AltMeta::NAME, &AltMeta::encode_key((Slot(10), ID)))
            .expect("read")
            .expect("row");
        let meta = AltMeta::decode_value((Slot(10), ID), &meta).expect("decodes");
        assert_eq!(
            (meta.parent_block_id, meta.replay_fec_set_index),
            (Hash([7; 32]), 32)
        );
    }
}

#[test]
fn a_purge_removes_the_4x_rows_of_purged_slots_only() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Blockstore::open(dir.path(), AccessMode::ReadWrite).expect("create");
    let mut batch = store.kv().batch().expect("batch");
    for slot in [10, 11] {
        for (cf, key, value) in rows(slot) {
            batch.put(cf, &key, &value).expect("put");
        }
    }
    store.kv().write(batch).expect("write");
    store.purge_slots(Slot(10), Slot(10)).expect("purge");
    assert_rows(&store, 10, false);
    assert_rows(&store, 11, true);
}
