//! Scenario: what a block read finds besides the block's rows (`fetch::block_state`), kept
//! by the RPC's kept `getBlock` answers to tell whether a read now would find the same
//! block: the slot meta's frame sees every change but a child's arrival, and the parent's
//! state is the same from the block reader and from `Blockstore::block_parent_state`.

use bstore_ledger::fetch::{BlockFrame, BlockReader, FetchBuffer, ParentState, SlotRead};
use bstore_ledger::store::columns::Meta;
use bstore_ledger::store::{Blockstore, MemEngine, SlotMeta};
use bstore_ledger::{Hash, Slot};

use crate::fetch_block_frame::two_sets;

fn store_with(slots: &[(u64, u64, u8)]) -> Blockstore<MemEngine> {
    let store = Blockstore::in_memory();
    for (slot, parent, first) in slots {
        for set in two_sets(*slot, *parent, *first) {
            store.insert_shreds(&set).expect("insert");
        }
    }
    store
}

fn meta(store: &Blockstore<MemEngine>, slot: u64) -> SlotMeta {
    store.meta(Slot(slot)).expect("read").expect("meta")
}

fn put_meta(store: &Blockstore<MemEngine>, slot: u64, bytes: &[u8]) {
    let mut batch = store.row_batch().expect("batch");
    batch.put_bytes::<Meta>(Slot(slot), bytes).expect("put");
    store.write_rows(batch).expect("write");
}

/// The parent state as the block reader found it reading `slot`'s block, and as
/// `block_parent_state` reads it: they must agree.
fn parent_state(store: &Blockstore<MemEngine>, slot: u64) -> (ParentState, Option<Hash>) {
    let mut buf = FetchBuffer::new();
    let block = store
        .block(Slot(slot), SlotRead::Unread, &mut buf)
        .expect("read")
        .expect("a block");
    let state = store
        .block_parent_state(Slot(slot), &block.meta)
        .expect("state");
    assert_eq!(block.parent_state, state, "slot {slot}");
    (state, block.previous_blockhash)
}

#[test]
fn a_frame_sees_every_change_but_a_child_arriving() {
    let store = store_with(&[(1, 0, 1)]);
    let before = BlockFrame::of(&meta(&store, 1));
    // A child: the parent's next_slots (and connected flags) change, its frame does not.
    for set in two_sets(2, 1, 3) {
        store.insert_shreds(&set).expect("insert");
    }
    let with_child = meta(&store, 1);
    assert_eq!(with_child.next_slots, vec![Slot(2)]);
    assert_eq!(BlockFrame::of(&with_child), before);
    // The same slot written again (another first-shred time), or another set boundary.
    let mut again = with_child.clone();
    again.first_shred_timestamp += 1;
    assert_ne!(BlockFrame::of(&again), before);
    let mut other_sets = with_child.clone();
    assert!(other_sets.completed_data_indexes.remove(31));
    assert_ne!(BlockFrame::of(&other_sets), before);
    other_sets.completed_data_indexes.insert(31);
    assert_eq!(BlockFrame::of(&other_sets), before);
}

#[test]
fn the_parent_state_follows_what_the_previous_blockhash_is_read_from() {
    let store = store_with(&[(1, 0, 1), (2, 1, 3)]);
    let (stored, hash) = parent_state(&store, 2);
    assert_eq!(hash, Some(Hash([2; 32])));
    assert!(matches!(
        &stored,
        ParentState::Stored { dead: false, frame } if *frame == BlockFrame::of(&meta(&store, 1))
    ));
    // Slot 1's parent (0) holds only the placeholder meta slot 1's arrival made: a state
    // with that meta's frame, and no previous blockhash. A parent with no meta, or none
    // named: absent.
    let (placeholder, hash) = parent_state(&store, 1);
    assert_eq!(hash, None);
    assert!(matches!(
        placeholder,
        ParentState::Stored { dead: false, .. }
    ));
    for parent in [Some(Slot(9)), None] {
        let mut orphan = meta(&store, 1);
        orphan.parent_slot = parent;
        let state = store.block_parent_state(Slot(1), &orphan).expect("state");
        assert_eq!(state, ParentState::Absent, "{parent:?}");
    }

    // The parent dead: another state, no previous blockhash.
    store.set_dead_slot(Slot(1)).expect("dead");
    let (dead, hash) = parent_state(&store, 2);
    assert_eq!(hash, None);
    assert!(matches!(dead, ParentState::Stored { dead: true, .. }));
    assert_ne!(dead, stored);

    // The parent's meta unreadable: no previous blockhash either, and a state of its own.
    put_meta(&store, 1, &[7; 5]);
    let (unreadable, hash) = parent_state(&store, 2);
    assert_eq!((unreadable, hash), (ParentState::Unreadable, None));
}
