//! Helpers of the `store_damage_*` scenarios: a small ledger on disk (the real testnet slot
//! plus 85 rooted slots), the bytes of every database file, and ways to damage them.
#![cfg(feature = "storage")]
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use bstore_ledger::store::{AccessMode, Blockstore, OpenOptions};
use bstore_ledger::{LedgerError, Slot};

use crate::store_support::{open_rw, testnet};

/// Rooted slots `1..=ROOTED` are written besides the testnet slot.
pub(crate) const ROOTED: u64 = 85;

/// Whether the ledger's data is written to SST files before it is closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flush {
    /// Flushed: the data is in SST files.
    Yes,
    /// Left in the write-ahead log (as an unflushed writer leaves it).
    No,
}

/// Writes the testnet slot and `ROOTED` roots into `dir`, then closes the store.
pub(crate) fn small_ledger(dir: &Path, flush: Flush) -> Slot {
    let (packets, expected) = testnet();
    let slot = Slot(expected["slot"].as_u64().expect("slot"));
    let store = open_rw(dir);
    store.insert_shreds(&packets).expect("insert");
    for root in 1..=ROOTED {
        store.set_roots([Slot(root)]).expect("root");
    }
    if flush == Flush::Yes {
        store.flush().expect("flush");
    }
    slot
}

/// `dir/rocksdb`.
pub(crate) fn db(dir: &Path) -> PathBuf {
    dir.join("rocksdb")
}

/// Every file of the database with its bytes, RocksDB's info logs (`LOG*`) aside.
pub(crate) fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(db(dir))
        .expect("list the database")
        .map(|e| e.expect("entry"))
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with("LOG"))
        .map(|n| {
            let bytes = std::fs::read(db(dir).join(&n)).expect("read");
            (n, bytes)
        })
        .collect()
}

/// Every file of `before` is still there with the same bytes.
pub(crate) fn assert_nothing_lost(before: &BTreeMap<String, Vec<u8>>, dir: &Path, what: &str) {
    let after = files(dir);
    for (name, bytes) in before {
        match after.get(name) {
            None => panic!("{what}: {name} was deleted"),
            Some(now) => assert!(now == bytes, "{what}: {name} changed"),
        }
    }
}

/// The names of the database's files ending in `suffix`.
pub(crate) fn names_ending(dir: &Path, suffix: &str) -> Vec<String> {
    files(dir)
        .into_keys()
        .filter(|n| n.ends_with(suffix))
        .collect()
}

/// The three access modes, the secondary's files in `secondary`.
pub(crate) fn every_mode(secondary: &Path) -> [AccessMode; 3] {
    [
        AccessMode::ReadWrite,
        AccessMode::ReadOnly,
        AccessMode::Secondary {
            secondary_path: secondary.to_path_buf(),
        },
    ]
}

/// Opens `dir` as an existing ledger in `mode`, expecting an error.
pub(crate) fn open_err(dir: &Path, mode: AccessMode) -> LedgerError {
    let what = mode.name();
    Blockstore::open_with(dir, &OpenOptions::existing(mode)).expect_err(what)
}
