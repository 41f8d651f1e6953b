//! Scenario: `bstore replay --follow` beside a live writer. A ledger holds the first rooted
//! slots of a generated chain; the follower starts (from the newest root, as a secondary),
//! then another process writes the rest of the chain. Every new slot is reported once,
//! replayed, with the blockhash a plain `bstore replay` of the finished ledger gives; SIGTERM
//! stops the follower with a summary and exit code 0; the ledger's files are only read.

use crate::common;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use bstore_ledger::store::{AccessMode, Blockstore};
use bstore_ledger::stream::write_record;
use bstore_ledger::{ShredIndex, Slot};
use common::{bstore, bstore_within, json_lines};
use serde_json::Value;

const SLOTS: u64 = 12;
/// Slots 1..=FIRST_PART are in the ledger before the follower starts.
const FIRST_PART: u64 = 5;
const BUDGET: Duration = Duration::from_secs(60);

/// Writes the data shreds of `slots` of `ledger` to a stream file at `out`.
fn export(ledger: &Path, slots: std::ops::RangeInclusive<u64>, out: &Path) {
    let store = Blockstore::open(ledger, AccessMode::ReadOnly).expect("open generated");
    let mut bytes = Vec::new();
    for slot in slots {
        let meta = store.meta(Slot(slot)).expect("meta").expect("slot");
        for index in 0..meta.consumed {
            let index = u32::try_from(index).expect("u32 index");
            let payload = store
                .data_shred(Slot(slot), ShredIndex(index))
                .expect("read")
                .expect("stored");
            write_record(&mut bytes, &payload);
        }
    }
    std::fs::write(out, bytes).expect("write stream");
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// The follower's stdout lines, read on a thread (a line channel the test can time out on).
fn lines_of(child: &mut Child) -> mpsc::Receiver<String> {
    let stdout = child.stdout.take().expect("piped stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// Every file under `dir` with its length and modification time.
fn files(dir: &Path) -> BTreeMap<String, (u64, std::time::SystemTime)> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(dir).expect("read dir").flatten() {
        let meta = entry.metadata().expect("metadata");
        if meta.is_file() {
            let name = entry.file_name().to_string_lossy().into_owned();
            out.insert(name, (meta.len(), meta.modified().expect("mtime")));
        }
    }
    out
}

#[test]
fn follow_reports_each_new_slot_once_with_the_blockhash_of_a_full_replay() {
    let dir = tempfile::tempdir().expect("tempdir");
    let generated = dir.path().join("generated");
    bstore(&[
        "ledger",
        "generate",
        "--ledger",
        s(&generated),
        "--slots",
        &SLOTS.to_string(),
        "--shreds-per-slot",
        "64",
    ]);
    let (first, rest) = (dir.path().join("first.bin"), dir.path().join("rest.bin"));
    export(&generated, 1..=FIRST_PART, &first);
    export(&generated, FIRST_PART + 1..=SLOTS, &rest);
    let ledger = dir.path().join("ledger");
    bstore(&["ledger", "ingest", "--ledger", s(&ledger), s(&first)]);
    // The follower starts from the newest root: the first part, rooted as a validator
    // would (closed again before the follower opens the ledger).
    {
        let store = Blockstore::open(&ledger, AccessMode::ReadWrite).expect("open");
        store
            .set_roots((1..=FIRST_PART).map(Slot))
            .expect("set roots");
        store.flush().expect("flush");
    }

    let db = ledger.join("rocksdb");
    let before = files(&db);
    let mut child = Command::new(env!("CARGO_BIN_EXE_bstore"))
        .args([
            "replay",
            "--ledger",
            s(&ledger),
            "--follow",
            "--catch-up-ms",
            "20",
            // Only the file watch can make it follow within the test's deadline.
            "--catch-up-idle-ms",
            "600000",
            "--format",
            "json",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts the follower");
    let lines = lines_of(&mut child);
    // Written by another process while the follower runs.
    std::thread::sleep(Duration::from_millis(300));
    bstore(&["ledger", "ingest", "--ledger", s(&ledger), s(&rest)]);

    let started = Instant::now();
    let mut seen: BTreeMap<u64, Value> = BTreeMap::new();
    while seen.len() < (SLOTS - FIRST_PART) as usize {
        let left = BUDGET.saturating_sub(started.elapsed());
        let Ok(line) = lines.recv_timeout(left) else {
            let _ = child.kill();
            panic!("the follower reported {:?} within {BUDGET:?}", seen.keys());
        };
        let value: Value = serde_json::from_str(&line).expect("a JSON line");
        let slot = value["slot"].as_u64().expect("slot");
        assert!(
            seen.insert(slot, value).is_none(),
            "slot {slot} reported twice"
        );
    }
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
    let out = child.wait_with_output().expect("follower exits");
    assert!(
        out.status.success(),
        "follower exit {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: Vec<Value> = lines
        .try_iter()
        .map(|l| serde_json::from_str(&l).expect("json"))
        .collect();
    let summary = summary.last().expect("a summary line after SIGTERM");
    assert_eq!(
        summary["summary"]["replayed"],
        SLOTS - FIRST_PART,
        "{summary}"
    );

    // The same slots replayed from the finished ledger, parent of slot 6 from the ledger.
    let (full, _) = bstore_within(
        &[
            "replay",
            "--ledger",
            s(&ledger),
            "--from",
            &(FIRST_PART + 1).to_string(),
            "--format",
            "json",
        ],
        BUDGET,
    );
    let full: BTreeMap<u64, Value> = json_lines(&full)
        .into_iter()
        .filter_map(|l| Some((l["slot"].as_u64()?, l)))
        .collect();
    for slot in FIRST_PART + 1..=SLOTS {
        let live = &seen[&slot];
        assert_eq!(live["status"], "replayed", "{live}");
        assert_eq!(live["blockhash"], full[&slot]["blockhash"], "slot {slot}");
    }
    // Only the writer changed the ledger's files: every file the follower could see before
    // is untouched except those the writer made or rewrote (the follower's own files live
    // in a temporary directory).
    let after = files(&db);
    for (name, (len, _)) in &before {
        if name.ends_with(".sst") {
            assert_eq!(after.get(name).map(|a| a.0), Some(*len), "{name} changed");
        }
    }
}
