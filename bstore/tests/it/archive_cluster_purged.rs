//! Scenario (real 3-node Garage cluster, `scripts/archive-cluster.sh`): `bstore archive`
//! uploads a ledger's rooted slots; the slots are purged locally with `bstore ledger purge`;
//! every block reads back from the archive equal to what the ledger held, every signature
//! resolves, and the slot listing and first slot match. A rerun uploads nothing.

use crate::archive_support as support;

use bstore_ledger::Slot;

#[test]
#[ignore = "needs the Garage cluster: scripts/archive-cluster.sh"]
fn archived_then_purged_slots_read_back_from_the_cluster() {
    let dir = tempfile::tempdir().expect("tempdir");
    let records = support::make_ledger(dir.path(), 40, 128);
    let url = support::fresh_url("purged");
    let summary = support::archive_cli(dir.path(), &url, &["--range-slots", "16"]);
    assert_eq!(summary["uploaded"], 40, "{summary}");
    assert_eq!(summary["ranges_sealed"], 2, "{summary}");

    let ledger = dir.path().to_str().expect("utf-8");
    support::bstore_ok(&["ledger", "purge", "--ledger", ledger, "1", "40"]);
    let gone = support::bstore(&["ledger", "slot", "--ledger", ledger, "5"]);
    assert!(!gone.status.success(), "slot 5 is purged locally");

    let rt = support::runtime();
    let reader = support::reader(&rt, &url);
    support::assert_archived(&rt, &reader, &records);
    let slots = rt
        .block_on(reader.slots(Slot(0), Slot(100), 1000))
        .expect("lists");
    assert_eq!(slots, (1..=40).map(Slot).collect::<Vec<_>>());
    assert_eq!(
        rt.block_on(reader.first_slot()).expect("lists"),
        Some(Slot(1))
    );

    let rerun = support::archive_cli(dir.path(), &url, &[]);
    assert_eq!(rerun["uploaded"], 0, "{rerun}");
}
