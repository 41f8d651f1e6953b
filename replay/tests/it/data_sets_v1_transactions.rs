//! The completed-data-sets service over a slot of Agave 4's v1 transactions (with a legacy
//! and a v0 one; `testdata/agave4/v1_transactions.json`) in two data sets: it reports every
//! transaction's first signature — for v1, the first 64 bytes after the message — once, in
//! order, with no error.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use base64::Engine;
use bstore_ledger::entry::{Entry, decode_transaction, encode_entries};
use bstore_ledger::shred::{BatchOptions, LastInSlot, Resign, Shredder};
use bstore_ledger::{Hash, Signature, Slot};
use bstore_replay::{CompletedDataSetsService, SignatureSubscriber, completed_data_sets_channel};
use ed25519_dalek::SigningKey;
use serde_json::Value;

use crate::common::temp_blockstore;

fn agave_first_signatures_and_entries() -> (Vec<Signature>, Vec<Vec<Entry>>) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../testdata/agave4/v1_transactions.json"
    );
    let doc: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("vectors")).expect("JSON");
    let vectors = doc["vectors"].as_array().expect("vectors");
    let firsts = vectors
        .iter()
        .map(|v| {
            v["fields"]["signatures"][0]
                .as_str()
                .expect("a signature")
                .parse()
                .expect("base58")
        })
        .collect();
    let txs: Vec<_> = vectors
        .iter()
        .map(|v| {
            let b64 = v["base64"].as_str().expect("base64");
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(b64)
                .expect("valid");
            decode_transaction(&bytes).expect("decodes").0
        })
        .collect();
    let (a, b) = txs.split_at(3);
    let entry = |n: u8, transactions: &[_]| Entry {
        num_hashes: 1,
        hash: Hash([n; 32]),
        transactions: transactions.to_vec(),
    };
    (
        firsts,
        vec![vec![entry(1, a)], vec![entry(2, b), entry(3, &[])]],
    )
}

#[test]
fn v1_first_signatures_are_reported_once() {
    let (firsts, sets) = agave_first_signatures_and_entries();
    let (_dir, store) = temp_blockstore();
    let (sets_tx, sets_rx) = completed_data_sets_channel();
    let (sigs_tx, sigs_rx) = crossbeam_channel::unbounded::<(Slot, Vec<Signature>)>();
    let subscribers: Vec<Box<dyn SignatureSubscriber>> = vec![Box::new(sigs_tx)];
    let exit = Arc::new(AtomicBool::new(false));
    let service =
        CompletedDataSetsService::spawn(store.clone(), sets_rx, subscribers, exit).expect("spawn");

    let mut shredder =
        Shredder::new(Slot(3), Slot(2), 1, SigningKey::from_bytes(&[6; 32])).expect("shredder");
    for (i, entries) in sets.iter().enumerate() {
        let last = i + 1 == sets.len();
        let opts = BatchOptions {
            last_in_slot: if last {
                LastInSlot::Yes
            } else {
                LastInSlot::No
            },
            reference_tick: 1,
            resign_last: if last { Resign::Yes } else { Resign::No },
        };
        let batch = shredder
            .shred_batch(&encode_entries(entries), opts)
            .expect("shreds");
        let outcome = store.insert_shreds(&batch).expect("insert");
        assert_eq!(
            outcome.completed_data_sets.len(),
            1,
            "one data set per batch"
        );
        sets_tx
            .send(outcome.completed_data_sets)
            .expect("service running");
    }
    drop(sets_tx);
    let stats = service.join();

    let reported: Vec<Signature> = sigs_rx.try_iter().flat_map(|(_, s)| s).collect();
    assert_eq!(reported, firsts, "every first signature, once, in order");
    assert_eq!(stats.sets, 2);
    assert_eq!(stats.errors, 0);
}
