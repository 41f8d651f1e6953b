//! Readers on several threads while one writer inserts: every reader always sees a
//! consistent store (each shred below `consumed` is stored, `consumed` never goes back).
#![cfg(feature = "storage")]

use crate::store_support;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use bstore_ledger::ShredIndex;
use store_support::{SlotExpectation, open_rw, shuffled_chunks, testnet};

#[test]
fn readers_see_consistent_state_during_inserts() {
    let (packets, expected) = testnet();
    let want = SlotExpectation::from_json(&expected["shreds"]);
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Arc::new(open_rw(dir.path()));
    let done = Arc::new(AtomicBool::new(false));

    let readers: Vec<_> = (0..3)
        .map(|_| {
            let (store, done) = (Arc::clone(&store), Arc::clone(&done));
            std::thread::spawn(move || {
                let mut last_consumed = 0;
                let mut reads = 0u64;
                while !done.load(Ordering::Acquire) {
                    let Some(meta) = store.meta(want.slot).expect("read meta") else {
                        continue;
                    };
                    assert!(meta.consumed >= last_consumed, "consumed went back");
                    last_consumed = meta.consumed;
                    for i in 0..meta.consumed as u32 {
                        assert!(
                            store
                                .data_shred(want.slot, ShredIndex(i))
                                .expect("read")
                                .is_some(),
                            "shred {i} below consumed {} is missing",
                            meta.consumed
                        );
                    }
                    reads += 1;
                }
                reads
            })
        })
        .collect();

    for chunk in shuffled_chunks(&packets, 99, 8) {
        store.insert_shreds(&chunk).expect("insert");
    }
    done.store(true, Ordering::Release);
    for r in readers {
        r.join().expect("reader thread");
    }
    want.check_meta(
        &store.meta(want.slot).expect("read").expect("meta"),
        "final",
    );
}
