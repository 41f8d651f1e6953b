//! Scenario (real 3-node Garage cluster, replication factor 3, `scripts/archive-cluster.sh`):
//! with one node killed, uploads and reads go on; with a second killed, both fail with an
//! error naming the operation and the object, and nothing already archived is damaged;
//! once both are back, everything reads back intact and a rerun completes the archive.

use crate::archive_support as support;

use bstore_ledger::Slot;

#[test]
#[ignore = "needs the Garage cluster: scripts/archive-cluster.sh"]
fn one_node_down_is_served_two_down_fail_cleanly_and_recovery_is_whole() {
    let dir = tempfile::tempdir().expect("tempdir");
    let records = support::make_ledger(dir.path(), 60, 64);
    let url = support::fresh_url("faults");
    let rt = support::runtime();
    let first = support::archive_cli(dir.path(), &url, &["--end", "20", "--range-slots", "16"]);
    assert_eq!(first["uploaded"], 20, "{first}");

    support::node("stop-node", 3);
    let reader = support::reader(&rt, &url);
    support::assert_archived(&rt, &reader, &records[..20]);
    let second = support::archive_cli(dir.path(), &url, &["--start", "21", "--end", "40"]);
    assert_eq!(second["uploaded"], 20, "{second}");

    support::node("stop-node", 2);
    let ledger = dir.path().to_str().expect("utf-8");
    let mut args = vec!["archive", "--ledger", ledger, "--to", &url, "--start", "41"];
    args.extend_from_slice(&support::QUICK_FLAGS);
    let out = support::bstore(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "an upload below quorum must fail");
    assert!(stderr.contains("object store"), "{stderr}");
    let e = rt
        .block_on(reader.block(Slot(5)))
        .expect_err("a read below quorum fails");
    let msg = e.to_string();
    assert!(
        msg.contains("object store GET") && msg.contains("blocks/0000000000000005"),
        "{msg}"
    );

    support::node("start-node", 2);
    support::node("start-node", 3);
    let reader = support::reader(&rt, &url);
    support::assert_archived(&rt, &reader, &records[..40]);
    // Whatever the failed run left is either absent or whole.
    for want in &records[40..] {
        if let Some(got) = rt.block_on(reader.block(want.slot)).expect("reads") {
            assert_eq!(&got, want, "slot {}", want.slot);
        }
    }
    let last = support::archive_cli(dir.path(), &url, &[]);
    assert_eq!(
        last["present"].as_u64().expect("n") + last["uploaded"].as_u64().expect("n"),
        60,
        "{last}"
    );
    rt.block_on(reader.refresh()).expect("refreshes");
    support::assert_archived(&rt, &reader, &records);
}
