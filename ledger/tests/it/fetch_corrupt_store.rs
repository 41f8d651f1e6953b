//! Scenario: a store damaged underneath bstore (a shred deleted inside a completed range, a
//! shred overwritten with garbage or with another shred) gives the
//! `docs/fetch-pipeline.md#the-fetch-pipeline` errors naming
//! slot, index or range and cause — never a panic, never partial entries — and bad caller
//! ranges are errors, not huge multi-gets.
#![cfg(feature = "storage")]

use crate::common;

use std::path::Path;

use bstore_ledger::fetch::{
    AllowDead, DataDefect, EntryFetch, FetchBuffer, ShredRanges, ViewFetch,
};
use bstore_ledger::store::columns::DataShred;
use bstore_ledger::store::{AccessMode, Blockstore, ReadPath, RocksEngine, RowBatch};
use bstore_ledger::{LedgerError, ShredIndex, Slot};

const SLOT: u64 = 417_955_322;

fn key(index: u32) -> (Slot, ShredIndex) {
    (Slot(SLOT), ShredIndex(index))
}

/// A ledger holding the full real testnet slot.
fn ledger(dir: &Path) {
    let store = Blockstore::open(dir, AccessMode::ReadWrite).expect("open");
    let out = store
        .insert_shreds(common::read_records("sig-testnet-417955322/shreds.bin"))
        .expect("insert");
    assert_eq!(out.inserted, 320);
}

/// Changes the `data_shred` column behind bstore's back: rows written directly, bypassing
/// insert and every check of it, in one batch.
fn tamper(dir: &Path, edit: impl FnOnce(&mut RowBatch<'_, RocksEngine>)) {
    let store = Blockstore::open(dir, AccessMode::ReadWrite).expect("raw open");
    let mut batch = store.row_batch().expect("writable");
    edit(&mut batch);
    store.write_rows(batch).expect("tamper");
}

/// Both fetches on both read paths; every one must give the same result (the scan's).
fn fetch_all(store: &Blockstore) -> Result<(), LedgerError> {
    let mut results = Vec::new();
    for path in [ReadPath::Scan, ReadPath::MultiGet] {
        store.set_read_path(path);
        let mut buf = FetchBuffer::new();
        let views = store
            .fetch_slot_views(Slot(SLOT), 0, AllowDead::No, &mut buf)
            .map(|_| ());
        let owned = store
            .get_slot_entries_with_shred_info(Slot(SLOT), 0, AllowDead::No)
            .map(|_| ());
        results.push(views.and(owned));
    }
    store.set_read_path(ReadPath::default());
    let (scan, multi_get) = (results.remove(0), results.remove(0));
    assert_eq!(
        format!("{scan:?}"),
        format!("{multi_get:?}"),
        "read paths agree"
    );
    scan
}

#[test]
fn deleted_shred_inside_a_completed_range_is_missing_shred() {
    let dir = tempfile::tempdir().expect("tempdir");
    ledger(dir.path());
    tamper(dir.path(), |batch| {
        batch.delete::<DataShred>(key(200)).expect("delete");
    });
    let store = Blockstore::open(dir.path(), AccessMode::ReadOnly).expect("reopen");
    let err = fetch_all(&store).expect_err("hole in a completed range");
    assert!(
        matches!(
            err,
            LedgerError::MissingShred {
                slot: Slot(SLOT),
                index: ShredIndex(200)
            }
        ),
        "{err}"
    );
    // The data sets before the hole still fetch from their own start (replay style).
    let got = store
        .get_slot_entries_with_shred_info(Slot(SLOT), 0, AllowDead::No)
        .unwrap_or_default();
    assert!(
        got.entries.is_empty() && got.num_shreds == 0,
        "the first error fails the whole call"
    );
    let err = store
        .get_entries_in_data_block(Slot(SLOT), 192..224)
        .expect_err("set with the hole");
    assert!(
        matches!(
            err,
            LedgerError::MissingShred {
                index: ShredIndex(200),
                ..
            }
        ),
        "{err}"
    );
    let ok = store
        .get_entries_in_data_block(Slot(SLOT), 0..32)
        .expect("set without the hole");
    assert!(!ok.is_empty());
}

#[test]
fn garbage_or_misplaced_shreds_are_invalid_shred_data() {
    let dir = tempfile::tempdir().expect("tempdir");
    ledger(dir.path());
    let shred_7 = {
        let store = Blockstore::open(dir.path(), AccessMode::ReadOnly).expect("open");
        store
            .data_shred(Slot(SLOT), ShredIndex(7))
            .expect("read")
            .expect("present")
    };
    tamper(dir.path(), |batch| {
        batch
            .put_bytes::<DataShred>(key(100), &[0xA5u8; 40])
            .expect("garbage");
        batch
            .put_bytes::<DataShred>(key(40), &shred_7)
            .expect("misplaced");
    });
    let store = Blockstore::open(dir.path(), AccessMode::ReadOnly).expect("reopen");
    let err = fetch_all(&store).expect_err("corrupt shreds");
    // Ranges are checked in order: the misplaced shred 40 (set 32..64) comes first.
    assert!(
        matches!(
            err,
            LedgerError::InvalidShredData {
                slot: Slot(SLOT),
                start: 32,
                end: 64,
                cause: DataDefect::KeyMismatch {
                    index: 40,
                    found_index: 7,
                    ..
                }
            }
        ),
        "{err}"
    );
    let err = store
        .get_entries_in_data_block(Slot(SLOT), 96..160)
        .expect_err("garbage");
    assert!(
        matches!(
            err,
            LedgerError::InvalidShredData {
                start: 96,
                end: 160,
                cause: DataDefect::Shred { index: 100, .. },
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("slot 417955322"), "{err}");
}

#[test]
fn bad_caller_ranges_are_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    ledger(dir.path());
    let store = Blockstore::open(dir.path(), AccessMode::ReadOnly).expect("open");
    // Built from pairs: a reversed range literal is a lint error, a reversed input is not.
    for (start, end) in [(5, 5), (10, 3), (0, u32::MAX), (32_760, 32_769)] {
        let range = start..end;
        let err = store
            .get_entries_in_data_block(Slot(SLOT), range.clone())
            .expect_err("bad range");
        assert!(
            matches!(
                err,
                LedgerError::InvalidShredData {
                    cause: DataDefect::Empty,
                    ..
                }
            ),
            "{range:?}: {err}"
        );
        let mut buf = FetchBuffer::new();
        assert!(
            store
                .fetch_data_block_views(Slot(SLOT), range, &mut buf)
                .is_err()
        );
    }
    // A range that is not a data set (ends before a data-complete shred).
    let err = store
        .get_entries_in_data_block(Slot(SLOT), 0..10)
        .expect_err("not a data set");
    assert!(
        matches!(
            err,
            LedgerError::InvalidShredData {
                cause: DataDefect::LastNotComplete { index: 9 },
                ..
            }
        ),
        "{err}"
    );
}

/// Two faults in one store, each pair on a fresh ledger: inside one data set a missing
/// shred is reported before a garbage one at a lower index (as if the whole set were read
/// first), a fault of an earlier set before any of a later one, and a shred missing at the
/// very end of the slot is found once the scan has no row left. Both read paths agree
/// (`fetch_all`): the scan checks each shred while its cursor rests on it.
#[test]
fn with_two_faults_the_first_set_and_its_missing_shred_are_reported() {
    let ranges = {
        let dir = tempfile::tempdir().expect("tempdir");
        ledger(dir.path());
        let store = Blockstore::open(dir.path(), AccessMode::ReadOnly).expect("open");
        store.completed_ranges(Slot(SLOT), 0).expect("ranges")
    };
    assert!(ranges.len() >= 4, "{ranges:?}");
    let (early, late) = (ranges[1].clone(), ranges[ranges.len() - 1].clone());
    assert!(early.len() >= 3 && late.len() >= 3, "{ranges:?}");
    let missing = |index: u32| LedgerError::MissingShred {
        slot: Slot(SLOT),
        index: ShredIndex(index),
    };
    // (garbage, deleted, what is reported: a missing index, or the set with the garbage)
    let cases = [
        (early.start + 1, early.end - 1, Err(early.end - 1)),
        (early.start + 2, early.start + 1, Err(early.start + 1)),
        (early.start, late.end - 1, Ok(early.clone())),
        (late.start, late.end - 1, Err(late.end - 1)),
    ];
    for (garbage, deleted, expected) in cases {
        let dir = tempfile::tempdir().expect("tempdir");
        ledger(dir.path());
        tamper(dir.path(), |batch| {
            batch
                .put_bytes::<DataShred>(key(garbage), &[0x5Au8; 60])
                .expect("garbage");
            batch.delete::<DataShred>(key(deleted)).expect("delete");
        });
        let store = Blockstore::open(dir.path(), AccessMode::ReadOnly).expect("reopen");
        let err = fetch_all(&store).expect_err("two faults");
        let case = format!("garbage {garbage}, deleted {deleted}");
        match expected {
            Err(index) => assert_eq!(err.to_string(), missing(index).to_string(), "{case}"),
            Ok(set) => assert!(
                matches!(
                    &err,
                    LedgerError::InvalidShredData { slot: Slot(SLOT), start, end, .. }
                        if *start == set.start && *end == set.end
                ),
                "{case}: {err}"
            ),
        }
    }
}
