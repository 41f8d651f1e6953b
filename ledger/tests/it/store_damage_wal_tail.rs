//! A write-ahead log cut off inside its last record (a write torn by a crash): read-write
//! and secondary opens refuse it by default, naming the log; read-only tolerates it by
//! default (a reader beside a live writer sees such a tail); a read-write open drops the torn
//! write only when `tolerate_corrupted_tail_records` is asked for, and keeps everything else.
#![cfg(feature = "storage")]

use crate::damage_support::{
    Flush, ROOTED, assert_nothing_lost, db, files, names_ending, small_ledger,
};

use bstore_ledger::Slot;
use bstore_ledger::store::{AccessMode, Blockstore, OpenOptions, WalRecoveryMode};

#[test]
fn a_torn_last_record_needs_an_explicit_mode_to_open_read_write() {
    let dir = tempfile::tempdir().expect("tempdir");
    let slot = small_ledger(dir.path(), Flush::No);
    {
        // One more write, large enough to span several log blocks, then torn.
        let store = Blockstore::open(dir.path(), AccessMode::ReadWrite).expect("open");
        store.set_roots((1000..3000).map(Slot)).expect("roots");
    }
    let log = names_ending(dir.path(), ".log").pop().expect("a log");
    let path = db(dir.path()).join(&log);
    let bytes = std::fs::read(&path).expect("read");
    std::fs::write(&path, &bytes[..bytes.len() - 100]).expect("tear the last record");
    let before = files(dir.path());

    let err = Blockstore::open(dir.path(), AccessMode::ReadWrite).expect_err("refused");
    assert!(err.to_string().contains(&log), "{err}");
    let secondary = tempfile::tempdir().expect("tempdir");
    let as_secondary = AccessMode::Secondary {
        secondary_path: secondary.path().to_path_buf(),
    };
    // A secondary waits for the rest of a torn record as a follower does: it opens, without
    // the torn write.
    let follower = Blockstore::open(dir.path(), as_secondary).expect("secondary");
    assert!(!follower.is_root(Slot(2999)).expect("read"));
    drop(follower);
    let reader = Blockstore::open(dir.path(), AccessMode::ReadOnly).expect("read-only");
    assert!(reader.is_root(Slot(ROOTED)).expect("read"));
    assert!(!reader.is_root(Slot(2999)).expect("read"), "the torn write");
    drop(reader);
    assert_nothing_lost(&before, dir.path(), "refused and read-only opens");

    let tolerant = OpenOptions::existing(AccessMode::ReadWrite)
        .with_wal_recovery(Some(WalRecoveryMode::TolerateCorruptedTailRecords));
    let store = Blockstore::open_with(dir.path(), &tolerant).expect("explicit");
    assert!(
        store.meta(slot).expect("read").is_some(),
        "earlier writes kept"
    );
    assert!(store.is_root(Slot(ROOTED)).expect("read"));
    assert!(!store.is_root(Slot(2999)).expect("read"));
}
