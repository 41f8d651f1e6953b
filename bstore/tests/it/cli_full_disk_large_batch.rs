//! Scenario: a full disk during a write batch larger than RocksDB's file writer buffer
//! (1 MiB): a generated slot of 1,024 data shreds with code shreds is one ~2.4 MB batch,
//! which reaches the log in several `write`s, so the failed batch can leave its first parts
//! in the log. Whatever the log's tail, every slot written before the failure reads back
//! unchanged, and `tolerate_corrupted_tail_records` drops only the failed batch: the purge
//! then runs and the ledger is healthy again (docs/damage-and-repair.md#a-full-disk).

use crate::common::{bstore_output_within, json_lines};
use crate::full_disk_support::{
    BUDGET, SmallDisk, assert_out_of_space, assert_ran, check, generate_shaped, slot_summaries,
};

/// `ledger generate` of `slots` slots of 1,024 data shreds with code shreds, no reserve.
fn generate_large(ledger: &str, first: u64, slots: u64) -> std::process::Output {
    generate_shaped(ledger, first, slots, 1024, &["--space-reserve", "0"])
}

#[test]
fn a_full_disk_inside_a_large_batch_loses_no_earlier_slot() {
    let disk = SmallDisk::mount(64);
    let ledger_path = disk.path("ledger");
    let ledger = ledger_path.to_str().expect("utf-8");
    assert_ran(&generate_large(ledger, 1, 3));
    let before = slot_summaries(ledger, 1..=3);

    disk.fill("filler", 20 << 20);
    assert_out_of_space(
        &generate_large(ledger, 4, 40),
        "40 large slots fit in 20 MiB",
    );
    // Read without write access (the read-only default tolerates a torn last record).
    assert_eq!(slot_summaries(ledger, 1..=3), before);

    std::fs::remove_file(disk.path("filler")).expect("remove the filler");
    let report = check(&ledger_path);
    if report["healthy"] != true {
        let damage = report["damage"].to_string();
        assert!(
            damage.contains("truncated record"),
            "a full disk may only tear the log's last record: {report}"
        );
    }
    let (out, _) = bstore_output_within(
        &[
            "ledger",
            "purge",
            "--ledger",
            ledger,
            "--wal-recovery-mode",
            "tolerate_corrupted_tail_records",
            "1",
            "1",
        ],
        BUDGET,
    );
    assert!(
        out.status.success(),
        "purge dropping only the torn write: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(json_lines(&String::from_utf8_lossy(&out.stdout)).len(), 1);
    assert_eq!(check(&ledger_path)["healthy"], true);
    assert_eq!(slot_summaries(ledger, 2..=3), before[1..].to_vec());
}
