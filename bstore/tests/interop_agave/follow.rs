//! Scenario: bstore follows a live Agave ledger. Agave's blockstore keeps the ledger open as
//! the primary and inserts a few slots call by call, pausing between calls; bstore opens the
//! same ledger as a RocksDB secondary, catches up while Agave is still writing, sees slots
//! become full one after another, and ends with every slot exact. The ledger is never
//! written by bstore (Agave's process holds the primary lock throughout).

use std::process::Stdio;
use std::time::{Duration, Instant};

use super::*;

const START: u64 = 900;
const SLOTS: u64 = 6;
const DATA_PER_SLOT: u64 = 64;

#[test]
#[ignore = "needs the Agave tool; run scripts/interop-agave.sh"]
fn bstore_follows_a_live_agave_writer_as_a_secondary() {
    let dir = tempfile::tempdir().expect("tempdir");
    let generated = Generated::new(dir.path(), START, SLOTS, DATA_PER_SLOT, 7);
    let ledger = dir.path().join("ledger");
    // One slot (64 data + 64 code shreds) per call, 300 ms apart: about 2 s of live writing.
    let mut writer = Command::new(tool())
        .args([
            "insert",
            "--ledger",
            s(&ledger),
            "--batch",
            "128",
            "--pause-ms",
            "300",
            s(&generated.stream),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts agave-interop insert");
    // A RocksDB secondary sees only the column families that exist when it opens, so it
    // opens once Agave's primary has created them: after Agave's first insert call.
    let stderr = writer.stderr.take().expect("piped stderr");
    let mut lines = std::io::BufRead::lines(std::io::BufReader::new(stderr));
    let first = lines.next().expect("Agave reports its first insert call");
    assert!(
        first.expect("readable").starts_with("inserted"),
        "Agave's first call"
    );
    // Keep draining so the writer never blocks on a full pipe.
    let drain = std::thread::spawn(move || lines.count());
    let deadline = Instant::now() + Duration::from_secs(120);
    let secondary = tempfile::tempdir().expect("secondary dir");
    let mode = AccessMode::Secondary {
        secondary_path: secondary.path().to_path_buf(),
    };
    let store = Blockstore::open(&ledger, mode).expect("bstore opens Agave's live ledger");
    // Full-slot counts seen while Agave was still running.
    let mut seen_live = Vec::new();
    loop {
        let running = writer.try_wait().expect("poll the writer").is_none();
        store.catch_up().expect("catch up with Agave");
        let full = (START..START + SLOTS)
            .filter(|s| {
                store
                    .meta(Slot(*s))
                    .expect("bstore reads Agave's meta")
                    .is_some_and(|m| m.is_full())
            })
            .count();
        if !running {
            break;
        }
        seen_live.push(full);
        assert!(Instant::now() < deadline, "Agave's insert did not finish");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(writer.wait().expect("writer exits").success());
    drain.join().expect("stderr drained");
    assert!(
        seen_live.iter().any(|&n| n > 0 && n < SLOTS as usize),
        "bstore saw slots complete while Agave was writing: {seen_live:?}"
    );
    assert!(
        seen_live.windows(2).all(|w| w[0] <= w[1]),
        "a secondary never goes back: {seen_live:?}"
    );
    store.catch_up().expect("final catch-up");
    for slot in generated.slot_numbers() {
        let got = store
            .get_slot_entries_with_shred_info(Slot(slot), 0, AllowDead::No)
            .unwrap_or_else(|e| panic!("slot {slot}: {e}"));
        assert!(got.is_full, "slot {slot} full after the writer finished");
        assert!(
            encode_entries(&got.entries) == generated.entries(slot),
            "slot {slot}: the followed entries differ from what Agave shredded"
        );
    }
}
