//! Scenario: a ledger of rooted slots spanning several ranges is archived; every block reads
//! back equal to the ledger's record, the slot listings match the roots, and every signature
//! resolves to its block in at most 3 object reads (sealed and unsealed ranges alike).

use crate::common;

use bstore_archive::{Archive, ArchiveReader};
use bstore_ledger::Slot;

#[test]
fn archived_blocks_and_signatures_read_back() {
    // Slots 10..=45 with ranges of 16: [0,16) [16,32) closed, [32,48) open (max root 45).
    let store = common::ledger(10, 36);
    let archive = Archive::in_memory();
    let summary = common::archive(&store, &archive, 16, None, None);
    assert_eq!(
        (summary.rooted, summary.uploaded, summary.present),
        (36, 36, 0)
    );
    assert_eq!(summary.ranges_sealed, 2, "{summary:?}");
    assert_eq!(
        summary.requests.puts,
        1 + 2 * 36 + 2,
        "layout + 2 per slot + 2 seals"
    );
    assert!(summary.block_bytes < summary.raw_bytes);

    let reader = common::run(ArchiveReader::open(archive.clone())).expect("opens");
    for s in 10..46 {
        let want = common::record(&store, Slot(s));
        let got = common::run(reader.block(Slot(s)))
            .expect("reads")
            .expect("archived");
        assert_eq!(got, want, "slot {s}");
    }
    assert_eq!(common::run(reader.block(Slot(9))).expect("reads"), None);
    let listed = common::run(reader.slots(Slot(0), Slot(100), 1000)).expect("lists");
    assert_eq!(listed, (10..46).map(Slot).collect::<Vec<_>>());
    let some = common::run(reader.slots(Slot(20), Slot(30), 5)).expect("lists");
    assert_eq!(some, (20..25).map(Slot).collect::<Vec<_>>());
    assert_eq!(
        common::run(reader.first_slot()).expect("lists"),
        Some(Slot(10))
    );

    for s in [10u64, 17, 31, 32, 45] {
        let record = common::record(&store, Slot(s));
        for (sig, index) in common::signatures(&record) {
            let before = archive.counts().gets;
            let (block, at) = common::run(reader.transaction(&sig))
                .expect("resolves")
                .expect("found");
            let reads = archive.counts().gets - before;
            assert_eq!((at.slot, at.index), (Slot(s), index));
            assert_eq!(block, record);
            let bound = if s < 32 { 3 } else { 1 };
            assert!(reads <= bound, "slot {s}: {reads} reads");
        }
    }
    let before = archive.counts().gets;
    assert_eq!(
        common::run(reader.transaction(&[0x42; 64])).expect("looks"),
        None
    );
    assert!(
        archive.counts().gets - before <= 2,
        "an absent signature is mostly a bloom miss"
    );
}
