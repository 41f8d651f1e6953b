//! Scenario: runs are idempotent and resumable. A second run uploads nothing; a slot whose
//! upload stopped after its signature table (no block object) is invisible to every read
//! and is completed by the next run; a range archived in two runs is resealed with all its
//! slots, the old seal is deleted, and a reader holding the old one recovers.

use crate::common;

use bstore_archive::{Archive, ArchiveReader};
use bstore_ledger::Slot;

#[test]
fn a_second_run_uploads_nothing() {
    let store = common::ledger(1, 20);
    let archive = Archive::in_memory();
    common::archive(&store, &archive, 8, None, None);
    let again = common::archive(&store, &archive, 8, None, None);
    assert_eq!(
        (again.uploaded, again.present, again.ranges_sealed),
        (0, 20, 0)
    );
    assert_eq!(again.requests.puts, 0, "{again:?}");
}

#[test]
fn an_interrupted_slot_is_invisible_until_a_rerun_completes_it() {
    let store = common::ledger(1, 20);
    let archive = Archive::in_memory();
    common::archive(&store, &archive, 8, None, None);
    // Undo slot 19's commit point (= a run that died between its two PUTs).
    let half = Slot(19);
    common::run(archive.delete(&archive.keys().block(half))).expect("deletes");
    let record = common::record(&store, half);
    let (sig, _) = common::signatures(&record)[0];

    let reader = common::run(ArchiveReader::open(archive.clone())).expect("opens");
    assert_eq!(common::run(reader.block(half)).expect("reads"), None);
    let listed = common::run(reader.slots(Slot(0), Slot(100), 100)).expect("lists");
    assert!(!listed.contains(&half));
    assert_eq!(common::run(reader.transaction(&sig)).expect("looks"), None);

    let rerun = common::archive(&store, &archive, 8, None, None);
    assert_eq!((rerun.uploaded, rerun.present), (1, 19), "{rerun:?}");
    common::run(reader.refresh()).expect("refreshes");
    assert_eq!(
        common::run(reader.block(half)).expect("reads"),
        Some(record)
    );
    let (_, at) = common::run(reader.transaction(&sig))
        .expect("looks")
        .expect("found");
    assert_eq!(at.slot, half);
}

#[test]
fn a_range_archived_in_two_runs_is_resealed() {
    // Ranges of 8; slots 1..=20 rooted, so [0,8) and [8,16) are closed.
    let store = common::ledger(1, 20);
    let archive = Archive::in_memory();
    let first = common::archive(&store, &archive, 8, None, Some(11));
    assert_eq!(first.ranges_sealed, 2, "{first:?}");
    let reader = common::run(ArchiveReader::open(archive.clone())).expect("opens");

    let second = common::archive(&store, &archive, 8, Some(12), None);
    assert_eq!(
        (second.uploaded, second.ranges_sealed, second.seals_deleted),
        (9, 1, 1)
    );
    let seals = common::run(archive.list_names("index", None, 100, |_| false)).expect("lists");
    let names: Vec<&str> = seals.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        ["0000000000000000-00000007", "0000000000000008-00000008"]
    );

    // The reader still has the old seal of [8,16) cached, whose object is gone: a lookup
    // that reads it refreshes and finds the answer in the new seal.
    let record = common::record(&store, Slot(9));
    for (sig, index) in common::signatures(&record) {
        let (_, at) = common::run(reader.transaction(&sig))
            .expect("looks")
            .expect("found");
        assert_eq!((at.slot, at.index), (Slot(9), index));
    }
    // Slots new to the range are found once the catalog is refreshed.
    common::run(reader.refresh()).expect("refreshes");
    let record = common::record(&store, Slot(14));
    for (sig, index) in common::signatures(&record) {
        let (_, at) = common::run(reader.transaction(&sig))
            .expect("looks")
            .expect("found");
        assert_eq!((at.slot, at.index), (Slot(14), index));
    }
}
