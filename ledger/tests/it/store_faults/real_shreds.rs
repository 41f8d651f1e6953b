//! The fault rules of `mod.rs` on real shreds: the testnet slot 417955322 (320 data and
//! coding shreds) and Agave's chained slots 10 → 11 → 12, shuffled into insert calls, then
//! roots and a purge.

use super::{Call, EVERY, every_fault, in_memory};
use crate::common;

use bstore_ledger::fetch::{AllowDead, EntryFetch};
use bstore_ledger::shred::ShredRef;
use bstore_ledger::store::FaultPoint;
use bstore_ledger::{LedgerError, Slot};

const TESTNET: Slot = Slot(417_955_322);

/// Every packet, shuffled by a fixed xorshift (the same order on every run).
fn packets() -> Vec<Vec<u8>> {
    let mut all = common::read_records("sig-testnet-417955322/shreds.bin");
    for file in ["shreds", "more_shreds", "unrooted_shreds"] {
        all.extend(common::read_records(&format!(
            "sig-agave-generated/agave.blockstore.test_get_rooted_block.{file}.bin"
        )));
    }
    let mut state = 0x2545_f491_u64;
    for i in (1..all.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        all.swap(i, (state % (i as u64 + 1)) as usize);
    }
    all
}

/// Eleven insert calls, two `set_roots` and a purge of slot 10 between them.
fn workload() -> Vec<Call> {
    // The Agave-made slots come from a pre-4.x shredder (34-shred sets).
    let options = common::legacy_shapes();
    let mut calls: Vec<Call> = packets()
        .chunks(40)
        .map(|chunk| Call::Insert(chunk.to_vec(), options))
        .collect();
    calls.insert(3, Call::SetRoots(vec![Slot(9)]));
    calls.push(Call::SetRoots(vec![Slot(10), Slot(11)]));
    calls.push(Call::Purge(Slot(10), Slot(10)));
    calls.push(Call::SetRoots(vec![Slot(12), TESTNET]));
    calls
}

fn slots() -> Vec<Slot> {
    let mut slots: Vec<Slot> = packets()
        .iter()
        .filter_map(|p| ShredRef::parse(p).ok().map(|s| s.slot()))
        .collect();
    slots.sort();
    slots.dedup();
    slots
}

/// The workload itself does what the fault runs compare against: the real slots are full
/// and fetch their entries, the purge took slot 10, the roots are set.
#[test]
fn the_workload_without_faults_stores_the_real_slots() {
    let made = in_memory();
    for call in workload() {
        call.run(&made.store).expect("no fault");
    }
    let store = &made.store;
    assert_eq!(slots(), [Slot(10), Slot(11), Slot(12), TESTNET]);
    for slot in [Slot(11), Slot(12), TESTNET] {
        let got = store
            .get_slot_entries_with_shred_info(slot, 0, AllowDead::No)
            .expect("fetch");
        assert!(got.is_full && !got.entries.is_empty(), "slot {slot}");
    }
    assert!(matches!(
        store.get_slot_entries_with_shred_info(Slot(10), 0, AllowDead::No),
        Err(LedgerError::SlotCleanedUp { .. })
    ));
    assert!(store.is_root(Slot(12)).expect("root") && store.is_root(Slot(11)).expect("root"));
}

#[test]
fn every_failed_write_changes_nothing_and_the_retry_matches() {
    let injected = every_fault(
        in_memory,
        &workload(),
        &[FaultPoint::Write],
        EVERY,
        &slots(),
    );
    // One write per call, and a purge's second (after its compaction: the purge stands).
    let purges = workload()
        .iter()
        .filter(|c| matches!(c, super::Call::Purge(..)))
        .count();
    assert_eq!(injected, workload().len() + purges, "writes per call");
}

#[test]
fn failed_reads_and_cursor_steps_change_nothing_and_the_retry_matches() {
    let points = [FaultPoint::Read, FaultPoint::CursorStep];
    let injected = every_fault(in_memory, &workload(), &points, EVERY, &slots());
    assert!(injected > workload().len(), "{injected} faults injected");
}

#[test]
fn a_failed_compaction_leaves_the_purge_done() {
    let injected = every_fault(
        in_memory,
        &workload(),
        &[FaultPoint::Compact],
        EVERY,
        &slots(),
    );
    assert!(injected > 1, "{injected} faults injected");
}

#[cfg(feature = "storage")]
#[test]
fn on_rocksdb_failed_writes_and_compactions_change_nothing() {
    let points = [FaultPoint::Write, FaultPoint::Compact];
    let injected = every_fault(super::on_rocksdb, &workload(), &points, 3, &slots());
    assert!(injected > workload().len(), "{injected} faults injected");
}
