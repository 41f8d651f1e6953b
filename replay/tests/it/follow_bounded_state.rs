//! A follower over a long chain whose root advances behind the newest slot holds at most
//! the retention margin (plus the slots the root lags) of finished slots, and still replays
//! every slot from its parent.

use crate::common;

use std::sync::atomic::AtomicBool;

use bstore_ledger::Slot;
use bstore_replay::{Completion, MetricsSink, Retention, SlotStatus, follow};
use common::{retaining_driver, synth_chain, temp_blockstore};

/// Slots in the chain.
const SLOTS: u64 = 240;
/// How far the ledger's root stays behind the newest inserted slot.
const ROOT_LAG: u64 = 4;
/// The driver's retention margin.
const MARGIN: u64 = 16;

#[test]
fn a_long_follow_holds_only_the_margin_below_the_root() {
    let chain = synth_chain(41, SLOTS, 8);
    let (_dir, store) = temp_blockstore();
    let (updates, updates_rx) = crossbeam_channel::unbounded();
    let inserter = {
        let store = store.clone();
        let chain: Vec<_> = chain
            .iter()
            .map(|s| (s.slot, s.data_shreds.clone()))
            .collect();
        std::thread::spawn(move || {
            for (slot, shreds) in chain {
                store.insert_shreds(&shreds).expect("insert");
                // As a validator roots a slot some way behind the newest one.
                if let Some(root) = slot.0.checked_sub(ROOT_LAG).filter(|r| *r > 0) {
                    store.set_roots([Slot(root)]).expect("root");
                }
                updates.send(slot).expect("replay listening");
            }
        })
    };

    let retention = Retention {
        margin: MARGIN,
        ..Retention::default()
    };
    let mut driver = retaining_driver(&store, Completion::Streaming, MetricsSink::Off, retention);
    let exit = AtomicBool::new(false);
    let mut blockhashes = Vec::new();
    let summary = follow(&mut driver, &updates_rx, &exit, |slot, status| {
        if let SlotStatus::Replayed { blockhash, .. } = status {
            blockhashes.push((slot, blockhash));
        }
    })
    .expect("store ok");
    inserter.join().expect("inserter");

    assert_eq!(summary.replayed as u64, SLOTS, "{summary:?}");
    assert!(summary.unfinished.is_empty(), "{:?}", summary.unfinished);
    let expected: Vec<_> = chain.iter().map(|s| (s.slot, s.blockhash)).collect();
    assert_eq!(blockhashes, expected, "every slot chained from its parent");

    let held = driver.retained();
    // Held slots lie between `min(root, newest finished) - MARGIN` and the newest finished
    // slot, which is at most ROOT_LAG above the root it was replayed under.
    let bound = usize::try_from(MARGIN + ROOT_LAG + 1).expect("small");
    assert!(
        held.peak <= bound,
        "peak {} over {bound}: {held:?}",
        held.peak
    );
    assert!(held.blockhashes <= bound, "{held:?}");
    assert_eq!(held.dead, 0);
    assert_eq!(held.active, 0);
    assert_eq!(held.evicted + held.blockhashes as u64, SLOTS, "{held:?}");
    let root = SLOTS - ROOT_LAG;
    assert_eq!(held.floor, Slot(root - MARGIN), "{held:?}");
    assert_eq!(driver.blockhash(Slot(1)), None, "slot 1 was evicted");
    let last = chain.last().expect("a chain");
    assert_eq!(driver.blockhash(last.slot), Some(last.blockhash));
    assert_eq!(held.from_ledger, 0, "every parent was still held");
}
