//! The completed-data-sets service reports every first signature of every transaction of
//! every data set exactly once, whatever order the shreds are inserted in, and tracks the
//! highest slot it was told about.

use crate::common;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use bstore_ledger::{Signature, Slot};
use bstore_replay::{CompletedDataSetsService, SignatureSubscriber, completed_data_sets_channel};
use common::{synth_chain, temp_blockstore};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

fn run(seed: u64) {
    let chain = synth_chain(seed, 3, 96);
    let (_dir, store) = temp_blockstore();
    let (sets_tx, sets_rx) = completed_data_sets_channel();
    let (sigs_tx, sigs_rx) = crossbeam_channel::unbounded::<(Slot, Vec<Signature>)>();
    let subscribers: Vec<Box<dyn SignatureSubscriber>> = vec![Box::new(sigs_tx)];
    let exit = Arc::new(AtomicBool::new(false));
    let service =
        CompletedDataSetsService::spawn(store.clone(), sets_rx, subscribers, exit).expect("spawn");

    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut packets: Vec<&Vec<u8>> = chain.iter().flat_map(|s| &s.data_shreds).collect();
    packets.shuffle(&mut rng);
    let mut rest = &packets[..];
    while !rest.is_empty() {
        let n = rng.gen_range(1..=40).min(rest.len());
        let (now, later) = rest.split_at(n);
        rest = later;
        let outcome = store.insert_shreds(now.iter().copied()).expect("insert");
        if !outcome.completed_data_sets.is_empty() {
            sets_tx
                .send(outcome.completed_data_sets)
                .expect("service running");
        }
    }
    drop(sets_tx);
    let stats = service.join();

    let mut seen: BTreeMap<Signature, (Slot, usize)> = BTreeMap::new();
    for (slot, sigs) in sigs_rx.try_iter() {
        for sig in sigs {
            seen.entry(sig).or_insert((slot, 0)).1 += 1;
        }
    }
    let mut expected = 0;
    for slot in &chain {
        for tx in slot.entries.iter().flat_map(|e| &e.transactions) {
            let first = tx.signatures[0];
            expected += 1;
            assert_eq!(
                seen.get(&first),
                Some(&(slot.slot, 1)),
                "seed {seed}: signature {first} of slot {} reported once",
                slot.slot
            );
        }
    }
    assert_eq!(seen.len(), expected, "seed {seed}: nothing else reported");
    let sets: usize = chain.iter().map(|s| s.data_sets.len()).sum();
    assert_eq!(stats.sets, sets as u64, "seed {seed}");
    assert_eq!(stats.signatures, expected as u64);
    assert_eq!(stats.errors, 0);
    assert_eq!(stats.max_shred_insert_slot, chain.last().map(|s| s.slot));
}

#[test]
fn every_signature_exactly_once_under_random_insert_orders() {
    for seed in 1..=4 {
        run(seed);
    }
}
