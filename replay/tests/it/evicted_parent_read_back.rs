//! A lagging follower: a slot named long after the root passed it, whose parent the driver
//! replayed and then evicted, still replays, from the parent's blockhash read back from
//! the ledger, to the same blockhash as a driver that never evicts.

use crate::common;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use bstore_ledger::store::Blockstore;
use bstore_ledger::synth::GeneratedSlot;
use bstore_ledger::{Hash, Slot};
use bstore_replay::{Completion, MetricsSink, ReplayDriver, Retention, SlotStatus, follow};
use common::{retaining_driver, synth_forks, temp_blockstore};

/// The late fork slot and its parent, far below the root.
const LATE: Slot = Slot(25);
const PARENT: Slot = Slot(5);

/// Main chain 1..=20, then 30..=80 (30 a child of 20); the late fork slot 25 is a child of
/// slot 5.
fn ledger(seed: u64) -> BTreeMap<Slot, GeneratedSlot> {
    let mut links: Vec<(u64, u64)> = (1..=20).map(|s| (s, s - 1)).collect();
    links.push((30, 20));
    links.extend((31..=80).map(|s| (s, s - 1)));
    links.push((LATE.0, PARENT.0));
    synth_forks(seed, &links, 8)
}

/// Follows the main chain, then the late slot, whose shreds arrive only once everything
/// else was reported; returns the late slot's blockhash.
fn follow_late_slot(
    driver: &mut ReplayDriver,
    slots: &BTreeMap<Slot, GeneratedSlot>,
    store: &Arc<Blockstore>,
) -> Hash {
    let (updates, updates_rx) = crossbeam_channel::unbounded();
    let (final_tx, final_rx) = crossbeam_channel::unbounded();
    let inserter = {
        let store = Arc::clone(store);
        let mut shreds: Vec<(Slot, Vec<Vec<u8>>)> = slots
            .iter()
            .map(|(slot, generated)| (*slot, generated.data_shreds.clone()))
            .collect();
        let late = shreds
            .iter()
            .position(|(s, _)| *s == LATE)
            .expect("late slot");
        let late = shreds.remove(late);
        std::thread::spawn(move || {
            for (slot, shreds) in &shreds {
                store.insert_shreds(shreds).expect("insert");
                updates.send(*slot).expect("replay listening");
            }
            for _ in &shreds {
                final_rx.recv().expect("a final status");
            }
            store.insert_shreds(&late.1).expect("insert late");
            updates.send(late.0).expect("replay listening");
        })
    };
    let mut late_hash = None;
    let summary = follow(
        driver,
        &updates_rx,
        &AtomicBool::new(false),
        |slot, status| {
            match status {
                SlotStatus::Replayed { blockhash, .. } if slot == LATE => {
                    late_hash = Some(blockhash)
                }
                SlotStatus::Replayed { .. } => {}
                other => panic!("slot {slot}: expected it replayed, got {other:?}"),
            }
            let _ = final_tx.send(slot);
        },
    )
    .expect("store ok");
    inserter.join().expect("inserter");
    assert_eq!(summary.replayed, slots.len(), "{summary:?}");
    late_hash.expect("the late slot is reported")
}

fn unbounded_blockhash(seed: u64, roots: &[u64]) -> Hash {
    let slots = ledger(seed);
    let (_dir, store) = temp_blockstore();
    store
        .set_roots(roots.iter().map(|s| Slot(*s)))
        .expect("roots");
    let mut driver = retaining_driver(
        &store,
        Completion::Streaming,
        MetricsSink::Off,
        Retention::UNBOUNDED,
    );
    let hash = follow_late_slot(&mut driver, &slots, &store);
    assert_eq!(driver.retained().evicted, 0);
    hash
}

#[test]
fn a_late_child_of_an_evicted_rooted_parent_replays() {
    let slots = ledger(51);
    let (_dir, store) = temp_blockstore();
    // The validator is ahead: the main chain is rooted up to 70 before the follower starts.
    let roots: Vec<u64> = (1..=20).chain(30..=70).collect();
    store
        .set_roots(roots.iter().map(|s| Slot(*s)))
        .expect("roots");
    let retention = Retention {
        margin: 4,
        ..Retention::default()
    };
    let mut driver = retaining_driver(&store, Completion::Streaming, MetricsSink::Off, retention);
    let hash = follow_late_slot(&mut driver, &slots, &store);

    let held = driver.retained();
    assert!(
        held.floor > LATE,
        "the late slot is below the floor: {held:?}"
    );
    assert_eq!(driver.blockhash(PARENT), None, "the parent was evicted");
    assert_eq!(held.from_ledger, 1, "its blockhash was read back: {held:?}");
    // Held: 66..=80, the margin below the root 70 up to the newest finished slot.
    assert_eq!(held.blockhashes, 15, "{held:?}");
    assert_eq!(hash, slots[&LATE].blockhash);
    assert_eq!(hash, unbounded_blockhash(51, &roots));
}

#[test]
fn a_late_child_of_a_parent_evicted_by_the_size_cap_replays() {
    // No root at all: only the size cap evicts, and the parent's chain is walked down to
    // the seeded genesis.
    let slots = ledger(52);
    let (_dir, store) = temp_blockstore();
    let retention = Retention {
        margin: u64::MAX,
        max_slots: 8,
    };
    let mut driver = retaining_driver(&store, Completion::Streaming, MetricsSink::Off, retention);
    let hash = follow_late_slot(&mut driver, &slots, &store);

    let held = driver.retained();
    assert!(held.peak <= 8, "{held:?}");
    assert_eq!(driver.blockhash(PARENT), None, "the parent was evicted");
    assert_eq!(held.from_ledger, 1, "{held:?}");
    assert_eq!(hash, slots[&LATE].blockhash);
    assert_eq!(hash, unbounded_blockhash(52, &[]));
}
