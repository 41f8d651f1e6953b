//! Scenario (real 3-node Garage cluster, `scripts/archive-cluster.sh`): a `bstore archive`
//! killed midway leaves no half-uploaded block visible — every block object there decodes to
//! exactly the ledger's record and has its signature table — and a rerun completes it.

use crate::archive_support as support;

use std::process::Command;
use std::time::{Duration, Instant};

use bstore_ledger::Slot;

#[test]
#[ignore = "needs the Garage cluster: scripts/archive-cluster.sh"]
fn a_killed_upload_is_invisible_until_a_rerun_completes_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let total = 150u64;
    let records = support::make_ledger(dir.path(), total, 256);
    let url = support::fresh_url("interrupt");
    let ledger = dir.path().to_str().expect("utf-8");
    let mut child = Command::new(env!("CARGO_BIN_EXE_bstore"))
        .args([
            "archive",
            "--ledger",
            ledger,
            "--to",
            &url,
            "--concurrency",
            "1",
        ])
        .args(["--range-slots", "32"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("starts bstore archive");

    let rt = support::runtime();
    let archive = support::archive(&url);
    let started = Instant::now();
    let killed_at = loop {
        let n = rt
            .block_on(archive.list_slots("blocks", Slot(0), Slot(u64::MAX), usize::MAX))
            .map_or(0, |s| s.len());
        if n >= 10 {
            child.kill().expect("kills its own child");
            break n;
        }
        assert!(
            child.try_wait().expect("waits").is_none(),
            "the upload ended before it was killed"
        );
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no progress in 120 s"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    child.wait().expect("reaped");

    let blocks = rt
        .block_on(archive.list_slots("blocks", Slot(0), Slot(u64::MAX), usize::MAX))
        .expect("lists");
    let sigs = rt
        .block_on(archive.list_slots("sigs", Slot(0), Slot(u64::MAX), usize::MAX))
        .expect("lists");
    assert!(
        blocks.len() >= killed_at && (blocks.len() as u64) < total,
        "{} blocks",
        blocks.len()
    );
    let reader = support::reader(&rt, &url);
    for slot in &blocks {
        assert!(
            sigs.contains(slot),
            "block {slot} without its signature table"
        );
        let got = rt
            .block_on(reader.block(*slot))
            .expect("reads")
            .expect("listed");
        assert_eq!(&got, &records[(slot.0 - 1) as usize], "slot {slot}");
    }

    let rerun = support::archive_cli(dir.path(), &url, &[]);
    assert_eq!(rerun["present"], blocks.len() as u64, "{rerun}");
    assert_eq!(rerun["uploaded"], total - blocks.len() as u64, "{rerun}");
    rt.block_on(reader.refresh()).expect("refreshes");
    support::assert_archived(&rt, &reader, &records);
}
