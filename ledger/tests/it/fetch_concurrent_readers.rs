//! Scenario: readers fetching a slot while one writer inserts its shreds (random order,
//! small calls) never see a torn data set: every fetch succeeds and returns a prefix of the
//! slot's entries that ends on a data-set boundary, and the prefix never shrinks.
#![cfg(feature = "storage")]

use crate::common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use bstore_ledger::entry::{Entry, decode_entries};
use bstore_ledger::fetch::{AllowDead, EntryFetch, FetchBuffer, ViewFetch, group_by_slot};
use bstore_ledger::shred::ShredRef;
use bstore_ledger::store::{AccessMode, Blockstore};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

#[test]
fn concurrent_fetches_never_see_a_torn_data_set() {
    let packets = common::read_records("sig-testnet-417955322/shreds.bin");
    let shreds: Vec<_> = packets
        .iter()
        .map(|p| ShredRef::parse(p).expect("parses"))
        .collect();
    let slots = group_by_slot(shreds);
    let slot_shreds = slots.values().next().expect("slot");
    let slot = slot_shreds.slot();
    // Entry counts at each data-set boundary, and the full entry list.
    let mut all: Vec<Entry> = Vec::new();
    let mut boundaries = vec![0usize];
    for r in slot_shreds.data_sets() {
        all.extend(decode_entries(&slot_shreds.deshred(&r).expect("deshreds")).expect("decodes"));
        boundaries.push(all.len());
    }
    let all = Arc::new(all);
    let boundaries = Arc::new(boundaries);

    let dir = tempfile::tempdir().expect("tempdir");
    let store = Arc::new(Blockstore::open(dir.path(), AccessMode::ReadWrite).expect("open"));
    let done = Arc::new(AtomicBool::new(false));
    let readers: Vec<_> = (0..3)
        .map(|reader| {
            let (store, done, all, boundaries) = (
                Arc::clone(&store),
                Arc::clone(&done),
                Arc::clone(&all),
                Arc::clone(&boundaries),
            );
            std::thread::spawn(move || {
                let mut seen = 0usize;
                let mut fetches = 0u64;
                let mut buf = FetchBuffer::new();
                loop {
                    // Read `done` first: a fetch after the last insert returned sees everything.
                    let last = done.load(Ordering::Acquire);
                    let n = if reader == 0 {
                        let views = store
                            .fetch_slot_views(slot, 0, AllowDead::No, &mut buf)
                            .expect("views fetch");
                        let got: Vec<Entry> = views
                            .sets
                            .iter()
                            .flat_map(|s| s.entries.to_owned_entries().expect("owned"))
                            .collect();
                        assert_eq!(&got[..], &all[..got.len()], "views are a prefix");
                        got.len()
                    } else {
                        let got = store
                            .get_slot_entries_with_shred_info(slot, 0, AllowDead::No)
                            .expect("fetch")
                            .entries;
                        assert_eq!(&got[..], &all[..got.len()], "entries are a prefix");
                        got.len()
                    };
                    assert!(
                        boundaries.contains(&n),
                        "{n} entries is not a data-set boundary"
                    );
                    assert!(n >= seen, "fetch went back from {seen} to {n} entries");
                    seen = n;
                    fetches += 1;
                    if last {
                        assert_eq!(
                            n,
                            all.len(),
                            "after the writer finished, everything is visible"
                        );
                        return fetches;
                    }
                }
            })
        })
        .collect();

    let mut order: Vec<usize> = (0..packets.len()).collect();
    order.shuffle(&mut ChaCha8Rng::seed_from_u64(11));
    for chunk in order.chunks(5) {
        store
            .insert_shreds(chunk.iter().map(|&i| &packets[i]))
            .expect("insert");
    }
    done.store(true, Ordering::Release);
    for r in readers {
        assert!(r.join().expect("reader") > 0);
    }
}
