//! After eviction, parents the ledger does not vouch for are refused exactly as a driver
//! that never evicts refuses them: a dead parent (the blockstore's flag answers), a child of
//! a slot refused for its dead parent, and a parent that is not full.

use crate::common;

use std::collections::BTreeMap;
use std::sync::Arc;

use bstore_ledger::Slot;
use bstore_ledger::store::Blockstore;
use bstore_ledger::synth::GeneratedSlot;
use bstore_replay::{Completion, MetricsSink, ReplayDriver, Retained, Retention, SlotStatus};
use common::{data_byte, retaining_driver, synth_forks, temp_blockstore};

/// Bad PoH: marked dead when replayed.
const DEAD: Slot = Slot(41);
/// Child of `DEAD`: refused, not marked.
const ORPHANED: Slot = Slot(42);
/// Child of `ORPHANED`, named late.
const GRANDCHILD: Slot = Slot(43);
/// Never full (its last shred never arrives).
const PARTIAL: Slot = Slot(44);
/// Child of `PARTIAL`, named late.
const AFTER_PARTIAL: Slot = Slot(45);

/// Main chain 1..=40 and 46..=100; forks 41 <- 42 <- 43 off slot 2, 44 <- 45 off slot 3.
fn ledger() -> BTreeMap<Slot, GeneratedSlot> {
    let mut links: Vec<(u64, u64)> = (1..=40).map(|s| (s, s - 1)).collect();
    links.extend([(41, 2), (42, 41), (43, 42), (44, 3), (45, 44), (46, 40)]);
    links.extend((47..=100).map(|s| (s, s - 1)));
    synth_forks(61, &links, 8)
}

/// Stores everything but the late slots (and `PARTIAL`'s last shred), roots the main chain
/// up to 90, and replays the stored slots in order (`PARTIAL` only while streaming: a final
/// ledger would mark it dead as incomplete).
fn replay_early(
    driver: &mut ReplayDriver,
    completion: Completion,
    store: &Arc<Blockstore>,
    slots: &BTreeMap<Slot, GeneratedSlot>,
) {
    for (slot, generated) in slots {
        match *slot {
            GRANDCHILD | AFTER_PARTIAL => {}
            DEAD => {
                let mut shreds = generated.data_shreds.clone();
                shreds[0][data_byte(16)] ^= 0xff;
                common::insert_tampered(store, &shreds);
            }
            PARTIAL => {
                let last = generated.data_shreds.len() - 1;
                store
                    .insert_shreds(&generated.data_shreds[..last])
                    .expect("insert");
            }
            _ => {
                store.insert_shreds(&generated.data_shreds).expect("insert");
            }
        }
    }
    store
        .set_roots((1..=40).chain(46..=90).map(Slot))
        .expect("roots");
    let streaming = completion == Completion::Streaming;
    let named = slots
        .keys()
        .filter(|s| ![GRANDCHILD, AFTER_PARTIAL].contains(s))
        .filter(|s| streaming || **s != PARTIAL);
    for slot in named {
        let status = driver.replay(*slot).expect("store ok");
        let expected = match *slot {
            DEAD => matches!(status, SlotStatus::Dead { .. }),
            ORPHANED => verdict(&status) == "refused:parent_dead",
            PARTIAL => matches!(status, SlotStatus::InProgress { .. }),
            _ => matches!(status, SlotStatus::Replayed { .. }),
        };
        assert!(expected, "slot {slot}: {status:?}");
    }
}

/// A status in a few words, to compare two drivers' answers.
fn verdict(status: &SlotStatus) -> String {
    match status {
        SlotStatus::InProgress { .. } => "in_progress".into(),
        SlotStatus::WaitingForParent { parent } => format!("waiting:{parent}"),
        SlotStatus::Replayed { blockhash, .. } => format!("replayed:{blockhash}"),
        SlotStatus::Dead { error, .. } => format!("dead:{}", error.kind()),
        SlotStatus::Refused { error } => format!("refused:{}", error.kind()),
    }
}

/// The answers for the late slots (and `ORPHANED` named again) after the early replay, and
/// what the driver holds then.
fn late_answers(completion: Completion, retention: Retention) -> (Vec<String>, Retained) {
    let slots = ledger();
    let (_dir, store) = temp_blockstore();
    let mut driver = retaining_driver(&store, completion, MetricsSink::Off, retention);
    replay_early(&mut driver, completion, &store, &slots);
    for late in [GRANDCHILD, AFTER_PARTIAL] {
        store
            .insert_shreds(&slots[&late].data_shreds)
            .expect("insert late");
    }
    let read_back = driver.retained().from_ledger;
    let answers = [ORPHANED, GRANDCHILD, AFTER_PARTIAL]
        .into_iter()
        .map(|slot| verdict(&driver.replay(slot).expect("store ok")))
        .collect();
    let held = driver.retained();
    assert_eq!(held.from_ledger, read_back, "no late parent was trusted");
    (answers, held)
}

#[test]
fn refusals_do_not_change_when_the_parents_are_evicted() {
    let bounded = Retention {
        margin: 4,
        ..Retention::default()
    };
    for completion in [Completion::Streaming, Completion::Final] {
        let (evicting, held) = late_answers(completion, bounded);
        assert!(held.floor > PARTIAL, "{held:?}");
        assert_eq!(held.dead, 0, "the dead mark was evicted: {held:?}");
        let (unbounded, _) = late_answers(completion, Retention::UNBOUNDED);
        assert_eq!(evicting, unbounded, "{completion:?}");
    }
    // What the answers are, so both drivers cannot agree on something else.
    let (streaming, _) = late_answers(Completion::Streaming, bounded);
    assert_eq!(
        streaming,
        ["refused:parent_dead", "waiting:42", "waiting:44"],
        "streaming"
    );
    let (last, _) = late_answers(Completion::Final, bounded);
    assert_eq!(
        last,
        [
            "refused:parent_dead",
            "refused:parent_unknown",
            "refused:parent_unknown"
        ],
        "final"
    );
}
