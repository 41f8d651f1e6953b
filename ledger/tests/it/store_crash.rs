//! Crash safety: a writer process is SIGKILLed in the middle of ingesting shreds in many
//! small insert calls. After reopening, every call that returned is fully stored, every
//! call is all-or-nothing, and every `SlotMeta` agrees with the shreds actually on disk.
//!
//! The test re-executes its own binary as the writer (env `BSTORE_CRASH_WRITER` = ledger
//! directory); the writer prints `CALL-DONE <n>` after insert call `n` returned.
#![cfg(feature = "storage")]

use crate::common;
use crate::store_support;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use bstore_ledger::shred::ShredRef;
use bstore_ledger::store::{AccessMode, Blockstore, OpenOptions, SlotMeta, WalRecoveryMode};
use bstore_ledger::{LedgerError, ShredIndex, Slot};
use store_support::{open_rw, payload, shuffled_chunks};

const WRITER_ENV: &str = "BSTORE_CRASH_WRITER";
const TEST_NAME: &str = "store_crash::writer_killed_mid_ingest_loses_no_returned_call";
/// Calls the parent waits to see returned before it kills the writer.
const KILL_AFTER: usize = 40;

/// The testnet slot, the three chained Agave-generated slots and Agave's 1751-shred slot 0,
/// shuffled into the writer's calls (enough calls that the kill lands mid-ingest without
/// the writer sleeping, so it often lands inside a write).
fn calls() -> Vec<Vec<Vec<u8>>> {
    let mut packets = common::read_records("sig-testnet-417955322/shreds.bin");
    for file in [
        "agave.blockstore.test_get_rooted_block.shreds.bin",
        "agave.blockstore.test_get_rooted_block.more_shreds.bin",
        "agave.blockstore.test_get_rooted_block.unrooted_shreds.bin",
        "agave.blockstore.bench_write_small.shreds.bin",
    ] {
        packets.extend(common::read_records(&format!("sig-agave-generated/{file}")));
    }
    shuffled_chunks(&packets, 2024, 5)
}

fn run_writer(dir: &str) {
    let store = open_rw(std::path::Path::new(dir));
    let mut out = std::io::stdout().lock();
    for (n, call) in calls().iter().enumerate() {
        // The Agave-generated slots were shredded by a pre-4.x Agave (34-shred slots).
        store
            .insert_shreds_with(call, common::legacy_shapes())
            .expect("insert");
        writeln!(out, "CALL-DONE {n}").expect("stdout");
        out.flush().expect("stdout");
    }
}

/// The ledger a killed writer left, opened read-write. A kill inside a write can tear the
/// log's last record: the default open refuses that, naming the log and the bytes no write
/// completed (`docs/damage-and-repair.md#wal-recovery-modes`), and the operator's way on is
/// `tolerate_corrupted_tail_records`, which drops only the write that never returned.
fn reopen_after_kill(dir: &std::path::Path) -> Blockstore {
    match Blockstore::open(dir, AccessMode::ReadWrite) {
        Ok(store) => store,
        Err(e) => {
            let text = e.to_string();
            assert!(
                matches!(e, LedgerError::Damaged { .. })
                    && text.contains(".log ends inside a record no write completed"),
                "the open was refused for something else than a torn log tail: {text}"
            );
            let tolerant = OpenOptions::existing(AccessMode::ReadWrite)
                .with_wal_recovery(Some(WalRecoveryMode::TolerateCorruptedTailRecords));
            Blockstore::open_with(dir, &tolerant).expect("open tolerating the torn tail")
        }
    }
}

#[test]
fn writer_killed_mid_ingest_loses_no_returned_call() {
    if let Ok(dir) = std::env::var(WRITER_ENV) {
        run_writer(&dir);
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let mut child = Command::new(std::env::current_exe().expect("test binary"))
        .args([TEST_NAME, "--exact", "--nocapture", "--test-threads=1"])
        .env(WRITER_ENV, dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn writer");
    let stdout = child.stdout.take().expect("piped stdout");
    let mut lines = BufReader::new(stdout).lines();
    let mut returned: Option<usize> = None;
    let mut seen = 0;
    while seen < KILL_AFTER {
        let line = lines
            .next()
            .expect("writer output ended early")
            .expect("utf-8 line");
        if let Some(n) = line.strip_prefix("CALL-DONE ") {
            returned = Some(n.parse().expect("call number"));
            seen += 1;
        }
    }
    child.kill().expect("SIGKILL the writer");
    // Lines the writer printed before it died are still in the pipe.
    for line in lines {
        if let Some(n) = line.expect("utf-8 line").strip_prefix("CALL-DONE ") {
            returned = Some(n.parse().expect("call number"));
        }
    }
    child.wait().expect("reap writer");
    let returned = returned.expect("some calls returned");
    let calls = calls();
    assert!(
        returned + 1 < calls.len(),
        "writer finished before the kill: test proves nothing"
    );

    let store = reopen_after_kill(dir.path());
    let mut partially_stored = Vec::new();
    let mut stored_calls = 0;
    for (n, call) in calls.iter().enumerate() {
        let present: Vec<bool> = call
            .iter()
            .map(|p| {
                let s = ShredRef::parse(p).expect("parse");
                store.data_shred(s.slot(), s.index()).expect("read") == Some(payload(p))
            })
            .collect();
        if n <= returned {
            assert!(
                present.iter().all(|&b| b),
                "call {n} returned but is not fully stored"
            );
        }
        if present.iter().all(|&b| b) {
            stored_calls += 1;
        } else if present.iter().any(|&b| b) {
            partially_stored.push(n);
        }
    }
    assert!(
        partially_stored.is_empty(),
        "calls stored in part: {partially_stored:?}"
    );
    assert!(stored_calls > returned);

    // Every meta agrees with the shreds on disk.
    let metas: Vec<_> = store.slot_metas(..).map(|m| m.expect("meta")).collect();
    assert!(!metas.is_empty());
    for meta in &metas {
        let (consumed, received, last, completed) =
            store_support::recompute_from_disk(&store, meta.slot, 32_768);
        assert_eq!(meta.consumed, consumed, "slot {} consumed", meta.slot);
        assert_eq!(meta.received, received, "slot {} received", meta.slot);
        assert_eq!(meta.last_index, last, "slot {} last_index", meta.slot);
        assert_eq!(
            meta.completed_data_indexes.iter().collect::<Vec<_>>(),
            completed,
            "slot {} completed indexes",
            meta.slot
        );
        for child in &meta.next_slots {
            let child_meta = store.meta(*child).expect("read").expect("child meta");
            assert_eq!(child_meta.parent_slot, Some(meta.slot));
        }
    }
    check_chain(&store, &metas);

    // Ingest resumes after the crash: inserting everything again completes every slot.
    for call in &calls {
        store
            .insert_shreds_with(call, common::legacy_shapes())
            .expect("insert after reopen");
    }
    let metas: Vec<_> = store.slot_metas(..).map(|m| m.expect("meta")).collect();
    let with_shreds: Vec<Slot> = metas
        .iter()
        .filter(|m| m.received > 0)
        .map(|m| m.slot)
        .collect();
    assert_eq!(with_shreds.len(), 5, "testnet slot and four Agave slots");
    check_chain(&store, &metas);
    assert!(
        metas.iter().any(SlotMeta::is_connected),
        "some slot chains to slot 0 and is connected: the flag checks are not vacuous"
    );
    for meta in metas.iter().filter(|m| m.received > 0) {
        assert!(meta.is_full(), "slot {} full after resuming", meta.slot);
        let first = store.data_shred(meta.slot, ShredIndex(0)).expect("read");
        assert_eq!(first.map(|b| b.len()), Some(1203));
    }
}

/// Chaining survived the crash with the shreds: every slot holding shreds is listed in its
/// parent's `next_slots` (the parent's meta exists, as a placeholder at least), and every
/// slot is connected exactly when it is full and its parent is connected (slot 0: full),
/// parent-connected exactly when its parent is connected.
fn check_chain(store: &Blockstore, metas: &[SlotMeta]) {
    let connected = |slot: Slot| -> bool {
        let mut cur = slot;
        loop {
            let Some(m) = store.meta(cur).expect("read") else {
                return false;
            };
            if !m.is_full() {
                return false;
            }
            match m.parent_slot {
                _ if cur == Slot(0) => return true,
                Some(p) if p != cur => cur = p,
                _ => return false,
            }
        }
    };
    for meta in metas {
        if let Some(parent) = meta.parent_slot.filter(|p| *p != meta.slot) {
            let pmeta = store.meta(parent).expect("read").unwrap_or_else(|| {
                panic!(
                    "slot {} has shreds but parent {parent} has no meta",
                    meta.slot
                )
            });
            assert!(
                pmeta.next_slots.contains(&meta.slot),
                "parent {parent} does not list child {}",
                meta.slot
            );
            assert_eq!(
                meta.is_parent_connected(),
                connected(parent),
                "slot {} parent-connected flag",
                meta.slot
            );
        }
        assert_eq!(
            meta.is_connected(),
            connected(meta.slot),
            "slot {} connected flag",
            meta.slot
        );
    }
}
