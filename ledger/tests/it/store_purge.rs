//! Scenario: retention. A purged range leaves no row in any column but one placeholder meta
//! (as Agave 4.3+: the top slot of the range, whose child survives, keeps only its
//! `next_slots`), the slots around it are untouched, parents forget purged children, the
//! link to the surviving child comes back when the slot is inserted again, retention from
//! the bottom keeps no placeholder, and a reader of a purged slot gets
//! `SlotCleanedUp` — also when the purge lands in the middle of its read, never a torn
//! block. `purge_to_limit` keeps the newest slots within the limit and never passes the root.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use bstore_ledger::entry::{Entry, encode_entries};
use bstore_ledger::fetch::{AllowDead, EntryFetch};
use bstore_ledger::shred::{BatchOptions, LastInSlot, Resign, Shredder};
use std::ops::ControlFlow;

use bstore_ledger::store::{Blockstore, MemEngine, SlotMeta, columns};

use crate::common::count_rows;
use bstore_ledger::{Hash, LedgerError, Slot};
use ed25519_dalek::SigningKey;

/// Slots `1..=n`, each child of the one before, one FEC set of 32 data + 32 coding shreds.
fn ledger(n: u64) -> (Blockstore<MemEngine>, Vec<Vec<Entry>>) {
    ledger_rooted(n, n)
}

/// [`ledger`] with only slots `1..=rooted` rooted.
fn ledger_rooted(n: u64, rooted: u64) -> (Blockstore<MemEngine>, Vec<Vec<Entry>>) {
    let store = Blockstore::in_memory();
    let mut all = vec![Vec::new()];
    for slot in 1..=n {
        let entries = slot_entries(slot);
        store.insert_shreds(slot_shreds(slot)).expect("insert");
        store
            .set_block_time(Slot(slot), 1_700_000_000)
            .expect("time");
        all.push(entries);
    }
    store.set_roots((1..=rooted).map(Slot)).expect("roots");
    (store, all)
}

/// Slot `slot`'s one entry.
fn slot_entries(slot: u64) -> Vec<Entry> {
    vec![Entry {
        num_hashes: slot,
        hash: Hash([slot as u8; 32]),
        transactions: Vec::new(),
    }]
}

/// Slot `slot` (child of `slot - 1`) as one FEC set of 32 data + 32 coding shreds; the same
/// bytes on every call.
fn slot_shreds(slot: u64) -> Vec<Vec<u8>> {
    let key = SigningKey::from_bytes(&[9u8; 32]);
    let mut shredder = Shredder::new(Slot(slot), Slot(slot - 1), 1, key).expect("shredder");
    let opts = BatchOptions {
        last_in_slot: LastInSlot::Yes,
        reference_tick: 0,
        resign_last: Resign::No,
    };
    let batch = shredder
        .shred_batch_with_code(&encode_entries(&slot_entries(slot)), opts)
        .expect("shreds");
    batch.data.into_iter().chain(batch.code).collect()
}

fn slots_with_rows(store: &Blockstore<MemEngine>) -> Vec<(&'static str, usize)> {
    [
        "meta",
        "data_shred",
        "code_shred",
        "index",
        "erasure_meta",
        "merkle_root_meta",
        "root",
        "blocktime",
    ]
    .iter()
    .map(|cf| (*cf, count_rows(store, cf)))
    .collect()
}

#[test]
fn a_purged_range_leaves_no_row_and_its_neighbours_intact() {
    let (store, entries) = ledger(10);
    let before = slots_with_rows(&store);
    let stats = store.purge_slots(Slot(4), Slot(6)).expect("purge");
    assert_eq!(
        (
            stats.slots_with_meta,
            stats.data_shreds,
            stats.placeholders_kept
        ),
        (3, 96, 1)
    );
    for ((cf, was), (_, now)) in before.iter().zip(slots_with_rows(&store)) {
        // 3 of 10 slots; `meta` also holds slot 0 (the parent placeholder), and keeps slot
        // 6's placeholder.
        let is_meta = usize::from(*cf == "meta");
        let per_slot = (was - is_meta) / 10;
        assert_eq!(now, was - 3 * per_slot + is_meta, "column {cf}");
    }
    for cf in columns::slot_keyed() {
        let mut kept = 0;
        store
            .for_each_family_row(cf, |key, _| {
                let slot = key.get(..8).map(|s| s.try_into().map(u64::from_be_bytes));
                if matches!(slot, Some(Ok(4..=6))) {
                    kept += 1;
                }
                ControlFlow::Continue(())
            })
            .expect("walk");
        let want = usize::from(cf == "meta");
        assert_eq!(kept, want, "column {cf}: rows of slots 4..=6");
    }
    for slot in [1u64, 2, 3, 7, 8, 9, 10] {
        let got = store
            .get_slot_entries(Slot(slot), 0)
            .expect("untouched slot reads");
        assert_eq!(got, entries[slot as usize], "slot {slot}");
    }
    for slot in 4..=5u64 {
        assert!(store.meta(Slot(slot)).expect("read").is_none());
    }
    let kept = store.meta(Slot(6)).expect("read").expect("placeholder");
    assert_eq!(kept, {
        let mut want = SlotMeta::new_orphan(Slot(6));
        want.next_slots = vec![Slot(7)];
        want
    });
    for slot in 4..=6u64 {
        assert!(matches!(
            store.get_slot_entries(Slot(slot), 0),
            Err(LedgerError::SlotCleanedUp { .. })
        ));
        assert!(!store.is_root(Slot(slot)).expect("read"));
    }
    let parent = store.meta(Slot(3)).expect("read").expect("meta");
    assert!(
        parent.next_slots.is_empty(),
        "slot 3 forgot its purged child"
    );
    // Slot 7 keeps its parent link (as Agave): it is an orphan now.
    assert_eq!(
        store
            .meta(Slot(7))
            .expect("read")
            .expect("meta")
            .parent_slot,
        Some(Slot(6))
    );
    assert_eq!(store.purged_to(), Some(Slot(6)));
}

/// The placeholder's `next_slots` is what brings the link back: the purged slot inserted
/// again is its surviving child's parent once more, in both directions.
#[test]
fn a_purged_slot_inserted_again_links_to_its_surviving_child() {
    let (store, _) = ledger(10);
    store.purge_slots(Slot(4), Slot(6)).expect("purge");
    store.insert_shreds(slot_shreds(6)).expect("insert again");
    let meta = store.meta(Slot(6)).expect("read").expect("meta");
    assert!(meta.is_full(), "{meta:?}");
    assert_eq!(
        (meta.parent_slot, meta.next_slots.as_slice()),
        (Some(Slot(5)), [Slot(7)].as_slice())
    );
    let child = store.meta(Slot(7)).expect("read").expect("meta");
    assert_eq!(child.parent_slot, Some(Slot(6)));
}

#[test]
fn purge_to_limit_keeps_the_newest_slots_and_never_passes_the_root() {
    let (store, _) = ledger(20);
    // 20 slots of 32 data shreds; keep 200: the newest 6 slots (192) fit, the 7th does not.
    let stats = store
        .purge_to_limit(200)
        .expect("purge")
        .expect("something purged");
    assert_eq!((stats.from, stats.to), (Slot(0), Slot(14)));
    // Retention from the bottom keeps no placeholder (Agave's cleanup service).
    assert_eq!(stats.placeholders_kept, 0);
    assert!(store.meta(Slot(14)).expect("read").is_none());
    assert_eq!(store.lowest_slot().expect("read"), Some(Slot(15)));
    for slot in 15..=20u64 {
        assert!(
            store
                .meta(Slot(slot))
                .expect("read")
                .is_some_and(|m| m.is_full())
        );
    }
    assert_eq!(
        store.purge_to_limit(200).expect("purge"),
        None,
        "already within"
    );

    // Slots above the highest root are never purged, whatever the limit.
    let (store, _) = ledger_rooted(10, 5);
    let stats = store.purge_to_limit(0).expect("purge").expect("purged");
    assert_eq!(stats.to, Slot(5), "up to the root");
    for slot in 6..=10u64 {
        assert!(
            store.meta(Slot(slot)).expect("read").is_some(),
            "slot {slot} kept"
        );
    }
}

#[test]
fn a_reader_racing_a_purge_gets_the_whole_slot_or_cleaned_up() {
    let (store, entries) = ledger(40);
    let store = Arc::new(store);
    let done = Arc::new(AtomicBool::new(false));
    let reads = Arc::new(AtomicU64::new(0));
    let reader = {
        let (store, done, reads) = (Arc::clone(&store), Arc::clone(&done), Arc::clone(&reads));
        let want = entries.clone();
        std::thread::spawn(move || {
            let mut cleaned = 0u64;
            while !done.load(Ordering::Acquire) {
                for slot in 1..=40u64 {
                    match store.get_slot_entries_with_shred_info(Slot(slot), 0, AllowDead::No) {
                        Ok(got) if got.entries.is_empty() || got.entries == want[slot as usize] => {
                        }
                        Err(LedgerError::SlotCleanedUp { .. }) => cleaned += 1,
                        other => panic!("slot {slot}: torn or failed read {other:?}"),
                    }
                    reads.fetch_add(1, Ordering::AcqRel);
                }
            }
            cleaned
        })
    };
    for to in 1..=40u64 {
        // Purge only while the reader is reading.
        while reads.load(Ordering::Acquire) < to * 20 {
            std::thread::yield_now();
        }
        store.purge_slots(Slot(to), Slot(to)).expect("purge");
    }
    done.store(true, Ordering::Release);
    assert!(
        reader.join().expect("reader") > 0,
        "the reader saw purged slots"
    );
}
