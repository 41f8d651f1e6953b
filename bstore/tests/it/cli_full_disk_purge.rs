//! Scenario: a ledger on a disk filled to the last byte. Writing more fails with a clean
//! error and loses nothing (every slot reads back as before); `ledger purge` still runs, the
//! free space `df` shows grows, the bytes it reports are the database's real size on disk
//! before and after, and the space reserve is back in place.

use crate::common::{bstore_output_within, json_lines};
use crate::full_disk_support::{
    BUDGET, SmallDisk, assert_out_of_space, assert_ran, check, du, generate, read_slot,
    slot_summaries, unlisted_ssts,
};

const SLOTS: u64 = 30;

#[test]
fn a_full_disk_loses_nothing_and_purge_gives_the_space_back() {
    let disk = SmallDisk::mount(160);
    let ledger_path = disk.path("ledger");
    let ledger = ledger_path.to_str().expect("utf-8");
    assert_ran(&generate(ledger, 1, SLOTS));
    let before = slot_summaries(ledger, 1..=SLOTS);
    disk.fill_up("filler");

    // Writing to a full disk fails cleanly, and the ledger keeps every slot it had.
    assert_out_of_space(
        &generate(ledger, SLOTS + 1, 5),
        "a write to a full disk succeeded",
    );
    assert_eq!(
        slot_summaries(ledger, 1..=SLOTS),
        before,
        "a slot changed on the full disk"
    );
    let report = check(&ledger_path);
    assert_eq!(report["healthy"], true, "{report}");
    assert_eq!(unlisted_ssts(&ledger_path), Vec::<String>::new());

    // The purge runs on the full disk and gives its space back.
    let db = ledger_path.join("rocksdb");
    let (du_before, free_before) = (du(&db), disk.free_bytes());
    let (out, _) =
        bstore_output_within(&["ledger", "purge", "--ledger", ledger, "1", "20"], BUDGET);
    assert!(
        out.status.success(),
        "purge on a full disk failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = json_lines(&String::from_utf8_lossy(&out.stdout)).remove(0);
    assert_eq!(summary["slots_with_meta"], 20, "{summary}");
    assert_eq!(summary["bytes_before"], du_before, "{summary}");
    assert_eq!(summary["bytes_after"], du(&db), "{summary}");
    let (b, a) = (
        summary["bytes_before"].as_u64().expect("n"),
        summary["bytes_after"].as_u64().expect("n"),
    );
    assert!(a < b / 2, "two thirds of the slots went: {b} -> {a}");
    let free_after = disk.free_bytes();
    assert!(
        free_after >= free_before + (b - a) / 2,
        "df shows the space back: {free_before} -> {free_after}, ledger {b} -> {a}"
    );
    assert_eq!(
        summary["space_reserve_bytes"].as_u64(),
        Some(std::fs::metadata(ledger_path.join("bstore-space-reserve")).map_or(0, |m| m.len())),
        "{summary}"
    );
    assert!(
        summary["space_reserve_bytes"].as_u64() > Some(0),
        "{summary}"
    );

    // The purged slots are gone, the others read as before, nothing is left unlisted.
    let kept = slot_summaries(ledger, 21..=SLOTS);
    assert_eq!(
        kept,
        before[20..].to_vec(),
        "a slot outside the range changed"
    );
    let gone = read_slot(ledger, 5);
    assert!(!gone.status.success());
    assert!(String::from_utf8_lossy(&gone.stderr).contains("slot 5 is not in the ledger"));
    assert_eq!(unlisted_ssts(&ledger_path), Vec::<String>::new());
    assert_eq!(check(&ledger_path)["healthy"], true);
}

#[test]
fn a_database_linked_to_another_disk_gets_no_reserve_that_could_not_help_it() {
    let disk = SmallDisk::mount(32);
    let dir = tempfile::tempdir().expect("tempdir");
    let ledger_path = dir.path().join("ledger");
    std::fs::create_dir_all(disk.path("db")).expect("mkdir on the small disk");
    std::fs::create_dir_all(&ledger_path).expect("mkdir");
    std::os::unix::fs::symlink(disk.path("db"), ledger_path.join("rocksdb")).expect("link");
    let ledger = ledger_path.to_str().expect("utf-8");
    let made = generate(ledger, 1, 2);
    let stderr = String::from_utf8_lossy(&made.stderr);
    assert!(made.status.success(), "{stderr}");
    assert!(stderr.contains("another file system"), "{stderr}");
    assert!(!ledger_path.join("bstore-space-reserve").exists());
    assert_eq!(slot_summaries(ledger, 1..=2).len(), 2);
}
