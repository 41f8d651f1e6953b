//! A database whose `CURRENT` was deleted is an error in every access mode, naming the file,
//! and no open (not even one allowed to create a ledger) deletes or changes a file of it.
//! `repair` restores `CURRENT` and every slot reads back.
#![cfg(feature = "storage")]

use crate::damage_support::{
    Flush, ROOTED, assert_nothing_lost, db, every_mode, files, open_err, small_ledger,
};

use bstore_ledger::store::{AccessMode, Blockstore, OpenOptions, check, repair};
use bstore_ledger::{LedgerError, Slot};

#[test]
fn a_deleted_current_is_an_error_everywhere_and_nothing_is_deleted() {
    for flush in [Flush::Yes, Flush::No] {
        let dir = tempfile::tempdir().expect("tempdir");
        let secondary = tempfile::tempdir().expect("tempdir");
        let slot = small_ledger(dir.path(), flush);
        std::fs::remove_file(db(dir.path()).join("CURRENT")).expect("delete CURRENT");
        let before = files(dir.path());

        for mode in every_mode(secondary.path()) {
            let err = open_err(dir.path(), mode.clone());
            assert!(
                matches!(err, LedgerError::Damaged { .. }),
                "{mode:?}: {err}"
            );
            assert!(err.to_string().contains("CURRENT"), "{mode:?}: {err}");
        }
        // Twice, as the user report did: the default read-write open may create a ledger,
        // but never where database files exist.
        for _ in 0..2 {
            let err = Blockstore::open(dir.path(), AccessMode::ReadWrite).expect_err("refused");
            assert!(matches!(err, LedgerError::WouldOverwrite { .. }), "{err}");
            assert!(err.to_string().contains("CURRENT"), "{err}");
        }
        let err = Blockstore::open_with(dir.path(), &OpenOptions::create_if_missing())
            .expect_err("refused");
        assert!(err.to_string().contains("CURRENT"), "{err}");
        assert!(!db(dir.path()).join("CURRENT").exists(), "no new CURRENT");
        assert_nothing_lost(&before, dir.path(), "opens");
        assert_eq!(files(dir.path()).len(), before.len(), "no new file");

        let report = check(dir.path(), None).expect("check");
        assert!(!report.is_healthy());
        assert_eq!(report.damage[0].file, "CURRENT");

        let backup = dir.path().join("backup");
        let repaired = repair(dir.path(), &backup).expect("repair");
        assert!(repaired.restored_current.is_some(), "{repaired:?}");
        assert!(repaired.after.is_healthy(), "{:?}", repaired.after.damage);
        for (name, bytes) in &before {
            let copy = std::fs::read(backup.join(name)).expect("backed up");
            assert!(&copy == bytes, "{name} backed up as it was");
        }
        let store = Blockstore::open(dir.path(), AccessMode::ReadOnly).expect("opens again");
        assert!(store.meta(slot).expect("read").is_some(), "{flush:?}");
        assert!(store.is_root(Slot(ROOTED)).expect("read"), "{flush:?}");
    }
}
