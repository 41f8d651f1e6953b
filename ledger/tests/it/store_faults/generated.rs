//! The fault rules of `mod.rs` on the store model's forked ledger (0 → 1 → 2 → {3, 5}):
//! slots inserted set by set, rooted, purged and inserted again, with every write, read,
//! cursor step and compaction failing in turn.

use super::{Call, EVERY, every_fault, in_memory};
use crate::model::GenLedger;

use bstore_ledger::Slot;
use bstore_ledger::store::{FaultPoint, InsertOptions};

fn workload() -> Vec<Call> {
    let ledger = GenLedger::new(0x5eed);
    let options = InsertOptions::default();
    let mut calls = Vec::new();
    for g in &ledger.slots {
        // Data shreds of the first set with every other code shred: the call recovers.
        let mut first: Vec<Vec<u8>> = g.data.iter().take(20).cloned().collect();
        first.extend(g.code.iter().step_by(2).take(16).cloned());
        calls.push(Call::Insert(first, options));
        calls.push(Call::Insert(
            g.data.iter().skip(32).cloned().collect(),
            options,
        ));
    }
    calls.push(Call::SetRoots(vec![Slot(0), Slot(1)]));
    calls.push(Call::Purge(Slot(3), Slot(3)));
    let three = ledger.slots.iter().find(|g| g.slot == Slot(3));
    if let Some(g) = three {
        calls.push(Call::Insert(g.data.clone(), options));
    }
    calls.push(Call::SetRoots(vec![Slot(2)]));
    calls
}

fn slots() -> Vec<Slot> {
    [0, 1, 2, 3, 5].map(Slot).to_vec()
}

#[test]
fn every_fault_in_a_forked_ledger_changes_nothing_and_the_retry_matches() {
    let made = in_memory();
    for call in workload() {
        call.run(&made.store).expect("no fault");
    }
    let meta = made.store.meta(Slot(5)).expect("meta").expect("slot 5");
    assert!(meta.is_full() && meta.is_connected(), "{meta:?}");
    // Slot 3 was purged, then inserted again.
    assert!(made.store.meta(Slot(3)).expect("meta").is_some());
    assert_eq!(made.store.purged_to(), Some(Slot(3)));
    let injected = every_fault(in_memory, &workload(), &FaultPoint::ALL, EVERY, &slots());
    assert!(injected > workload().len(), "{injected} faults injected");
}
