//! Scenario: a ledger with Agave 4.x's column-family set opens in every access mode with
//! every row of the new families kept and readable typed; a new ledger gets exactly that
//! set; a purge removes the new families' rows of the purged slots, as Agave's does.
#![cfg(feature = "storage")]

use bstore_ledger::shred::ShredKind;
use bstore_ledger::store::alt_columns::{
    AltDataShred, AltIndex, AltMerkleRootMeta, AltMeta, BlockLocation, DoubleMerkleMetaColumn,
};
use bstore_ledger::store::{
    AccessMode, Blockstore, Column, DoubleMerkleMeta, MerkleRootMeta, RocksEngine, RowBatch,
    SlotIndex, SlotMeta,
};
use bstore_ledger::{Hash, Slot};

const ID: Hash = Hash([0x42; 32]);

/// The rows of the five 4.x families for `slot`, as encoded values.
struct Rows {
    meta: SlotMeta,
    index: SlotIndex,
    shred: Vec<u8>,
    root: MerkleRootMeta,
    double: DoubleMerkleMeta,
}

fn rows(slot: u64) -> Rows {
    let s = Slot(slot);
    let mut meta = SlotMeta::new(s, Some(Slot(slot - 1)));
    meta.parent_block_id = Hash([7; 32]);
    meta.replay_fec_set_index = 32;
    Rows {
        meta,
        index: SlotIndex {
            slot: s,
            data: [0u32, 1].into_iter().collect(),
            code: [0u32].into_iter().collect(),
        },
        shred: vec![0xEE; 1203],
        root: MerkleRootMeta {
            merkle_root: Some(Hash([3; 32])),
            first_received_shred_index: 0,
            first_received_shred_kind: ShredKind::Data,
        },
        double: DoubleMerkleMeta {
            double_merkle_root: Hash([8; 32]),
            fec_set_count: 1,
            proofs: vec![1; 2 * 20],
        },
    }
}

const ALTERNATE: BlockLocation = BlockLocation::Alternate { block_id: ID };

fn put_rows(batch: &mut RowBatch<'_, RocksEngine>, slot: u64) {
    let (s, r) = (Slot(slot), rows(slot));
    batch.put::<AltMeta>((s, ID), &r.meta).expect("put");
    batch.put::<AltIndex>((s, ID), &r.index).expect("put");
    batch
        .put::<AltDataShred>((s, ID, 1), &r.shred)
        .expect("put");
    batch
        .put::<AltMerkleRootMeta>((s, ID, 0), &r.root)
        .expect("put");
    batch
        .put::<DoubleMerkleMetaColumn>((s, ALTERNATE), &r.double)
        .expect("put");
}

/// The row of `C` at `key` holds `value` byte for byte (`present`), or is gone.
fn assert_row<C: Column>(store: &Blockstore, key: C::Key, value: &C::Value, present: bool) {
    let got = store.row_bytes::<C>(key).expect("read").map(|v| v.to_vec());
    assert_eq!(
        got,
        present.then(|| C::encode_value(value)),
        "{} {key:?}",
        C::NAME
    );
}

fn assert_rows(store: &Blockstore, slot: u64, present: bool) {
    let (s, r) = (Slot(slot), rows(slot));
    assert_row::<AltMeta>(store, (s, ID), &r.meta, present);
    assert_row::<AltIndex>(store, (s, ID), &r.index, present);
    assert_row::<AltDataShred>(store, (s, ID, 1), &r.shred, present);
    assert_row::<AltMerkleRootMeta>(store, (s, ID, 0), &r.root, present);
    assert_row::<DoubleMerkleMetaColumn>(store, (s, ALTERNATE), &r.double, present);
}

#[test]
fn the_4x_families_open_in_every_mode_with_every_row() {
    let dir = tempfile::tempdir().expect("tempdir");
    {
        let store = Blockstore::open(dir.path(), AccessMode::ReadWrite).expect("create");
        let mut batch = store.row_batch().expect("batch");
        for slot in [10, 11] {
            put_rows(&mut batch, slot);
        }
        store.write_rows(batch).expect("write");
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
            .row::<AltMeta>((Slot(10), ID))
            .expect("read and decode")
            .expect("row");
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
    let mut batch = store.row_batch().expect("batch");
    for slot in [10, 11] {
        put_rows(&mut batch, slot);
    }
    store.write_rows(batch).expect("write");
    store.purge_slots(Slot(10), Slot(10)).expect("purge");
    assert_rows(&store, 10, false);
    assert_rows(&store, 11, true);
}
