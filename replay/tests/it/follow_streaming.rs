//! The replay thread follows slots while an inserter writes them FEC set by FEC set, shuffled
//! within a window and interleaved across slots: every slot is replayed once, from its
//! parent, with the generated totals, and the calls see data sets as they complete.

use crate::common;

use std::sync::atomic::AtomicBool;

use bstore_ledger::Slot;
use bstore_replay::{Completion, MetricsSink, SlotStatus, follow};
use common::{synth_chain, synth_driver, temp_blockstore};
use rand::SeedableRng;
use rand::seq::SliceRandom;

#[test]
fn follows_interleaved_shuffled_slots_to_the_end() {
    let chain = synth_chain(31, 6, 160);
    let (_dir, store) = temp_blockstore();
    let (updates, updates_rx) = crossbeam_channel::unbounded();

    // Packets: each slot's shreds in FEC sets of 32, shuffled within windows of 64; the
    // slots' streams interleaved round-robin, so children arrive before parents finish.
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let mut streams: Vec<Vec<Vec<Vec<u8>>>> = chain
        .iter()
        .map(|s| {
            let mut shreds = s.data_shreds.clone();
            for window in shreds.chunks_mut(64) {
                window.shuffle(&mut rng);
            }
            shreds.chunks(32).map(<[_]>::to_vec).collect()
        })
        .collect();
    for stream in &mut streams {
        stream.reverse(); // pop from the back = first set first
    }
    let inserter = {
        let store = store.clone();
        let slots: Vec<Slot> = chain.iter().map(|s| s.slot).collect();
        std::thread::spawn(move || {
            let mut pending = true;
            while pending {
                pending = false;
                for (stream, slot) in streams.iter_mut().zip(&slots) {
                    if let Some(set) = stream.pop() {
                        pending = true;
                        store.insert_shreds(&set).expect("insert");
                        updates.send(*slot).expect("replay listening");
                    }
                }
            }
            // Stale updates for finished slots are ignored, not reported twice.
            for slot in &slots {
                updates.send(*slot).expect("replay listening");
            }
            // Dropping `updates` tells the follower no more shreds come.
        })
    };

    let mut driver = synth_driver(&store, Completion::Streaming, MetricsSink::Off);
    let exit = AtomicBool::new(false);
    let mut finished = Vec::new();
    let summary = follow(&mut driver, &updates_rx, &exit, |slot, status| {
        finished.push((slot, status));
    })
    .expect("store ok");
    inserter.join().expect("inserter");

    assert_eq!(summary.replayed, chain.len());
    assert_eq!((summary.dead, summary.refused), (0, 0));
    assert!(summary.unfinished.is_empty());
    assert_eq!(finished.len(), chain.len(), "each slot reported once");
    let order: Vec<Slot> = finished.iter().map(|(s, _)| *s).collect();
    let expected: Vec<Slot> = chain.iter().map(|s| s.slot).collect();
    assert_eq!(order, expected, "parents finish before children");
    for ((_, status), generated) in finished.iter().zip(&chain) {
        let SlotStatus::Replayed { stats, blockhash } = status else {
            panic!("slot {} not replayed: {status:?}", generated.slot);
        };
        assert_eq!(*blockhash, generated.blockhash);
        assert_eq!(stats.total_entries, generated.entries.len() as u64);
        assert_eq!(stats.total_transactions, generated.transactions);
        assert_eq!(stats.total_shreds, generated.data_shreds.len() as u64);
        assert!(stats.num_execute_batches >= 1);
        assert!(stats.num_execute_batches <= generated.data_sets.len() as u64);
        assert_eq!(stats.fetch_calls_us.len() as u64, stats.num_execute_batches);
    }
}
