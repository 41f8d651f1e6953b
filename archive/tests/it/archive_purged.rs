//! Scenario: slots archived and then purged from the local ledger (as retention does) are
//! still served by the archive, equal to what the ledger held.

use crate::common;

use bstore_archive::{Archive, ArchiveReader};
use bstore_ledger::Slot;

#[test]
fn purged_slots_are_served_from_the_archive() {
    let store = common::ledger(1, 24);
    let before: Vec<_> = (1..=24).map(|s| common::record(&store, Slot(s))).collect();
    let archive = Archive::in_memory();
    common::archive(&store, &archive, 8, None, None);
    store.purge_slots(Slot(1), Slot(16)).expect("purges");
    assert!(
        store.meta(Slot(5)).expect("reads").is_none(),
        "purged locally"
    );

    // A later run over the purged span finds nothing to do and breaks nothing.
    let rerun = common::archive(&store, &archive, 8, None, None);
    assert_eq!(rerun.uploaded, 0, "{rerun:?}");

    let reader = common::run(ArchiveReader::open(archive)).expect("opens");
    for (i, want) in before.iter().enumerate() {
        let slot = Slot(i as u64 + 1);
        assert_eq!(
            common::run(reader.block(slot)).expect("reads").as_ref(),
            Some(want)
        );
        for (sig, index) in common::signatures(want) {
            let (_, at) = common::run(reader.transaction(&sig))
                .expect("looks")
                .expect("found");
            assert_eq!((at.slot, at.index), (slot, index));
        }
    }
}
