//! Scenario: the one block reader (`fetch::BlockReader`) behind `getBlock`, `FetchedBlock`
//! and the archive's block records: the block's frame and data sets, the meta a caller
//! already read (with the dead flag) handed over instead of read again, a parent that does
//! not decode giving no previous blockhash (as Agave), a parent read whole before giving
//! its blockhash without being read again, and a purged or dead slot answered the same way
//! by every reader.

use std::path::Path;

use bstore_ledger::fetch::{BlockReader, FetchBuffer, SlotRead, parent_blockhash};
use bstore_ledger::store::columns::Meta;
use bstore_ledger::store::{Blockstore, FaultEngine, FaultPoint, KvEngine, MemEngine, ReadPath};
use bstore_ledger::{Hash, LedgerError, Slot};

use crate::fetch_block_frame::two_sets;

/// Slots 1 (entries 1, 2) and 2 (entries 3, 4, child of 1), both full.
fn ledger<E: KvEngine>(store: &Blockstore<E>) {
    for sets in [two_sets(1, 0, 1), two_sets(2, 1, 3)] {
        for set in &sets {
            store.insert_shreds(set).expect("insert");
        }
    }
}

#[test]
fn a_checked_meta_is_not_read_again() {
    let store = Blockstore::with_engine(FaultEngine::new(MemEngine::new()), Path::new(""));
    ledger(&store);
    let mut buf = FetchBuffer::new();
    let reads = || store.faults().seen(FaultPoint::Read);

    let before = reads();
    let block = store
        .block(Slot(2), SlotRead::Unread, &mut buf)
        .expect("read")
        .expect("a block");
    let unread = reads() - before;
    assert_eq!(
        (
            block.parent_slot(),
            block.blockhash,
            block.previous_blockhash
        ),
        (Slot(1), Hash([4; 32]), Some(Hash([2; 32])))
    );
    assert_eq!(block.sets.len(), 2);
    assert_eq!(block.signatures().len(), 0, "tick-only entries");

    let meta = store.meta(Slot(2)).expect("read").expect("meta");
    let before = reads();
    let block = store
        .block(Slot(2), SlotRead::Checked(meta), &mut buf)
        .expect("read")
        .expect("a block");
    assert_eq!(block.blockhash, Hash([4; 32]));
    assert_eq!(unread - (reads() - before), 2, "the meta and the dead flag");
}

#[test]
fn a_parent_read_whole_before_is_not_read_again_for_its_blockhash() {
    for (path, memo) in [
        (ReadPath::Scan, true),
        (ReadPath::MultiGet, true),
        (ReadPath::Scan, false),
    ] {
        let store = Blockstore::with_engine(FaultEngine::new(MemEngine::new()), Path::new(""));
        store.set_read_path(path);
        if !memo {
            store.set_transaction_memo_budget(0);
        }
        ledger(&store);
        let mut buf = FetchBuffer::new();
        let cost = || {
            let f = store.faults();
            f.seen(FaultPoint::Read) + f.seen(FaultPoint::CursorStep)
        };
        let mut read_two = || {
            let before = cost();
            let block = store
                .block(Slot(2), SlotRead::Unread, &mut buf)
                .expect("read")
                .expect("a block");
            assert_eq!(block.previous_blockhash, Some(Hash([2; 32])), "{path:?}");
            cost() - before
        };
        let cold = read_two();
        let mut parent_buf = FetchBuffer::new();
        let parent = store
            .block(Slot(1), SlotRead::Unread, &mut parent_buf)
            .expect("read")
            .expect("the parent");
        assert_eq!(parent.blockhash, Hash([2; 32]));
        let warm = read_two();
        if memo {
            assert!(
                warm < cold,
                "{path:?}: {warm} reads after the parent's, {cold} before"
            );
        } else {
            assert_eq!(warm, cold, "the memo off: the parent is read each time");
        }
        // Purged: forgotten with the rest of the slot, so no stale blockhash is given.
        store.purge_slots(Slot(1), Slot(1)).expect("purge");
        let block = store
            .block(Slot(2), SlotRead::Unread, &mut buf)
            .expect("read")
            .expect("a block");
        assert_eq!(block.previous_blockhash, None);
    }
}

#[test]
fn a_parent_that_does_not_decode_gives_no_previous_blockhash() {
    let store = Blockstore::in_memory();
    ledger(&store);
    let mut batch = store.row_batch().expect("writable");
    batch.put_bytes::<Meta>(Slot(1), &[7; 5]).expect("put");
    store.write_rows(batch).expect("write");
    let mut buf = FetchBuffer::new();
    // The frame rule alone reports the damage...
    assert!(matches!(
        parent_blockhash(&store, Some(Slot(1)), &mut buf),
        Err(LedgerError::CorruptValue { column: "meta", .. })
    ));
    // ...a block reader answers without a previous blockhash, as Agave's blockstore does.
    let block = store
        .block(Slot(2), SlotRead::Unread, &mut buf)
        .expect("the child still reads")
        .expect("a block");
    assert_eq!(block.previous_blockhash, None);
    let record = store.block_record(Slot(2), &mut buf).expect("a record");
    assert_eq!(record.previous_blockhash, Hash::default());
    assert_eq!(record.blockhash, Hash([4; 32]));
}

#[test]
fn purged_and_dead_slots_are_named_by_every_reader() {
    let store = Blockstore::in_memory();
    ledger(&store);
    let mut buf = FetchBuffer::new();
    store.set_dead_slot(Slot(2)).expect("dead");
    assert!(matches!(
        store.block(Slot(2), SlotRead::Unread, &mut buf),
        Err(LedgerError::DeadSlot { slot: Slot(2) })
    ));
    assert_eq!(
        store
            .block_record(Slot(2), &mut buf)
            .map(|_| ())
            .map_err(|e| e.kind()),
        Err("dead_slot")
    );
    store.purge_slots(Slot(2), Slot(2)).expect("purge");
    assert!(matches!(
        store.block(Slot(2), SlotRead::Unread, &mut buf),
        Err(LedgerError::SlotCleanedUp { slot: Slot(2) })
    ));
    // A record of a purged slot says so (it said "no slot meta" before the readers
    // were one).
    assert_eq!(
        store
            .block_record(Slot(2), &mut buf)
            .map(|_| ())
            .map_err(|e| e.kind()),
        Err("slot_cleaned_up")
    );
    assert!(
        store
            .block(Slot(9), SlotRead::Unread, &mut buf)
            .expect("read")
            .is_none(),
        "a slot never stored is no block"
    );
}
