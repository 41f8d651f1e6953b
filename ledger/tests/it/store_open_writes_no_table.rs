//! Scenario: writes that sit only in the write-ahead log (a process stopped before its
//! flush, as a full disk stops one). Reopening read-write replays them into memory without
//! writing a single table file, so an open on a full disk needs no room for them and a
//! failed open leaves none behind; the log stays until a flush puts its writes in table
//! files, and then it is deleted. Every shred reads back after each step.
#![cfg(feature = "storage")]

use std::path::Path;

use crate::store_support;

use bstore_ledger::shred::ShredRef;
use store_support::{SlotExpectation, open_rw, payload, testnet};

/// `(table files, bytes in write-ahead logs)` of the database.
fn files(ledger: &Path) -> (usize, u64) {
    let mut tables = 0;
    let mut logged = 0;
    for entry in std::fs::read_dir(ledger.join("rocksdb")).expect("list") {
        let entry = entry.expect("entry");
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".sst") {
            tables += 1;
        } else if name.ends_with(".log") {
            logged += entry.metadata().expect("metadata").len();
        }
    }
    (tables, logged)
}

fn assert_every_shred(store: &bstore_ledger::store::Blockstore, packets: &[Vec<u8>], when: &str) {
    for packet in packets {
        let shred = ShredRef::parse(packet).expect("parse");
        let stored = store.data_shred(shred.slot(), shred.index()).expect("read");
        assert_eq!(
            stored,
            Some(payload(packet)),
            "{when}: shred {}",
            shred.index()
        );
    }
}

#[test]
fn a_read_write_open_replays_the_log_without_writing_table_files() {
    let (packets, expected) = testnet();
    let want = SlotExpectation::from_json(&expected["shreds"]);
    let dir = tempfile::tempdir().expect("tempdir");
    {
        let store = open_rw(dir.path());
        store.insert_shreds(&packets).expect("insert");
    }
    let (tables, logged) = files(dir.path());
    assert_eq!(tables, 0, "nothing flushed yet");
    assert!(
        logged > 300 * 1000,
        "the shreds are in the log: {logged} bytes"
    );

    for reopen in 1..=3 {
        let store = open_rw(dir.path());
        assert_eq!(
            files(dir.path()).0,
            0,
            "open {reopen} wrote table files while replaying the log"
        );
        let meta = store.meta(want.slot).expect("meta").expect("stored");
        want.check_meta(&meta, "after a reopen");
        assert_every_shred(&store, &packets, "after a reopen");
    }

    let store = open_rw(dir.path());
    store.flush().expect("flush");
    drop(store);
    let (tables, logged) = files(dir.path());
    assert!(tables > 0, "the flush wrote table files");
    assert!(
        logged < 4096,
        "the logs replayed at open are deleted once flushed: {logged} bytes left"
    );
    assert_every_shred(&open_rw(dir.path()), &packets, "after the flush");
}
