//! Scenario: agave-ledger-tool's read commands (`bounds`, `roots`, `dead-slots`,
//! `duplicate-slots`, `analyze`, `slot --verbose`) over a ledger built from generated rooted
//! slots, the real testnet slot, a dead mark and a duplicate proof, before and after purges:
//! every JSON field is what was set up, and no command changes a byte of the ledger.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use bstore_ledger::store::{AccessMode, Blockstore, columns};
use bstore_ledger::{ShredIndex, Slot};
use common::{bstore, json_lines, testdata};
use serde_json::{Value, json};

const TESTNET_SLOT: u64 = 417_955_322;

fn json(args: &[&str]) -> Value {
    json_lines(&bstore(args)).remove(0)
}

fn generate(ledger: &Path, first: u64, slots: u64, seed: u64) -> Value {
    json(&[
        "ledger",
        "generate",
        "--ledger",
        ledger.to_str().expect("utf-8"),
        "--slots",
        &slots.to_string(),
        "--shreds-per-slot",
        "32",
        "--with-code",
        "--first-slot",
        &first.to_string(),
        "--seed",
        &seed.to_string(),
    ])
}

/// Every file and directory below `dir` with its bytes (`None` for a directory).
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Option<Vec<u8>>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("read_dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                out.insert(path.clone(), None);
                stack.push(path);
            } else {
                out.insert(path.clone(), Some(std::fs::read(&path).expect("read")));
            }
        }
    }
    out
}

/// The paths whose bytes (or existence) differ between two snapshots.
fn changed(
    a: &BTreeMap<PathBuf, Option<Vec<u8>>>,
    b: &BTreeMap<PathBuf, Option<Vec<u8>>>,
) -> Vec<PathBuf> {
    let paths: std::collections::BTreeSet<&PathBuf> = a.keys().chain(b.keys()).collect();
    paths
        .into_iter()
        .filter(|p| a.get(*p) != b.get(*p))
        .cloned()
        .collect()
}

/// Generated slots 10..=15 (rooted, with coding shreds; slot 9 is their placeholder
/// parent), the testnet slot (unrooted; 417955321 its placeholder parent), slot 13 marked
/// dead, and slot 12 given a duplicate proof by a shred of another seed at index 0.
fn build(dir: &Path) -> PathBuf {
    let a = dir.join("a");
    let b = dir.join("b");
    generate(&a, 10, 6, 1);
    generate(&b, 10, 6, 2);
    let file = testdata().join("sig-testnet-417955322/shreds.bin");
    let ingest = json(&[
        "ledger",
        "ingest",
        "--ledger",
        a.to_str().expect("utf-8"),
        file.to_str().expect("utf-8"),
    ]);
    assert_eq!(ingest["inserted"], 320);
    let other = Blockstore::open(&b, AccessMode::ReadOnly)
        .expect("open b")
        .data_shred(Slot(12), ShredIndex(0))
        .expect("read")
        .expect("slot 12 shred 0 of seed 2");
    let store = Blockstore::open(&a, AccessMode::ReadWrite).expect("open a");
    store.set_dead_slot(Slot(13)).expect("dead");
    let out = store.insert_shreds([&other]).expect("insert");
    assert_eq!(out.inserted, 0);
    let dups: Vec<u64> = out.duplicate_slots.iter().map(|d| d.slot.0).collect();
    assert_eq!(dups, vec![12]);
    a
}

/// Runs every read command in both access modes; the two modes print the same.
fn run_every_read_command(ledger: &str) {
    let commands: [&[&str]; 12] = [
        &["bounds"],
        &["bounds", "--format", "json", "--all"],
        &["roots"],
        &["roots", "--format", "json", "--blockhash"],
        &["dead-slots", "--format", "json"],
        &["dead-slots"],
        &["duplicate-slots", "--format", "json", "--verbose"],
        &["duplicate-slots", "--verbose"],
        &["analyze", "--format", "json"],
        &["analyze"],
        &["slot", "15", "--verbose"],
        &["slot", "15", "--verbose", "--format", "text"],
    ];
    for cmd in commands {
        let mut outputs = Vec::new();
        for access in ["secondary", "read-only"] {
            let args = [&["ledger"], cmd, &["--ledger", ledger, "--access", access]].concat();
            outputs.push(bstore(&args));
        }
        assert_eq!(outputs[0], outputs[1], "{cmd:?}: secondary vs read-only");
    }
}

/// `bstore ledger CMD... --ledger LEDGER`.
fn cli<'a>(ledger: &'a str, cmd: &[&'a str]) -> Vec<&'a str> {
    [&["ledger"], cmd, &["--ledger", ledger]].concat()
}

fn slot_json(ledger: &str, slot: u64, verbose: bool) -> Value {
    let s = slot.to_string();
    let mut args = vec!["ledger", "slot", "--ledger", ledger, &s];
    if verbose {
        args.push("--verbose");
    }
    json(&args)
}

/// `slot --verbose` keeps every plain field and adds meta, index, FEC set rows and flags
/// that agree with the slot's own counts.
fn check_slot_detail(ledger: &str, slot: u64) -> Value {
    let plain = slot_json(ledger, slot, false);
    let mut v = slot_json(ledger, slot, true);
    let data = v["data_shreds"].as_u64().expect("data_shreds");
    let meta = &v["meta"];
    assert_eq!(meta["consumed"], data, "{slot}");
    assert_eq!(meta["received"], data);
    assert_eq!(meta["last_index"], data - 1);
    assert_eq!(meta["last_index"], v["last_index"]);
    assert_eq!(meta["parent_slot"], v["parent_slot"]);
    let flags = meta["connected_flags"].as_u64().expect("flags");
    assert_eq!(meta["connected"], flags & 1 != 0);
    assert_eq!(meta["parent_connected"], flags & 0x80 != 0);
    // Agave 4.x's fields: nothing here carries a block header or an UpdateParent marker.
    assert_eq!(meta["parent_block_id"], "11111111111111111111111111111111");
    assert_eq!(meta["replay_fec_set_index"], 0);
    let set_ends: Vec<u64> = v["data_sets"]
        .as_array()
        .expect("sets")
        .iter()
        .map(|r| r[1].as_u64().expect("end") - 1)
        .collect();
    assert_eq!(meta["completed_data_indexes"], json!(set_ends));
    assert_eq!(v["index"]["data_shreds"], data);
    let sets = v["fec_sets"].as_array().expect("fec_sets");
    assert_eq!(
        sets.len() as u64,
        data.div_ceil(32),
        "{slot}: one row per FEC set"
    );
    for (i, set) in sets.iter().enumerate() {
        assert_eq!(set["fec_set_index"], 32 * i as u64);
        assert!(set["merkle_root_meta"]["merkle_root"].is_string(), "{set}");
    }
    assert_eq!(v["dead"], slot == 13);
    assert_eq!(v["duplicate"], slot == 12);
    assert_eq!(
        v["alternate_blocks"],
        serde_json::json!([]),
        "no block-id repair here"
    );
    let obj = v.as_object_mut().expect("object");
    for added in ["meta", "index", "fec_sets", "duplicate", "alternate_blocks"] {
        obj.remove(added);
    }
    assert_eq!(
        Value::Object(obj.clone()),
        plain,
        "{slot}: plain fields unchanged"
    );
    slot_json(ledger, slot, true)
}

#[test]
fn read_commands_report_the_setup_and_never_touch_the_ledger() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = build(dir.path());
    let ledger = path.to_str().expect("utf-8");

    let before = snapshot(&path);
    run_every_read_command(ledger);
    assert_eq!(changed(&before, &snapshot(&path)), Vec::<PathBuf>::new());

    // bounds: metas 9..=15 and the testnet pair, roots 10..=15, two slots above root 15.
    let b = json(&cli(ledger, &["bounds", "--format", "json", "--all"]));
    let mut all: Vec<u64> = (9..=15).collect();
    all.extend([TESTNET_SLOT - 1, TESTNET_SLOT]);
    assert_eq!(b["all_slots"], json!(all));
    assert_eq!(b["lowest"], 9);
    assert_eq!(b["highest"], TESTNET_SLOT);
    assert_eq!(b["num_slots"], 9);
    assert_eq!(
        b["roots"],
        json!({"total": 6, "first": 10, "last": 15, "num_after_last_root": 2})
    );
    assert_eq!(
        bstore(&cli(ledger, &["bounds"])),
        format!(
            "Ledger has data for 9 slots 9 to {TESTNET_SLOT}\n  with 6 rooted slots from 10 \
             to 15\n  and 2 slots past the last root\n"
        )
    );

    // slot --verbose, and the per-slot facts the other commands are checked against.
    let mut details = BTreeMap::new();
    for slot in (10..=15).chain([TESTNET_SLOT]) {
        details.insert(slot, check_slot_detail(ledger, slot));
    }
    for slot in 10..=15 {
        let d = &details[&slot];
        assert_eq!(d["rooted"], true);
        assert_eq!(d["parent_slot"], slot - 1);
        let next = if slot < 15 {
            json!([slot + 1])
        } else {
            json!([])
        };
        assert_eq!(d["meta"]["next_slots"], next);
        assert!(d["index"]["code_shreds"].as_u64() > Some(0), "{d}");
        for set in d["fec_sets"].as_array().expect("sets") {
            assert_eq!(set["erasure_meta"]["num_data"], 32, "{set}");
            assert!(set["erasure_meta"]["num_coding"].as_u64() > Some(0));
            assert_eq!(set["merkle_root_meta"]["first_received_shred_kind"], "data");
        }
    }
    let t = &details[&TESTNET_SLOT];
    assert_eq!((&t["rooted"], &t["dead"]), (&json!(false), &json!(false)));
    assert_eq!(t["index"]["code_shreds"], 0);
    assert_eq!(t["meta"]["next_slots"], json!([]));
    assert_eq!(t["fec_sets"].as_array().map(Vec::len), Some(10));
    assert!(
        t["fec_sets"]
            .as_array()
            .expect("sets")
            .iter()
            .all(|s| s["erasure_meta"].is_null()),
        "no coding shred was ingested, so no erasure_meta row"
    );
    let text = bstore(&cli(
        ledger,
        &["slot", "12", "--verbose", "--format", "text"],
    ));
    for line in ["duplicate: true", "dead: false", "rooted: true", "slot: 12"] {
        assert!(text.lines().any(|l| l == line), "{line} in\n{text}");
    }

    // roots: all, highest first; the lowest two from 11 with their blockhashes.
    let r = json(&cli(ledger, &["roots", "--format", "json"]));
    assert_eq!(r, json!({"roots": [15, 14, 13, 12, 11, 10]}));
    let r = json(&cli(
        ledger,
        &[
            "roots",
            "--format",
            "json",
            "--start-root",
            "11",
            "--max-roots",
            "2",
            "--blockhash",
        ],
    ));
    assert_eq!(r["roots"], json!([12, 11]));
    let hashes = json!([details[&12]["blockhash"], details[&11]["blockhash"]]);
    assert_eq!(r["blockhashes"], hashes);
    assert_eq!(
        bstore(&cli(
            ledger,
            &[
                "roots",
                "--start-root",
                "11",
                "--num-roots",
                "2",
                "--blockhash"
            ]
        )),
        format!(
            "12: {}\n11: {}\n",
            hashes[0].as_str().expect("hash"),
            hashes[1].as_str().expect("hash")
        )
    );

    // dead-slots and duplicate-slots.
    assert_eq!(
        json(&cli(ledger, &["dead-slots", "--format", "json"])),
        json!({"dead_slots": [13]})
    );
    assert_eq!(bstore(&cli(ledger, &["dead-slots"])), "13\n");
    assert_eq!(
        json(&cli(
            ledger,
            &["dead-slots", "--format", "json", "--start-slot", "14"]
        )),
        json!({"dead_slots": []})
    );
    let d = json(&cli(
        ledger,
        &["duplicate-slots", "--format", "json", "--verbose"],
    ));
    assert_eq!(d["duplicate_slots"], json!([12]));
    let proof = &d["proofs"][0];
    assert_eq!(proof["slot"], 12);
    for shred in ["shred1", "shred2"] {
        let s = &proof["proof"][shred];
        assert_eq!((&s["slot"], &s["index"]), (&json!(12), &json!(0)), "{s}");
        assert_eq!(s["kind"], "data");
    }
    assert_eq!(
        json(&cli(
            ledger,
            &[
                "duplicate-slots",
                "--format",
                "json",
                "--starting-slot",
                "13"
            ]
        )),
        json!({"duplicate_slots": []})
    );

    // analyze: every declared column (Agave 4.x's set) in order, then the other column
    // families on disk (RocksDB's `default`), sorted; counts from the setup.
    let a = json(&cli(ledger, &["analyze", "--format", "json"]));
    let cols = a["columns"].as_array().expect("columns");
    let names: Vec<&str> = cols
        .iter()
        .map(|c| c["column"].as_str().expect("name"))
        .collect();
    let declared: Vec<&str> = columns::FAMILIES.iter().map(|f| f.name).collect();
    let (known, others) = names.split_at(declared.len());
    assert_eq!(known, declared);
    assert!(others.is_sorted(), "{others:?}");
    assert_eq!(others, ["default"]);
    for c in &cols[..declared.len()] {
        assert_eq!(c["known"], true, "{c}");
    }
    let col = |name: &str| cols.iter().find(|c| c["column"] == name).expect("column");
    for c in &cols[declared.len()..] {
        assert_eq!((&c["known"], &c["keys"]), (&json!(false), &json!(0)), "{c}");
    }
    let sum = |f: &dyn Fn(&Value) -> u64| details.values().map(f).sum::<u64>();
    let data = sum(&|d| d["data_shreds"].as_u64().expect("n"));
    let code = sum(&|d| d["index"]["code_shreds"].as_u64().expect("n"));
    let erasure = sum(&|d| {
        let sets = d["fec_sets"].as_array().expect("sets");
        sets.iter().filter(|s| !s["erasure_meta"].is_null()).count() as u64
    });
    let merkle = sum(&|d| d["fec_sets"].as_array().expect("sets").len() as u64);
    for (name, keys, key_len) in [
        ("meta", 9, 8),
        ("data_shred", data, 16),
        ("code_shred", code, 16),
        ("root", 6, 8),
        ("dead_slots", 1, 8),
        ("duplicate_slots", 1, 8),
        ("index", 7, 8),
        ("erasure_meta", erasure, 16),
        ("merkle_root_meta", merkle, 12),
        ("blocktime", 0, 8),
    ] {
        let c = col(name);
        assert_eq!(c["keys"], keys, "{c}");
        assert_eq!(c["key_bytes"], keys * key_len, "{c}");
        assert_eq!(c["known"], true);
    }
    assert_eq!(col("dead_slots")["value_bytes"], 1);
    assert_eq!(col("erasure_meta")["value_min"], 40);
    assert_eq!(col("erasure_meta")["value_max"], 40);
    let shreds = col("data_shred");
    let mean = shreds["value_bytes"].as_f64().expect("bytes") / data as f64;
    assert_eq!(shreds["value_mean"].as_f64(), Some(mean));
    assert!(shreds["value_min"].as_u64() <= shreds["value_p50"].as_u64());
    assert!(shreds["value_p99"].as_u64() <= shreds["value_max"].as_u64());
    assert_eq!(col("blocktime")["value_min"], Value::Null);

    // Purges move the bounds; the read commands still leave the (now compacted) files be.
    bstore(&cli(ledger, &["purge", "9", "12"]));
    let before = snapshot(&path);
    run_every_read_command(ledger);
    assert_eq!(changed(&before, &snapshot(&path)), Vec::<PathBuf>::new());
    let b = json(&cli(ledger, &["bounds", "--format", "json"]));
    // Slot 12 stays as the placeholder of its child 13 (Agave 4.3+'s purge), and a
    // placeholder counts, as in agave-ledger-tool's `bounds`.
    assert_eq!((&b["lowest"], &b["num_slots"]), (&json!(12), &json!(6)));
    assert_eq!(
        b["roots"],
        json!({"total": 3, "first": 13, "last": 15, "num_after_last_root": 2})
    );
    assert_eq!(
        json(&cli(ledger, &["duplicate-slots", "--format", "json"])),
        json!({"duplicate_slots": []})
    );
    assert_eq!(
        json(&cli(ledger, &["dead-slots", "--format", "json"])),
        json!({"dead_slots": [13]})
    );
    let first = (TESTNET_SLOT - 1).to_string();
    bstore(&cli(ledger, &["purge", &first, &TESTNET_SLOT.to_string()]));
    assert_eq!(
        bstore(&cli(ledger, &["bounds"])),
        "Ledger has data for 4 slots 12 to 15\n  with 3 rooted slots from 13 to 15\n  and 0 \
         slots past the last root\n"
    );
    // The placeholder goes with the range that holds it and its child.
    bstore(&cli(ledger, &["purge", "12", "15"]));
    assert_eq!(bstore(&cli(ledger, &["bounds"])), "Ledger is empty\n");
    let b = json(&cli(ledger, &["bounds", "--format", "json"]));
    assert_eq!(
        b,
        json!({"lowest": null, "highest": null, "num_slots": 0,
               "roots": {"total": 0, "first": null, "last": null, "num_after_last_root": 0}})
    );
    assert_eq!(
        json(&cli(ledger, &["roots", "--format", "json"])),
        json!({"roots": []})
    );
}

/// A secondary (the default) follows a writer that is still open, as beside a validator.
#[test]
fn the_default_secondary_reads_beside_an_open_writer() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ledger = dir.path().join("live");
    generate(&ledger, 1, 2, 1);
    let c = dir.path().join("c");
    generate(&c, 5, 1, 3);
    let shreds: Vec<Vec<u8>> = {
        let c = Blockstore::open(&c, AccessMode::ReadOnly).expect("open c");
        let received = c.meta(Slot(5)).expect("meta").expect("slot 5").received;
        let received = u32::try_from(received).expect("≤ 32,768 shreds");
        c.multi_get_data_shreds(Slot(5), 0, received)
            .expect("shreds")
            .into_iter()
            .map(|s| s.expect("stored").to_vec())
            .collect()
    };
    let writer = Blockstore::open(&ledger, AccessMode::ReadWrite).expect("writer");
    let l = ledger.to_str().expect("utf-8");
    let bounds = || json(&["ledger", "bounds", "--ledger", l, "--format", "json"]);
    assert_eq!(bounds()["highest"], 2);

    writer.insert_shreds(&shreds).expect("insert");
    writer.set_dead_slot(Slot(5)).expect("dead");
    let b = bounds();
    assert_eq!((&b["highest"], &b["num_slots"]), (&json!(5), &json!(5)));
    assert_eq!(
        b["roots"]["num_after_last_root"], 2,
        "slots 4 (parent) and 5"
    );
    let dead = json(&["ledger", "dead-slots", "--ledger", l, "--format", "json"]);
    assert_eq!(dead, json!({"dead_slots": [5]}));
    let slot = json(&["ledger", "slot", "--ledger", l, "5"]);
    assert_eq!((&slot["full"], &slot["dead"]), (&json!(true), &json!(true)));
    drop(writer);
}

/// A missing ledger is an error, and nothing is created in its place.
#[test]
fn a_missing_ledger_is_an_error_and_stays_missing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("nothing-here");
    let m = missing.to_str().expect("utf-8");
    for cmd in [
        "bounds",
        "roots",
        "dead-slots",
        "duplicate-slots",
        "analyze",
    ] {
        for access in ["secondary", "read-only"] {
            let out = Command::new(env!("CARGO_BIN_EXE_bstore"))
                .args(["ledger", cmd, "--ledger", m, "--access", access])
                .output()
                .expect("runs bstore");
            assert!(!out.status.success(), "{cmd} {access} succeeded");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains("no ledger at"), "{cmd}: {err}");
        }
    }
    assert!(!missing.exists());
}
