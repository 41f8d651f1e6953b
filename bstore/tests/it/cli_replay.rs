//! Scenario: `bstore replay` on a ledger holding the testnet slot whose first
//! entry claims `u64::MAX` hashes reports it dead with reason `hash_limit` at once; only
//! `--access read-write` marks it dead, and `--no-mark-dead` leaves the dead flag alone.

use crate::common;

use std::time::Duration;

use common::{bstore, bstore_within, expected, json_lines, testnet_stream_file};
use serde_json::Value;

const BUDGET: Duration = Duration::from_secs(20);

/// A ledger in `dir` with the testnet shreds, shred 0's first `num_hashes` (data bytes
/// 8..16, after the data set's u64 entry count) replaced when `tamper` is set.
fn ledger_with_testnet_slot(dir: &std::path::Path, tamper: bool) -> String {
    let file = testnet_stream_file(dir, "shreds.bin", tamper);
    let ledger = dir.join("ledger");
    let ledger = ledger.to_str().expect("utf-8").to_string();
    bstore(&[
        "ledger",
        "ingest",
        "--ledger",
        &ledger,
        // The changed field breaks the shred's Merkle proof; a leader that signed such an
        // entry would send valid proofs, which this stands in for.
        "--skip-merkle-check",
        file.to_str().expect("utf-8"),
    ]);
    ledger
}

/// The slot's JSON line of `bstore replay --format json` with `extra` arguments.
fn replay_line(ledger: &str, extra: &[&str]) -> Value {
    let exp = expected("sig-testnet-417955322/expected.json");
    let seed = exp["deshred"]["totals"]["poh_seed"].as_str().expect("seed");
    let args = [
        &["replay", "--ledger", ledger, "--format", "json"][..],
        &["--parent-blockhash", seed],
        extra,
    ]
    .concat();
    let (out, _) = bstore_within(&args, BUDGET);
    json_lines(&out).remove(0)
}

#[test]
fn replay_marks_a_huge_num_hashes_slot_dead_with_a_hash_limit_reason() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ledger = ledger_with_testnet_slot(dir.path(), true);
    // Report only: dead, but not marked, so a second run sees it again.
    for _ in 0..2 {
        let l = replay_line(&ledger, &["--no-mark-dead"]);
        assert_eq!(l["status"], "dead", "{l}");
        assert_eq!(l["reason"], "hash_limit", "{l}");
        assert!(
            l["error"]
                .as_str()
                .expect("error")
                .contains("tick rules broken at entry 0"),
            "{l}"
        );
    }
    // The default access only reads: dead, but not marked.
    let l = replay_line(&ledger, &["--hashes-per-tick", "62500"]);
    assert_eq!(l["status"], "dead", "{l}");
    let l = replay_line(
        &ledger,
        &["--hashes-per-tick", "62500", "--access", "read-write"],
    );
    assert_eq!(l["status"], "dead", "{l}");
    assert_eq!(l["reason"], "ticks", "{l}");
    assert!(
        l["error"]
            .as_str()
            .expect("error")
            .contains("18446744073709551615 hashes in a tick, expected 62500"),
        "{l}"
    );
    // Now marked: refused from then on.
    let l = replay_line(&ledger, &[]);
    assert_eq!(l["status"], "refused", "{l}");
    assert_eq!(l["reason"], "already_dead", "{l}");
}

#[test]
fn a_wrong_hashes_per_tick_with_no_mark_dead_keeps_a_good_slot() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ledger = ledger_with_testnet_slot(dir.path(), false);
    let l = replay_line(&ledger, &["--hashes-per-tick", "62501", "--no-mark-dead"]);
    assert_eq!(l["status"], "dead", "{l}");
    assert_eq!(l["reason"], "ticks", "{l}");
    let l = replay_line(&ledger, &["--hashes-per-tick", "62500"]);
    assert_eq!(l["status"], "replayed", "{l}");
    // The slot limit is an option too.
    let dir = tempfile::tempdir().expect("tempdir");
    let ledger = ledger_with_testnet_slot(dir.path(), false);
    let l = replay_line(&ledger, &["--max-slot-hashes", "1000000", "--no-mark-dead"]);
    assert_eq!(l["reason"], "hash_limit", "{l}");
}

/// `ledger slot --verify-poh` takes the same limits: the tampered slot is reported within
/// the budget, and a slot limit below the genuine slot's 4,000,000 hashes refuses it too.
#[test]
fn ledger_slot_verify_poh_is_bounded_by_the_hash_limits() {
    let exp = expected("sig-testnet-417955322/expected.json");
    let seed = exp["deshred"]["totals"]["poh_seed"].as_str().expect("seed");
    let slot = exp["slot"].to_string();
    let dir = tempfile::tempdir().expect("tempdir");
    let (bad_dir, good_dir) = (dir.path().join("bad"), dir.path().join("good"));
    std::fs::create_dir_all(&bad_dir).expect("mkdir");
    std::fs::create_dir_all(&good_dir).expect("mkdir");
    let bad = ledger_with_testnet_slot(&bad_dir, true);
    let good = ledger_with_testnet_slot(&good_dir, false);
    let args = |ledger: &str, extra: &[&str]| -> Value {
        let mut all = vec![
            "ledger",
            "slot",
            "--ledger",
            ledger,
            &slot,
            "--verify-poh",
            seed,
        ];
        all.extend_from_slice(extra);
        let (out, _) = bstore_within(&all, BUDGET);
        json_lines(&out).remove(0)
    };
    let tampered = args(&bad, &[]);
    let poh = tampered["poh"].as_str().expect("poh verdict");
    assert!(poh.contains("PoH verification failed at entry 0"), "{poh}");
    assert_eq!(args(&good, &[])["poh"], "ok");
    let capped = args(&good, &["--max-slot-hashes", "1000"]);
    let poh = capped["poh"].as_str().expect("poh verdict");
    assert!(poh.starts_with("PoH verification failed"), "{poh}");
}
