//! Scenario: `getTransaction`'s lookup of one transaction in its block
//! (`Blockstore::find_block_transaction`, which reads the block's data sets one at a time
//! through one cursor, or in growing groups of multi-gets, and stops at the one holding it) finds every transaction of real slots at the position and
//! with the bytes the whole-block fetch gives; a signature not in the block, a slot without a
//! meta, a dead slot and a purged one are answered as the whole-block fetch answers them (a
//! slot whose meta is gone since the caller read it as a purged one).
#![cfg(feature = "storage")]

use crate::common;

use bstore_ledger::fetch::{FetchBuffer, fetch_block_views};
use bstore_ledger::shred::ShredRef;
use bstore_ledger::store::{AccessMode, Blockstore, ReadPath};
use bstore_ledger::{LedgerError, Slot};

/// Real slots with transactions spread over many data sets (records or ar archives).
fn real_slots() -> Vec<(&'static str, Vec<Vec<u8>>)> {
    vec![
        (
            "sig-testnet-417955322/shreds.bin",
            common::read_records("sig-testnet-417955322/shreds.bin"),
        ),
        (
            "firedancer/localnet-shreds/localnet-slot50-shreds.ar",
            common::read_ar("firedancer/localnet-shreds/localnet-slot50-shreds.ar"),
        ),
    ]
}

fn store_with(rel: &str, shreds: &[Vec<u8>]) -> (tempfile::TempDir, Blockstore, Slot) {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Blockstore::open(dir.path(), AccessMode::ReadWrite).expect("open");
    store
        .insert_shreds_with(shreds, common::insert_options(rel))
        .expect("insert");
    let slot = ShredRef::parse(&shreds[0]).expect("parses").slot();
    (dir, store, slot)
}

#[test]
fn every_transaction_of_real_slots_is_found_where_the_whole_block_has_it() {
    let mut checked = 0;
    // The scan path walks one cursor a data set at a time; the multi-get path reads
    // doubling groups.
    for ((rel, shreds), path) in real_slots()
        .into_iter()
        .flat_map(|s| [(s.clone(), ReadPath::Scan), (s, ReadPath::MultiGet)])
    {
        let (_dir, store, slot) = store_with(rel, &shreds);
        store.set_read_path(path);
        let meta = store.meta(slot).expect("read").expect("a meta");
        let mut whole = FetchBuffer::new();
        let views = fetch_block_views(&store, slot, &meta, &mut whole).expect("whole block");
        let txs: Vec<_> = views
            .sets
            .iter()
            .flat_map(|s| s.entries.transactions())
            .collect();
        assert!(
            views.sets.len() > 1 && !txs.is_empty(),
            "{rel}: a block of several data sets with transactions"
        );
        let mut buf = FetchBuffer::new();
        for (index, tx) in txs.iter().enumerate() {
            let signature = tx.first_signature().expect("signed");
            // Only the first transaction with a signature is what a lookup by it finds.
            let first = txs
                .iter()
                .position(|t| t.first_signature() == Some(signature))
                .expect("present");
            if first != index {
                continue;
            }
            let found = store
                .find_block_transaction(slot, &meta, signature, &mut buf)
                .expect("lookup")
                .expect("found");
            assert_eq!(found.index as usize, index, "{rel}: position");
            assert_eq!(found.transaction.bytes(), tx.bytes(), "{rel}: bytes");
            checked += 1;
        }
        assert!(
            store
                .find_block_transaction(slot, &meta, &[0xEE; 64], &mut buf)
                .expect("lookup")
                .is_none(),
            "{rel}: a signature not in the block"
        );
    }
    assert!(checked > 200, "only {checked} transactions looked up");
}

#[test]
fn a_missing_dead_or_purged_slot_is_answered_as_the_whole_block_fetch_answers_it() {
    let rel = "sig-testnet-417955322/shreds.bin";
    let (_dir, store, slot) = store_with(rel, &common::read_records(rel));
    let meta = store.meta(slot).expect("read").expect("a meta");
    let mut buf = FetchBuffer::new();
    let sig = {
        let views = fetch_block_views(&store, slot, &meta, &mut buf).expect("whole block");
        *views
            .sets
            .iter()
            .flat_map(|s| s.entries.transactions())
            .last()
            .expect("a transaction")
            .first_signature()
            .expect("signed")
    };
    // The caller's meta is what the lookup reads the block by: a slot whose meta is gone
    // since the caller read it (here: another slot's, never stored) is a cleaned-up slot.
    assert!(matches!(
        store.find_block_transaction(Slot(slot.0 + 1), &meta, &sig, &mut buf),
        Err(LedgerError::SlotCleanedUp { .. })
    ));
    store.set_dead_slot(slot).expect("mark dead");
    assert!(matches!(
        store.find_block_transaction(slot, &meta, &sig, &mut buf),
        Err(LedgerError::DeadSlot { .. })
    ));
    store.purge_slots(slot, slot).expect("purge");
    assert!(matches!(
        store.find_block_transaction(slot, &meta, &sig, &mut buf),
        Err(LedgerError::SlotCleanedUp { .. })
    ));
}
