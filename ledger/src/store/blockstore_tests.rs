//! Blockstore unit tests: pinned multi-get, Agave V1 metas, corrupt values, unknown
//! column families.

use super::*;
use crate::LedgerError;
use crate::store::columns::Meta;
use crate::store::slot_meta::SlotMetaFormat;

fn assert_send_sync<T: Send + Sync>() {}

#[test]
fn blockstore_is_send_and_sync() {
    assert_send_sync::<Blockstore>();
}

/// A Merkle data shred payload of `slot`/`index` (parent `slot - 1`), flags `flags`.
fn data_shred(slot: u64, index: u32, flags: u8) -> Vec<u8> {
    let mut p = vec![0u8; crate::shred::MERKLE_DATA_PAYLOAD_LEN];
    p[64] = 0x96; // chained Merkle data, proof size 6
    p[65..73].copy_from_slice(&slot.to_le_bytes());
    p[73..77].copy_from_slice(&index.to_le_bytes());
    p[79..83].copy_from_slice(&(index / 32 * 32).to_le_bytes());
    p[83..85].copy_from_slice(&1u16.to_le_bytes());
    p[85] = flags;
    p[86..88].copy_from_slice(&100u16.to_le_bytes());
    p[88] = index as u8;
    p
}

#[test]
fn multi_get_returns_pinned_shreds_in_key_order() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Blockstore::open(dir.path(), AccessMode::ReadWrite).expect("open");
    let shreds: Vec<Vec<u8>> = [0, 1, 3, 4]
        .into_iter()
        .map(|i| data_shred(9, i, if i == 4 { 0x40 } else { 0 }))
        .collect();
    // Hand-made shreds with zeroed proofs: no common root, so the root check is off; an
    // unchained variant with DATA_COMPLETE inside its set, so the 4.x shape rules are too.
    let options = crate::store::InsertOptions {
        merkle: crate::store::MerkleCheck::Skip,
        shape: crate::store::ShapeRules::Legacy,
        ..Default::default()
    };
    let out = store.insert_shreds_with(&shreds, options).expect("insert");
    assert_eq!(out.inserted, 4);
    let got = store
        .multi_get_data_shreds(Slot(9), 0, 6)
        .expect("multi-get");
    let present: Vec<Option<u8>> = got.iter().map(|v| v.as_ref().map(|b| b[88])).collect();
    assert_eq!(
        present,
        vec![Some(0), Some(1), None, Some(3), Some(4), None]
    );
    assert_eq!(got[0].as_deref(), Some(&shreds[0][..]));
    assert!(
        store
            .multi_get_data_shreds(Slot(9), 3, 3)
            .expect("empty")
            .is_empty()
    );
    assert!(
        store
            .multi_get_data_shreds(Slot(8), 0, 2)
            .expect("other")
            .iter()
            .all(Option::is_none)
    );
    let meta = store.meta(Slot(9)).expect("meta").expect("stored");
    assert_eq!((meta.consumed, meta.received), (2, 5));
    assert!(out.completed_data_sets.is_empty());
    let out = store
        .insert_shreds_with([data_shred(9, 2, 0)], options)
        .expect("insert");
    assert_eq!(
        out.completed_data_sets,
        vec![crate::store::CompletedDataSet {
            slot: Slot(9),
            start: 0,
            end: 5
        }]
    );
}

#[test]
fn reads_agave_v1_meta_and_reports_corrupt_meta() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Blockstore::open(dir.path(), AccessMode::ReadWrite).expect("open");
    let mut v1 = SlotMeta::new(Slot(3), Some(Slot(2)));
    v1.completed_data_indexes.insert(5);
    let mut batch = store.engine.batch().expect("writable");
    batch
        .put_bytes::<Meta>(Slot(3), &v1.encode_as(SlotMetaFormat::V1))
        .expect("put");
    batch.put_bytes::<Meta>(Slot(4), &[1, 2, 3]).expect("put");
    store.engine.write(batch).expect("write");
    assert_eq!(store.meta(Slot(3)).expect("V1 decodes"), Some(v1));
    assert!(matches!(
        store.meta(Slot(4)),
        Err(LedgerError::CorruptValue { column: "meta", .. })
    ));
    // The iterator reports the corrupt row as an error and stops there.
    let metas: Vec<_> = store.slot_metas(..).collect();
    assert_eq!(metas.len(), 2);
    assert!(metas[0].is_ok() && metas[1].is_err());
    // Inserting into the slot rewrites its meta as V2 (the only format written).
    store.insert_shreds([data_shred(3, 0, 0)]).expect("insert");
    let meta = store.meta(Slot(3)).expect("read").expect("meta");
    assert_eq!(
        meta.completed_data_indexes.iter().collect::<Vec<_>>(),
        vec![5]
    );
    assert_eq!(meta.consumed, 1);
}

#[test]
fn opens_databases_with_unknown_column_families() {
    let dir = tempfile::tempdir().expect("tempdir");
    crate::store::rocks::tests::create_db_with_extra_cf(dir.path(), "orphans");
    for mode in [AccessMode::ReadOnly, AccessMode::ReadWrite] {
        let store = Blockstore::open(dir.path(), mode).expect("opens with unknown column");
        // Known columns missing on disk read as empty in read-only mode.
        assert_eq!(store.meta(Slot(1)).expect("read"), None);
        assert!(!store.is_root(Slot(1)).expect("read"));
        assert!(
            store
                .multi_get_data_shreds(Slot(1), 0, 2)
                .expect("read")
                .iter()
                .all(Option::is_none)
        );
    }
}
