//! Scenario: the block frame of Agave 4.4 (`fetch::block`): a block starts at its slot's
//! `replay_fec_set_index`, its blockhash is its last entry, and its previous blockhash is
//! the parent's, only from a full parent that is not dead.

use bstore_ledger::entry::{Entry, encode_entries};
use bstore_ledger::fetch::{FetchBuffer, fetch_block_views, parent_blockhash};
use bstore_ledger::shred::{BatchOptions, LastInSlot, Resign, Shredder};
use bstore_ledger::store::columns::Meta;
use bstore_ledger::store::{Blockstore, MemEngine};
use bstore_ledger::{Hash, Slot};
use ed25519_dalek::SigningKey;

fn entry(n: u8) -> Entry {
    Entry {
        num_hashes: 1,
        hash: Hash([n; 32]),
        transactions: Vec::new(),
    }
}

/// `slot`'s two data sets (one 32:32 FEC set each; the second ends the slot), holding one
/// entry each: `first` then `first + 1`.
pub(crate) fn two_sets(slot: u64, parent: u64, first: u8) -> [Vec<Vec<u8>>; 2] {
    let key = SigningKey::from_bytes(&[5u8; 32]);
    let mut shredder = Shredder::new(Slot(slot), Slot(parent), 1, key).expect("shape");
    [(LastInSlot::No, first), (LastInSlot::Yes, first + 1)].map(|(last, n)| {
        let opts = BatchOptions {
            last_in_slot: last,
            reference_tick: 0,
            resign_last: Resign::No,
        };
        shredder
            .shred_batch(&encode_entries(&[entry(n)]), opts)
            .expect("shreds")
    })
}

fn insert(store: &Blockstore<MemEngine>, shreds: &[Vec<u8>]) {
    store.insert_shreds(shreds).expect("insert");
}

/// Rewrites `slot`'s meta with `replay_fec_set_index` (as Agave 4.4 does after an
/// UpdateParent marker at that FEC set).
fn set_replay_start(store: &Blockstore<MemEngine>, slot: u64, start: u32) {
    let mut meta = store.meta(Slot(slot)).expect("read").expect("meta");
    meta.replay_fec_set_index = start;
    let mut batch = store.row_batch().expect("batch");
    batch.put::<Meta>(Slot(slot), &meta).expect("put");
    store.write_rows(batch).expect("write");
}

fn hashes(store: &Blockstore<MemEngine>, slot: u64) -> (Vec<Hash>, Option<Hash>) {
    let meta = store.meta(Slot(slot)).expect("read").expect("meta");
    let mut buf = FetchBuffer::new();
    let views = fetch_block_views(store, Slot(slot), &meta, &mut buf).expect("fetch");
    assert!(views.is_full);
    let entries = views
        .sets
        .iter()
        .flat_map(|s| s.entries.iter().map(|e| e.hash()))
        .collect();
    (entries, views.blockhash())
}

#[test]
fn a_block_starts_at_its_replay_fec_set_index() {
    let store = Blockstore::in_memory();
    for sets in [two_sets(1, 0, 1), two_sets(2, 1, 3)] {
        sets.iter().for_each(|s| insert(&store, s));
    }
    let mut buf = FetchBuffer::new();
    assert_eq!(
        parent_blockhash(&store, Some(Slot(1)), &mut buf).expect("read"),
        Some(Hash([2; 32]))
    );
    assert_eq!(
        hashes(&store, 2),
        (vec![Hash([3; 32]), Hash([4; 32])], Some(Hash([4; 32])))
    );
    // After an UpdateParent at FEC set 32, what precedes it is not part of the block.
    set_replay_start(&store, 2, 32);
    assert_eq!(
        hashes(&store, 2),
        (vec![Hash([4; 32])], Some(Hash([4; 32])))
    );
    // The parent's blockhash is read from the parent's own start.
    set_replay_start(&store, 1, 32);
    assert_eq!(
        parent_blockhash(&store, Some(Slot(1)), &mut buf).expect("read"),
        Some(Hash([2; 32]))
    );
    // A dead parent has no blockhash to give.
    store.set_dead_slot(Slot(1)).expect("dead");
    assert_eq!(
        parent_blockhash(&store, Some(Slot(1)), &mut buf).expect("read"),
        None
    );
    assert_eq!(
        parent_blockhash(&store, None, &mut buf).expect("read"),
        None
    );
}

#[test]
fn a_parent_that_is_not_full_gives_no_previous_blockhash() {
    let store = Blockstore::in_memory();
    let [parent_first, _] = two_sets(1, 0, 1);
    insert(&store, &parent_first);
    two_sets(2, 1, 3).iter().for_each(|s| insert(&store, s));
    let mut buf = FetchBuffer::new();
    // Its first data set is complete (entry 1), but the slot is not: no blockhash.
    assert_eq!(
        parent_blockhash(&store, Some(Slot(1)), &mut buf).expect("read"),
        None
    );
    assert_eq!(
        parent_blockhash(&store, Some(Slot(2)), &mut buf).expect("read"),
        Some(Hash([4; 32]))
    );
    assert_eq!(
        parent_blockhash(&store, Some(Slot(7)), &mut buf).expect("read"),
        None,
        "a parent that is not stored"
    );
}
