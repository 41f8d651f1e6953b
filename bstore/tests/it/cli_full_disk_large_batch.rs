//! Scenario: a full disk during a write batch larger than RocksDB's file writer buffer
//! (1 MiB): a generated slot of 1,024 data shreds with code shreds is one ~2.4 MB batch,
//! which reaches the log in several `write`s, so the failed batch leaves its first parts in
//! the log. The store cuts them off when it closes: every slot written before the failure
//! reads back unchanged, the ledger is healthy, and the default read-write open (a purge)
//! runs (docs/damage-and-repair.md#a-full-disk).

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
    let failed = generate_large(ledger, 4, 40);
    assert_out_of_space(&failed, "40 large slots fit in 20 MiB");
    // The cut is not silent: the operator is told which log lost which bytes.
    let stderr = String::from_utf8_lossy(&failed.stderr);
    let cut = stderr
        .lines()
        .find(|l| l.contains(" WARN ") && l.contains(".log: cut the last "))
        .unwrap_or_else(|| panic!("no line names the cut: {stderr}"));
    assert!(cut.contains("the part of a write that failed"), "{cut}");
    // Read without write access (the read-only default tolerates a torn last record).
    assert_eq!(slot_summaries(ledger, 1..=3), before);

    std::fs::remove_file(disk.path("filler")).expect("remove the filler");
    // The failed batch's first parts were cut off the log when the store closed: the
    // default read-write open (absolute consistency) finds nothing to refuse.
    let report = check(&ledger_path);
    assert_eq!(report["healthy"], true, "the torn write was cut: {report}");
    let (out, _) = bstore_output_within(&["ledger", "purge", "--ledger", ledger, "1", "1"], BUDGET);
    assert!(
        out.status.success(),
        "purge with the default recovery mode: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(json_lines(&String::from_utf8_lossy(&out.stdout)).len(), 1);
    assert_eq!(check(&ledger_path)["healthy"], true);
    assert_eq!(slot_summaries(ledger, 2..=3), before[1..].to_vec());
}
