//! A damaged write-ahead-log record is an error by default in every access mode (naming
//! the log), and the read-write open that refuses keeps every file; dropping records takes
//! an explicit recovery mode.
#![cfg(feature = "storage")]

use crate::damage_support::{
    Flush, ROOTED, assert_nothing_lost, db, every_mode, files, names_ending, open_err, small_ledger,
};

use bstore_ledger::store::{AccessMode, Blockstore, OpenOptions, WalRecoveryMode, check};
use bstore_ledger::{LedgerError, Slot};

#[test]
fn a_corrupt_wal_record_is_an_error_by_default_and_the_data_is_kept() {
    let dir = tempfile::tempdir().expect("tempdir");
    small_ledger(dir.path(), Flush::No);
    let logs = names_ending(dir.path(), ".log");
    let log = logs.last().expect("a write-ahead log").clone();
    let path = db(dir.path()).join(&log);
    let mut bytes = std::fs::read(&path).expect("read");
    assert!(bytes.len() > 100_000, "the slot's shreds are in the log");
    // Inside the records of the testnet shreds, long before the roots written last.
    let at = bytes.len() / 3;
    for b in &mut bytes[at..at + 16] {
        *b ^= 0x5a;
    }
    std::fs::write(&path, &bytes).expect("corrupt");
    let before = files(dir.path());

    let secondary = tempfile::tempdir().expect("tempdir");
    for mode in every_mode(secondary.path()) {
        let err = open_err(dir.path(), mode.clone());
        assert!(
            matches!(err, LedgerError::Damaged { .. }),
            "{mode:?}: {err}"
        );
        assert!(err.to_string().contains(&log), "{mode:?}: {err}");
    }
    let err = Blockstore::open(dir.path(), AccessMode::ReadWrite).expect_err("default");
    assert!(err.to_string().contains(&log), "{err}");
    assert_nothing_lost(&before, dir.path(), "refused opens");
    let report = check(dir.path(), None).expect("check");
    assert!(!report.is_healthy());

    // Only an explicit mode drops records: point-in-time stops at the damage, so the roots
    // written after it are gone from what a read-only open sees (nothing changes on disk).
    let options = OpenOptions::existing(AccessMode::ReadOnly)
        .with_wal_recovery(Some(WalRecoveryMode::PointInTime));
    let store = Blockstore::open_with(dir.path(), &options).expect("point in time");
    assert!(
        !store.is_root(Slot(ROOTED)).expect("read"),
        "records after the damage dropped"
    );
    drop(store);
    assert_nothing_lost(&before, dir.path(), "read-only point in time");
}
