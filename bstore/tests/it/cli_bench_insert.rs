//! Scenario: `bstore bench insert` inserts the real testnet slot into a fresh ledger per
//! round, reports every shred stored and the slot full each round, leaves no ledger behind,
//! and refuses a ledger directory that already holds a round.

use crate::common;

use std::process::Command;

use common::{bstore, json_lines, testnet_stream_file};

#[test]
fn bench_insert_times_each_round_on_a_fresh_ledger() {
    let dir = tempfile::tempdir().expect("tempdir");
    let stream = testnet_stream_file(dir.path(), "slot.bin", false);
    let ledgers = dir.path().join("ledgers");
    let ledgers_arg = ledgers.to_str().expect("utf-8");
    let stream_arg = stream.to_str().expect("utf-8");
    for skip in [false, true] {
        let mut args = vec![
            "bench",
            "insert",
            "--ledger-dir",
            ledgers_arg,
            "--rounds",
            "3",
            "--batch",
            "100",
        ];
        if skip {
            args.push("--skip-merkle-check");
        }
        args.push(stream_arg);
        let out = json_lines(&bstore(&args)).remove(0);
        assert_eq!(out["shreds"], 320, "{out}");
        assert_eq!(out["inserted"], 320, "{out}");
        assert_eq!(out["slots_full"], 1, "{out}");
        assert_eq!(out["merkle_check"], !skip, "{out}");
        let rounds = out["round_ns"].as_array().expect("round times");
        assert_eq!(rounds.len(), 3, "{out}");
        assert!(rounds.iter().all(|t| t.as_u64() > Some(0)), "{out}");
        assert!(rounds.contains(&out["median_ns"]), "{out}");
        assert_eq!(
            std::fs::read_dir(&ledgers).expect("ledger dir").count(),
            0,
            "every round's ledger is removed"
        );
    }

    std::fs::create_dir_all(ledgers.join("round-0")).expect("mkdir");
    let refused = Command::new(env!("CARGO_BIN_EXE_bstore"))
        .args(["bench", "insert", "--ledger-dir", ledgers_arg, stream_arg])
        .output()
        .expect("runs bstore");
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("round-0 exists"), "{stderr}");
}
