//! Scenario: the rows Agave's insert writes beside the shreds are kept as Agave keeps them:
//! `orphans` lists exactly the placeholder parents, `index` the shreds stored, and the set
//! rows the first coding shred's shape and the first shred's root.

use bstore_ledger::entry::{Entry, encode_entries};
use bstore_ledger::shred::{BatchOptions, LastInSlot, Resign, ShredKind, ShredRef, Shredder};
use bstore_ledger::store::columns::Orphans;
use bstore_ledger::store::{Blockstore, MemEngine};
use bstore_ledger::{Hash, Slot};
use ed25519_dalek::SigningKey;

fn slot_shreds(slot: u64, parent: u64) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let key = SigningKey::from_bytes(&[4u8; 32]);
    let mut shredder = Shredder::new(Slot(slot), Slot(parent), 1, key).expect("shape");
    let entries = vec![Entry {
        num_hashes: slot,
        hash: Hash([1; 32]),
        transactions: Vec::new(),
    }];
    let opts = BatchOptions {
        last_in_slot: LastInSlot::Yes,
        reference_tick: 0,
        resign_last: Resign::No,
    };
    let batch = shredder
        .shred_batch_with_code(&encode_entries(&entries), opts)
        .expect("shreds");
    (batch.data, batch.code)
}

fn orphans(store: &Blockstore<MemEngine>) -> Vec<u64> {
    (0..10u64)
        .filter(|s| {
            store
                .row_bytes::<Orphans>(Slot(*s))
                .expect("read")
                .is_some()
        })
        .collect()
}

#[test]
fn orphans_are_the_placeholder_parents() {
    let store = Blockstore::in_memory();
    let (five, _) = slot_shreds(5, 3);
    store.insert_shreds(&five[..2]).expect("insert");
    assert_eq!(orphans(&store), vec![3], "3 is known only as 5's parent");
    let (three, _) = slot_shreds(3, 1);
    store.insert_shreds(&three[..1]).expect("insert");
    assert_eq!(
        orphans(&store),
        vec![1],
        "3 learned its parent; 1 is the new orphan"
    );
}

#[test]
fn index_and_set_rows_describe_what_is_stored() {
    let store = Blockstore::in_memory();
    let (data, code) = slot_shreds(7, 6);
    store
        .insert_shreds([&code[3], &data[0], &data[5]])
        .expect("insert");
    let index = store.slot_index(Slot(7)).expect("read").expect("index row");
    assert_eq!(index.data.iter().collect::<Vec<_>>(), vec![0, 5]);
    let code3 = ShredRef::parse(&code[3]).expect("parses");
    assert_eq!(index.code.iter().collect::<Vec<_>>(), vec![code3.index().0]);
    let erasure = store.erasure_meta(Slot(7), 0).expect("read").expect("row");
    assert_eq!(
        erasure.first_received_coding_index,
        u64::from(code3.index().0)
    );
    assert_eq!(
        erasure.first_coding_index,
        u64::from(code3.index().0 - u32::from(code3.position().expect("code")))
    );
    assert_eq!((erasure.num_data, erasure.num_coding), (32, 32));
    let merkle = store
        .merkle_root_meta(Slot(7), 0)
        .expect("read")
        .expect("row");
    assert_eq!(merkle.first_received_shred_kind, ShredKind::Code);
    assert_eq!(merkle.first_received_shred_index, code3.index().0);
    assert_eq!(
        merkle.merkle_root,
        Some(bstore_ledger::shred::merkle_root(&code3).expect("root"))
    );
}
