//! Scenario: a slot whose entries mix Agave 4's v1 transactions with legacy and v0 ones
//! (`testdata/agave4/v1_transactions.json`, made by Agave's own crates) is shredded, stored,
//! and read back whole: owned entries and views give every transaction byte for byte, with
//! its signatures and keys; and purging the slot finds every v1 transaction's signature
//! and keys, so its history rows (status, address index) go with it.

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use bstore_ledger::entry::{Entry, TxVersion, decode_transaction, encode_entries};
use bstore_ledger::fetch::{AllowDead, EntryFetch, FetchBuffer, ViewFetch};
use bstore_ledger::shred::{BatchOptions, LastInSlot, Resign, Shredder};
use bstore_ledger::store::columns::{AddressSignatures, TransactionStatus};
use bstore_ledger::store::keys::AddressRowKey;
use bstore_ledger::store::{Blockstore, Column, MemEngine};
use bstore_ledger::{Hash, Signature, Slot};

use crate::common::count_rows;
use ed25519_dalek::SigningKey;
use serde_json::Value;

const SLOT: Slot = Slot(7);

/// The wire bytes of every committed Agave vector.
fn agave_transactions() -> Vec<Vec<u8>> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../testdata/agave4/v1_transactions.json"
    );
    let doc: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("vectors")).expect("JSON");
    doc["vectors"]
        .as_array()
        .expect("vectors")
        .iter()
        .map(|v| {
            B64.decode(v["base64"].as_str().expect("base64"))
                .expect("valid")
        })
        .collect()
}

/// Slot 7 (child of 6): two entries carrying all the vectors, then a tick, shredded and
/// stored; returns the store and the entries.
fn stored() -> (Blockstore<MemEngine>, Vec<Entry>, Vec<Vec<u8>>) {
    let raw = agave_transactions();
    let txs: Vec<_> = raw
        .iter()
        .map(|b| decode_transaction(b).expect("decodes").0)
        .collect();
    let (first, second) = txs.split_at(txs.len() / 2);
    let entries = vec![
        Entry {
            num_hashes: 1,
            hash: Hash([1; 32]),
            transactions: first.to_vec(),
        },
        Entry {
            num_hashes: 1,
            hash: Hash([2; 32]),
            transactions: second.to_vec(),
        },
        Entry {
            num_hashes: 1,
            hash: Hash([3; 32]),
            transactions: vec![],
        },
    ];
    let store = Blockstore::in_memory();
    let key = SigningKey::from_bytes(&[4u8; 32]);
    let mut shredder = Shredder::new(SLOT, Slot(6), 1, key).expect("shredder");
    let opts = BatchOptions {
        last_in_slot: LastInSlot::Yes,
        reference_tick: 1,
        resign_last: Resign::No,
    };
    let batch = shredder
        .shred_batch_with_code(&encode_entries(&entries), opts)
        .expect("shreds");
    store
        .insert_shreds(batch.data.iter().chain(&batch.code))
        .expect("insert");
    (store, entries, raw)
}

#[test]
fn a_slot_with_v1_transactions_reads_back_owned_and_as_views() {
    let (store, entries, raw) = stored();
    assert_eq!(store.get_slot_entries(SLOT, 0).expect("owned"), entries);

    let mut buf = FetchBuffer::default();
    let views = store
        .fetch_slot_views(SLOT, 0, AllowDead::No, &mut buf)
        .expect("views");
    let txs: Vec<_> = views
        .sets
        .iter()
        .flat_map(|s| s.entries.transactions())
        .collect();
    assert_eq!(txs.len(), raw.len());
    let mut v1 = 0;
    for (tx, bytes) in txs.iter().zip(&raw) {
        assert_eq!(tx.bytes(), &bytes[..]);
        let owned = tx.to_owned_transaction().expect("owned copy");
        assert!(tx.signatures().eq(owned.signatures.iter().map(|s| &s.0)));
        assert!(
            tx.message()
                .account_keys()
                .eq(owned.message.account_keys().iter().map(|k| &k.0))
        );
        v1 += usize::from(tx.version() == TxVersion::V1);
    }
    assert!(v1 >= 5, "the slot carries v1 transactions");
}

#[test]
fn purging_the_slot_removes_the_history_rows_of_its_v1_transactions() {
    let (store, entries, _) = stored();
    // A status row and one address-index row per static key, as history writes them.
    let mut batch = store.row_batch().expect("writable");
    let txs = entries.iter().flat_map(|e| e.transactions.iter());
    for (index, tx) in txs.enumerate() {
        let sig: Signature = tx.signatures[0];
        batch
            .put_bytes::<TransactionStatus>((sig, SLOT), b"s")
            .expect("put");
        for key in tx.message.account_keys() {
            let row = AddressRowKey {
                address: *key,
                slot: SLOT,
                transaction_index: index as u32,
                signature: sig,
            };
            batch.put::<AddressSignatures>(row, &true).expect("put");
        }
    }
    store.write_rows(batch).expect("writes");
    assert!(count_rows(&store, AddressSignatures::NAME) > 0);

    store.purge_slots(SLOT, SLOT).expect("purge");
    assert_eq!(
        count_rows(&store, TransactionStatus::NAME),
        0,
        "statuses purged"
    );
    assert_eq!(
        count_rows(&store, AddressSignatures::NAME),
        0,
        "address index purged"
    );
}
