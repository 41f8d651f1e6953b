//! A slot is replayed only from a known parent: a child of a dead slot is refused (and not
//! marked dead itself), a child of an unknown parent waits while streaming and is refused
//! with a clear reason on a finished ledger.

use crate::common;

use bstore_ledger::Slot;
use bstore_replay::{Completion, MetricsSink, ReplayError, SlotStatus};
use common::{data_byte, dead, replayed, synth_chain, synth_driver, temp_blockstore};

#[test]
fn child_of_a_dead_slot_is_refused_and_child_of_unknown_parent_waits() {
    let chain = synth_chain(11, 2, 64);
    let (_dir, store) = temp_blockstore();
    // Slot 1: first entry's hash corrupted (data bytes 16..48 of shred 0).
    let mut slot1 = chain[0].data_shreds.clone();
    slot1[0][data_byte(16)] ^= 0xff;
    common::insert_tampered(&store, &slot1);
    store
        .insert_shreds(&chain[1].data_shreds)
        .expect("insert 2");

    // Streaming: the child asked first waits for its parent.
    let mut driver = synth_driver(&store, Completion::Streaming, MetricsSink::Off);
    match driver.replay(Slot(2)).expect("store ok") {
        SlotStatus::WaitingForParent { parent } => assert_eq!(parent, Slot(1)),
        other => panic!("expected to wait for slot 1, got {other:?}"),
    }
    let (_, error) = dead(driver.replay(Slot(1)).expect("store ok"));
    assert_eq!(error.kind(), "poh");
    match driver.replay(Slot(2)).expect("store ok") {
        SlotStatus::Refused {
            error: error @ ReplayError::ParentDead { .. },
        } => {
            assert_eq!(error.to_string(), "slot 2: parent slot 1 is dead");
            assert!(!error.marks_dead());
        }
        other => panic!("expected a refusal for the dead parent, got {other:?}"),
    }
    assert!(store.is_dead(Slot(1)).expect("flag"));
    assert!(
        !store.is_dead(Slot(2)).expect("flag"),
        "the child is not at fault"
    );

    // A new driver on the same ledger knows the parent is dead from the blockstore.
    let mut fresh = synth_driver(&store, Completion::Final, MetricsSink::Off);
    assert!(matches!(
        fresh.replay(Slot(2)).expect("store ok"),
        SlotStatus::Refused {
            error: ReplayError::ParentDead { .. }
        }
    ));
}

#[test]
fn unknown_parent_is_refused_on_a_final_ledger_until_its_blockhash_is_given() {
    let chain = synth_chain(12, 2, 64);
    let (_dir, store) = temp_blockstore();
    store
        .insert_shreds(&chain[1].data_shreds)
        .expect("insert 2 only");
    let mut driver = synth_driver(&store, Completion::Final, MetricsSink::Off);
    match driver.replay(Slot(2)).expect("store ok") {
        SlotStatus::Refused {
            error: error @ ReplayError::ParentUnknown { .. },
        } => assert_eq!(
            error.to_string(),
            "slot 2: parent slot 1 has not been replayed and its blockhash was not given"
        ),
        other => panic!("expected a refusal for the unknown parent, got {other:?}"),
    }
    assert!(!store.is_dead(Slot(2)).expect("flag"));
    // Given the parent's blockhash (as `--parent-blockhash` does), it replays.
    driver.seed_blockhash(Slot(1), chain[0].blockhash);
    let (stats, blockhash) = replayed(driver.replay(Slot(2)).expect("store ok"));
    assert_eq!(blockhash, chain[1].blockhash);
    assert_eq!(stats.total_transactions, chain[1].transactions);
}
