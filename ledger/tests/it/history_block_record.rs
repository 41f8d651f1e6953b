//! Scenario: a real testnet slot with history rows written beside it (statuses for some of
//! its transactions, rewards, block time) gives a `BlockRecord` whose entry sets are exactly
//! the slot's entries, whose statuses line up with the block's transactions by signature
//! (one multi-get, whatever the signature order), and which survives its own encoding.

use crate::common;

use bstore_ledger::entry::{EntriesView, decode_entries};
use bstore_ledger::fetch::{EntryFetch, FetchBuffer};
use bstore_ledger::history::BlockRecord;
use bstore_ledger::store::columns::{Rewards, TransactionStatus};
use bstore_ledger::store::{Blockstore, MemEngine};
use bstore_ledger::{Signature, Slot};

const FILE: &str = "sig-testnet-417955322/shreds.bin";

fn stored_slot() -> (Blockstore<MemEngine>, Slot) {
    let packets = common::read_records(FILE);
    let store = Blockstore::in_memory();
    store
        .insert_shreds_with(&packets, common::insert_options(FILE))
        .expect("inserts");
    // The parent has a meta too (made by the child's insert); the slot is the highest.
    let slot = store.highest_slot().expect("reads").expect("a slot");
    (store, slot)
}

/// A status value that names its transaction (any bytes: the record keeps them raw).
fn status_of(sig: &[u8; 64]) -> Vec<u8> {
    let mut v = b"status:".to_vec();
    v.extend_from_slice(&sig[..8]);
    v
}

#[test]
fn block_record_holds_the_slot_and_its_rows() {
    let (store, slot) = stored_slot();
    let entries = store.get_slot_entries(slot, 0).expect("fetches");
    let signatures: Vec<[u8; 64]> = entries
        .iter()
        .flat_map(|e| e.transactions.iter())
        .map(|tx| *tx.first_signature().expect("signed").as_bytes())
        .collect();
    assert!(signatures.len() > 3, "the slot carries transactions");

    // Statuses for every other transaction, rewards and a block time.
    let mut batch = store.row_batch().expect("writable");
    for sig in signatures.iter().step_by(2) {
        batch
            .put_bytes::<TransactionStatus>((Signature(*sig), slot), &status_of(sig))
            .expect("put");
        // The same signature in another slot must not be picked up.
        batch
            .put_bytes::<TransactionStatus>((Signature(*sig), Slot(slot.0 + 1)), b"other")
            .expect("put");
    }
    batch.put_bytes::<Rewards>(slot, b"rewards").expect("put");
    store.write_rows(batch).expect("writes");
    store.set_block_time(slot, 1_700_000_000).expect("time");

    let mut buf = FetchBuffer::default();
    let record = store.block_record(slot, &mut buf).expect("record");
    assert_eq!(record.slot, slot);
    assert_eq!(record.block_time, Some(1_700_000_000));
    assert_eq!(record.block_height, None);
    assert_eq!(record.rewards.as_deref(), Some(&b"rewards"[..]));
    let mut decoded = Vec::new();
    for set in &record.entry_sets {
        decoded.extend(decode_entries(set).expect("entry set decodes"));
        EntriesView::parse(set).expect("entry set parses as a view");
    }
    assert_eq!(decoded, entries);
    assert_eq!(record.blockhash, entries.last().expect("entries").hash);
    assert_eq!(record.statuses.len(), signatures.len());
    for (i, (sig, status)) in signatures.iter().zip(&record.statuses).enumerate() {
        let want = (i % 2 == 0).then(|| status_of(sig));
        assert_eq!(status, &want, "transaction {i}");
    }
    assert_eq!(
        BlockRecord::decode(&record.encode()).expect("decodes"),
        record
    );
}

#[test]
fn a_slot_that_is_not_stored_has_no_record() {
    let (store, slot) = stored_slot();
    let mut buf = FetchBuffer::default();
    let e = store
        .block_record(Slot(slot.0 + 100), &mut buf)
        .expect_err("no such slot");
    assert_eq!(e.kind(), "invalid_block_record");
    assert!(e.to_string().contains("no slot meta"), "{e}");
}
