//! Scenario: `meta` rows are Agave 4.x's V3 byte for byte, older rows read as 4.x reads them,
//! and the 4.x fields Agave wrote survive bstore's inserts (a meta is rewritten with what it
//! held).

use bstore_ledger::entry::{Entry, encode_entries};
use bstore_ledger::shred::{BatchOptions, LastInSlot, Resign, Shredder};
use bstore_ledger::store::columns::Meta;
use bstore_ledger::store::{Blockstore, MemEngine, SlotMeta, SlotMetaFormat};
use bstore_ledger::{Hash, Slot};
use ed25519_dalek::SigningKey;

/// Slot `slot` (parent `parent`) as 64 data shreds: two full 32:32 sets, the last one
/// ending the slot.
fn slot_shreds(slot: u64, parent: u64) -> Vec<Vec<u8>> {
    let key = SigningKey::from_bytes(&[5u8; 32]);
    let mut shredder = Shredder::new(Slot(slot), Slot(parent), 1, key).expect("shape");
    let entries = vec![Entry {
        num_hashes: 7,
        hash: Hash([2; 32]),
        transactions: Vec::new(),
    }];
    let mut out = Vec::new();
    for last in [LastInSlot::No, LastInSlot::Yes] {
        let opts = BatchOptions {
            last_in_slot: last,
            reference_tick: 0,
            resign_last: Resign::No,
        };
        out.extend(
            shredder
                .shred_batch(&encode_entries(&entries), opts)
                .expect("shreds"),
        );
    }
    out
}

fn raw_meta(store: &Blockstore<MemEngine>, slot: u64) -> Vec<u8> {
    store
        .row_bytes::<Meta>(Slot(slot))
        .expect("read")
        .expect("meta row")
        .to_vec()
}

fn put_raw_meta(store: &Blockstore<MemEngine>, slot: u64, bytes: &[u8]) {
    let mut batch = store.row_batch().expect("batch");
    batch.put_bytes::<Meta>(Slot(slot), bytes).expect("put");
    store.write_rows(batch).expect("write");
}

/// The bytes Agave 4.x writes for this meta, built field by field from the layout in
/// `docs/on-disk-layout.md#slotmeta` (not with the codec under test).
fn v3_bytes(meta: &SlotMeta, completed: &[u32], block_id: [u8; 32], replay: u32) -> Vec<u8> {
    let mut b = Vec::new();
    b.extend(meta.slot.0.to_le_bytes());
    b.extend(meta.consumed.to_le_bytes());
    b.extend(meta.received.to_le_bytes());
    b.extend(meta.first_shred_timestamp.to_le_bytes());
    b.extend(meta.last_index.unwrap_or(u64::MAX).to_le_bytes());
    b.extend(meta.parent_slot.map_or(u64::MAX, |p| p.0).to_le_bytes());
    b.extend((meta.next_slots.len() as u64).to_le_bytes());
    for s in &meta.next_slots {
        b.extend(s.0.to_le_bytes());
    }
    b.push(meta.connected_flags);
    b.extend(4096u64.to_le_bytes());
    let mut bitmap = [0u8; 4096];
    for &i in completed {
        bitmap[i as usize / 8] |= 1 << (i % 8);
    }
    b.extend(bitmap);
    b.extend(block_id);
    b.extend(replay.to_le_bytes());
    b
}

#[test]
fn a_stored_meta_is_agave_4x_v3_byte_for_byte() {
    let store = Blockstore::in_memory();
    let out = store.insert_shreds(slot_shreds(6, 5)).expect("insert");
    assert!(out.rejected.is_empty(), "{:?}", out.rejected);
    let meta = store.meta(Slot(6)).expect("read").expect("meta");
    assert_eq!((meta.consumed, meta.last_index), (64, Some(63)));
    let bytes = raw_meta(&store, 6);
    assert_eq!(bytes, v3_bytes(&meta, &[31, 63], [0; 32], 0));
    assert_eq!(bytes.len(), 8 * 7 + 1 + 8 + 4096 + 36);
}

#[test]
fn fields_agave_wrote_survive_inserts() {
    let store = Blockstore::in_memory();
    let shreds = slot_shreds(6, 5);
    store.insert_shreds(&shreds[..32]).expect("first set");
    // Agave 4.x learned the parent's block id and an UpdateParent at set 32.
    let mut meta = store.meta(Slot(6)).expect("read").expect("meta");
    meta.parent_block_id = Hash([0x5A; 32]);
    meta.replay_fec_set_index = 32;
    put_raw_meta(&store, 6, &meta.encode());
    store.insert_shreds(&shreds[32..]).expect("second set");
    let after = store.meta(Slot(6)).expect("read").expect("meta");
    assert!(after.is_full());
    assert_eq!(after.parent_block_id, Hash([0x5A; 32]));
    assert_eq!(after.replay_fec_set_index, 32);
    assert_eq!(
        raw_meta(&store, 6),
        v3_bytes(&after, &[31, 63], [0x5A; 32], 32)
    );
}

#[test]
fn older_rows_read_as_agave_4x_reads_them_and_are_rewritten_as_v3() {
    let store = Blockstore::in_memory();
    let shreds = slot_shreds(6, 5);
    store.insert_shreds(&shreds[..32]).expect("first set");
    let meta = store.meta(Slot(6)).expect("read").expect("meta");
    for format in [SlotMetaFormat::V1, SlotMetaFormat::V2] {
        put_raw_meta(&store, 6, &meta.encode_as(format));
        let read = store.meta(Slot(6)).expect("read").expect("meta");
        assert_eq!(read, meta, "{format:?} reads with zero 4.x fields");
    }
    store.insert_shreds(&shreds[32..]).expect("second set");
    let after = store.meta(Slot(6)).expect("read").expect("meta");
    assert_eq!(raw_meta(&store, 6), v3_bytes(&after, &[31, 63], [0; 32], 0));
}

#[test]
fn a_truncated_v3_row_is_an_error_naming_the_slot() {
    let store = Blockstore::in_memory();
    store
        .insert_shreds(&slot_shreds(6, 5)[..32])
        .expect("insert");
    let mut bytes = raw_meta(&store, 6);
    bytes.truncate(bytes.len() - 4);
    put_raw_meta(&store, 6, &bytes);
    let err = store.meta(Slot(6)).expect_err("corrupt");
    let text = err.to_string();
    assert!(text.contains("meta") && text.contains("slot 6"), "{text}");
}
