//! Real RocksDB logs: a failed large write simulated by cutting the log inside its record.
//! RocksDB's own `tolerate_corrupted_tail_records` recovery is the judge of what a cut log
//! must hold.

use std::path::{Path, PathBuf};

use super::super::RocksEngine;
use super::logs;
use crate::store::kv::{KvBatch, KvWrite};
use crate::store::wal_tail::{self, LogTail};
use crate::store::{AccessMode, OpenOptions, WalRecoveryMode};

const CF: &str = "bank_hashes";

fn put(engine: &RocksEngine, rows: &[(u64, Vec<u8>)]) {
    let mut batch = engine.batch().expect("batch");
    for (key, value) in rows {
        batch.put(CF, &key.to_be_bytes(), value).expect("put");
    }
    engine.write(batch).expect("write");
}

fn newest_log(ledger: &Path) -> PathBuf {
    let mut logs = logs(&ledger.join("rocksdb"));
    logs.sort();
    logs.pop().expect("a log").1
}

fn open(ledger: &Path, wal: Option<WalRecoveryMode>) -> crate::error::Result<RocksEngine> {
    RocksEngine::open_with(
        ledger,
        &OpenOptions::existing(AccessMode::ReadWrite).with_wal_recovery(wal),
    )
}

fn keys(engine: &RocksEngine) -> Vec<u64> {
    let cf = engine.db.cf_handle(CF).expect("family");
    engine
        .db
        .iterator_cf(cf, rocksdb::IteratorMode::Start)
        .map(|row| {
            let (key, _) = row.expect("row");
            u64::from_be_bytes(key.as_ref().try_into().expect("8 bytes"))
        })
        .collect()
}

/// The log at `path`, which must end after a complete record.
fn read_complete(path: &Path, why: &str) -> Vec<u8> {
    let bytes = std::fs::read(path).expect("read log");
    assert_eq!(
        wal_tail::scan(bytes.as_slice()).expect("scan"),
        LogTail::Complete {
            records_end: bytes.len() as u64
        },
        "{why}"
    );
    bytes
}

fn truncate(path: &Path, len: u64) {
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .expect("open log")
        .set_len(len)
        .expect("truncate");
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("list") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).expect("copy");
        }
    }
}

/// Small writes, then one ~3 MB write (~96 blocks of fragments); the log cut at several
/// places inside the large record stands for a full disk during its later `write`s.
#[test]
fn a_cut_log_opens_as_rocksdb_tolerant_recovery_reads_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ledger = dir.path().join("ledger");
    let engine = RocksEngine::open(&ledger, AccessMode::ReadWrite).expect("create");
    for key in 0..20u64 {
        put(&engine, &[(key, vec![key as u8; 100 + key as usize * 500])]);
    }
    let log = newest_log(&ledger);
    let before_large = std::fs::metadata(&log).expect("stat").len();
    let large: Vec<(u64, Vec<u8>)> = (100..130u64).map(|k| (k, vec![k as u8; 100_000])).collect();
    put(&engine, &large);
    drop(engine);
    let whole = read_complete(
        &log,
        "a log RocksDB closed cleanly ends after its last record",
    );
    let log_name = log.file_name().expect("name");

    for cut in [
        before_large + 1,
        before_large + 7 + 100,
        before_large + 65_536 + 3,
        whole.len() as u64 - 1,
    ] {
        let case = dir.path().join(format!("cut-{cut}"));
        copy_dir(&ledger, &case);
        let case_log = case.join("rocksdb").join(log_name);
        truncate(&case_log, cut);

        // RocksDB's judgement of the torn log: refused by default, and the tolerant mode
        // (on a copy) drops exactly the large write.
        let refused = open(&case, None)
            .expect_err("refused as damage")
            .to_string();
        let name = log_name.to_string_lossy();
        assert!(
            refused.contains(&format!(
                "{name} ends inside a record no write completed (its last {} bytes, from \
                 offset {before_large}",
                cut - before_large
            )),
            "cut at {cut}: the refusal names the torn log: {refused}"
        );
        let tolerant_copy = dir.path().join(format!("tolerant-{cut}"));
        copy_dir(&case, &tolerant_copy);
        let tolerant = open(
            &tolerant_copy,
            Some(WalRecoveryMode::TolerateCorruptedTailRecords),
        )
        .expect("tolerant open");
        let want = keys(&tolerant);
        assert_eq!(want, (0..20).collect::<Vec<_>>(), "cut at {cut}");

        assert_eq!(
            wal_tail::cut_torn_tail(&case_log).expect("cut"),
            LogTail::Torn {
                keep: before_large,
                len: cut
            },
            "cut at {cut}"
        );
        let engine = open(&case, None).expect("the cut log opens in absolute consistency");
        assert_eq!(keys(&engine), want, "cut at {cut}");
        put(&engine, &[(500, vec![1; 10])]);
        drop(engine);
        let engine = open(&case, None).expect("and keeps working");
        assert_eq!(keys(&engine).last(), Some(&500));
    }
}

/// The guard cuts only after a failed write, and only logs of its own open.
#[test]
fn the_guard_leaves_logs_alone_without_a_failed_write_or_from_an_earlier_open() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ledger = dir.path().join("ledger");
    let engine = RocksEngine::open(&ledger, AccessMode::ReadWrite).expect("create");
    put(&engine, &[(1, vec![1; 10])]);
    drop(engine);
    let earlier = newest_log(&ledger);
    let len = std::fs::metadata(&earlier).expect("stat").len();

    let engine = RocksEngine::open(&ledger, AccessMode::ReadWrite).expect("reopen");
    let own = newest_log(&ledger);
    assert_ne!(own, earlier, "an open starts a log of its own");
    put(&engine, &[(2, vec![2; 200_000])]);
    // A torn tail this process did not cause (the earlier open's log, already replayed):
    // even after a failed write, the guard leaves it alone.
    truncate(&earlier, len - 3);
    engine.tail.write_failed();
    drop(engine);
    assert_eq!(std::fs::metadata(&earlier).expect("stat").len(), len - 3);
    let own_log = read_complete(&own, "its own complete log is left whole");

    // Without a failed write, nothing is even read.
    let guard = super::TailGuard::after_open(&ledger.join("rocksdb"));
    truncate(&own, own_log.len() as u64 - 10);
    assert!(guard.cut().is_empty());
    assert_eq!(
        std::fs::metadata(&own).expect("stat").len(),
        own_log.len() as u64 - 10
    );
}
