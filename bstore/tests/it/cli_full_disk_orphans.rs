//! Scenario: a ledger without a space reserve (as written before there was one) whose last
//! writes, stopped by a full disk, sit only in a 20+ MB write-ahead log, beside a table file
//! an unfinished flush left. Purges tried on the nearly full disk fail cleanly, delete the
//! leftover file and leave none of their own, nor take any more of the disk; once there is
//! room, the purge gives the space back, the log included, and reports the database's real
//! size on disk before and after.

use crate::common::{bstore_output_within, json_lines};
use crate::full_disk_support::{
    BUDGET, SmallDisk, assert_out_of_space, assert_ran, check, du, generate, slot_summaries,
    unlisted_ssts, wal_bytes,
};

#[test]
fn purges_on_a_full_disk_leave_no_unlisted_file_and_later_give_the_log_back() {
    let disk = SmallDisk::mount(96);
    let ledger_path = disk.path("ledger");
    let ledger = ledger_path.to_str().expect("utf-8");
    assert_ran(&generate(ledger, 1, 20));
    // A ledger from before the reserve: nothing held back.
    let _ = std::fs::remove_file(ledger_path.join("bstore-space-reserve"));
    let before = slot_summaries(ledger, 1..=20);

    disk.fill("filler", 31 << 20);
    assert_out_of_space(&generate(ledger, 21, 60), "60 slots fit in 31 MiB");
    assert!(
        wal_bytes(&ledger_path) > 16 << 20,
        "the stopped writes are in the log"
    );

    // A table file an unfinished flush left behind (as older versions' failed opens did):
    // `ledger check` lists it apart, and the next open that can write deletes it.
    let db = ledger_path.join("rocksdb");
    let report = check(&ledger_path);
    let live = report["sst_files"][0]["name"]
        .as_str()
        .expect("an SST file");
    std::fs::copy(db.join(live), db.join("000900.sst")).expect("copy");
    assert_eq!(unlisted_ssts(&ledger_path), vec!["000900.sst".to_string()]);
    let report = check(&ledger_path);
    assert_eq!(
        report["unlisted_files"][0]["name"], "000900.sst",
        "{report}"
    );
    assert_eq!(report["healthy"], true, "{report}");

    let mut free = None;
    for attempt in 1..=3 {
        let (out, _) =
            bstore_output_within(&["ledger", "purge", "--ledger", ledger, "1", "5"], BUDGET);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success(),
            "attempt {attempt}: no room, yet it passed"
        );
        assert!(stderr.contains("No space left on device"), "{stderr}");
        assert!(
            stderr.contains("no space reserve"),
            "says how to make room: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert_eq!(
            unlisted_ssts(&ledger_path),
            Vec::<String>::new(),
            "attempt {attempt} left table files nothing lists"
        );
        let now = disk.free_bytes();
        let first_free = *free.get_or_insert(now);
        assert!(
            now + (256 << 10) >= first_free,
            "attempt {attempt} took disk space: {first_free} -> {now} bytes free"
        );
    }
    assert_eq!(check(&ledger_path)["healthy"], true);

    std::fs::remove_file(disk.path("filler")).expect("remove the filler");
    let du_before = du(&db);
    let (out, _) = bstore_output_within(&["ledger", "purge", "--ledger", ledger, "1", "5"], BUDGET);
    assert!(
        out.status.success(),
        "purge with room failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = json_lines(&String::from_utf8_lossy(&out.stdout)).remove(0);
    assert_eq!(summary["bytes_before"], du_before, "{summary}");
    assert_eq!(summary["bytes_after"], du(&db), "{summary}");
    let (b, a) = (
        summary["bytes_before"].as_u64().expect("n"),
        summary["bytes_after"].as_u64().expect("n"),
    );
    assert!(a < b, "the purge gave space back: {b} -> {a}");
    assert!(
        wal_bytes(&ledger_path) < 1 << 20,
        "the log replayed at open is retired after the purge"
    );
    assert_eq!(unlisted_ssts(&ledger_path), Vec::<String>::new());
    assert_eq!(slot_summaries(ledger, 6..=20), before[5..].to_vec());
    assert_eq!(check(&ledger_path)["healthy"], true);
}
