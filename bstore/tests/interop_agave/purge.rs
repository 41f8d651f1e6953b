//! Scenario: bstore purges a slot range of a ledger Agave wrote. Agave then finds nothing of
//! the purged slots (no index, no shred, no flag: no row in any slot-keyed column family)
//! but the placeholder meta of the range's top slot, whose child survives, and the slots
//! around them intact; the purge leaves the same rows as agave-ledger-tool's `purge` on a
//! copy of the ledger; and bstore goes on inserting, the purged slots again included, with
//! the same rows as Agave inserting the same shreds.
//!
//! bstore purges as Agave 4.3 and later (`purge_slots_cleanup_chaining`). Agave 4.2 keeps no
//! placeholder, so against 4.2 the placeholder's meta row is the one difference, asserted as
//! such.

use super::*;

use bstore_interop_protocol::{
    DuplicateStored, Purged as PurgedRange, ReplayRowsWritten, SlotView,
};

const START: u64 = 1000;
/// Slots `START..START + 6`: Agave writes the first four, the last two come later.
const SLOTS: u64 = 6;
const WRITTEN: std::ops::RangeInclusive<u64> = START..=START + 3;
const PURGED: std::ops::RangeInclusive<u64> = START + 1..=START + 2;
/// The purged slot whose child (`START + 3`) survives: Agave 4.3+ and bstore keep its meta as
/// a placeholder.
const PLACEHOLDER: u64 = START + 2;

/// Whether Agave also writes the rows replay and RPC keep per slot (bank hash, optimistic
/// confirmation, block time and height, rewards, performance sample).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ReplayRows {
    Yes,
    No,
}

/// An Agave-written ledger and an identical copy: bstore purges `PURGED` from the first
/// (`bstore ledger purge`), Agave from the copy (the tool's `purge`, agave-ledger-tool's
/// calls).
struct Purged {
    dir: tempfile::TempDir,
    generated: Generated,
    by_bstore: PathBuf,
    by_agave: PathBuf,
    /// Agave 4.2's purge keeps no placeholder meta; 4.3 and later do, as bstore does.
    agave_keeps_placeholder: bool,
}

impl Purged {
    /// The differences between bstore's and Agave's rows that this Agave release must show,
    /// given the differences found: none from 4.3 on; on 4.2, only the placeholder's meta.
    fn unexpected(&self, differences: Vec<String>) -> Vec<String> {
        if self.agave_keeps_placeholder {
            return differences;
        }
        let (expected, unexpected): (Vec<_>, Vec<_>) = differences
            .into_iter()
            .partition(|d| d.starts_with(&format!("slot {PLACEHOLDER} meta:")));
        let mut left = unexpected;
        if expected.len() != 1 {
            left.push(format!(
                "Agave 4.2 keeps no placeholder: slot {PLACEHOLDER}'s meta must differ once, \
                 found {expected:?}"
            ));
        }
        left
    }
}

fn purged(replay_rows: ReplayRows) -> Purged {
    let dir = tempfile::tempdir().expect("tempdir");
    let generated = Generated::new(dir.path(), START, SLOTS, 64, 31);
    let by_bstore = dir.path().join("by-bstore");
    let range = format!("{}..={}", WRITTEN.start(), WRITTEN.end());
    let ins: Inserted = agave(&[
        "insert",
        "--ledger",
        s(&by_bstore),
        "--slots",
        &range,
        s(&generated.stream),
    ]);
    assert_eq!(ins.slots_full, WRITTEN.collect::<Vec<_>>(), "{ins:?}");
    // A flag of every kind inside and outside the range.
    let ledger = s(&by_bstore);
    let _: Rooted = agave(&["set-root", "--ledger", ledger, &START.to_string()]);
    let _: Rooted = agave(&["set-root", "--ledger", ledger, &(START + 1).to_string()]);
    let _: MarkedDead = agave(&["set-dead", "--ledger", ledger, &(START + 2).to_string()]);
    let _: MarkedDead = agave(&["set-dead", "--ledger", ledger, &(START + 3).to_string()]);
    let proof = dir.path().join("proof.bin");
    // Any two shreds make a row for the column (Agave's store_duplicate_slot checks nothing).
    filtered_stream(&generated.stream, &proof, |is_data, slot, index| {
        is_data && slot == START + 1 && index < 2
    });
    for slot in [START + 1, START + 3] {
        let slot = slot.to_string();
        let _: DuplicateStored = agave(&[
            "store-duplicate",
            "--ledger",
            ledger,
            "--slot",
            &slot,
            s(&proof),
        ]);
    }
    if replay_rows == ReplayRows::Yes {
        let mut args = vec![
            "set-replay-rows".to_string(),
            "--ledger".into(),
            ledger.into(),
        ];
        args.extend(WRITTEN.map(|slot| slot.to_string()));
        let written: ReplayRowsWritten =
            agave(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(written.slots, WRITTEN.collect::<Vec<_>>());
    }

    let by_agave = dir.path().join("by-agave");
    copy_dir(&by_bstore, &by_agave);
    let (from, to) = (PURGED.start().to_string(), PURGED.end().to_string());
    let out = json_lines(&bstore(&[
        "ledger", "purge", "--ledger", ledger, &from, &to,
    ]))
    .remove(0);
    assert_eq!(out["slots_with_meta"], 2, "{out}");
    assert_eq!(out["placeholders_kept"], 1, "{out}");
    let range: PurgedRange = agave(&["purge", "--ledger", s(&by_agave), &from, &to]);
    assert_eq!((range.start, range.end), (*PURGED.start(), *PURGED.end()));
    Purged {
        dir,
        generated,
        by_bstore,
        by_agave,
        agave_keeps_placeholder: !range.agave.starts_with("4.2."),
    }
}

/// A closed RocksDB directory tree, file by file.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create the copy");
    for entry in std::fs::read_dir(from).expect("read the ledger") {
        let entry = entry.expect("directory entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy a ledger file");
        }
    }
}

/// Agave's `slot-rows` of the slots around the written range.
fn slot_rows(ledger: &Path) -> Vec<SlotView> {
    let range = format!("{}..={}", START - 1, START + SLOTS);
    let rows: bstore_interop_protocol::SlotRows =
        agave(&["slot-rows", "--ledger", s(ledger), "--slots", &range]);
    rows.slots
}

/// Where the raw rows of the slot-keyed families differ between the two purged ledgers.
fn raw_differences(ours: &[SlotView], theirs: &[SlotView]) -> Vec<String> {
    let mut differences = Vec::new();
    for (a, b) in ours.iter().zip(theirs) {
        let slot = a.slot;
        assert_eq!(
            a.raw.keys().collect::<Vec<_>>(),
            b.raw.keys().collect::<Vec<_>>(),
            "slot {slot}: the same families on both sides"
        );
        for (family, rows) in &a.raw {
            let other = b.raw.get(family);
            if Some(rows) != other {
                differences.push(format!(
                    "slot {slot} {family}: bstore's purge left {}, Agave's {:?}",
                    rows.rows,
                    other.map(|o| o.rows)
                ));
            }
        }
    }
    differences
}

/// The purged slots are gone for Agave (every getter and every slot-keyed family), the
/// slots around them are intact, the rows match Agave's own purge, and bstore goes on:
/// new slots after the range and the purged slots again, read exactly by both sides, with
/// the rows Agave's insert writes for the same shreds on its purged copy.
#[test]
#[ignore = "needs the Agave tool; run scripts/interop-agave.sh"]
fn bstore_purge_seen_by_agave_and_inserting_goes_on() {
    let p = purged(ReplayRows::No);
    let rows = slot_rows(&p.by_bstore);
    for row in &rows {
        let slot = row.slot;
        // Below the range, Agave's insert left the parent's placeholder (an orphan meta).
        if PURGED.contains(&slot) || slot > *WRITTEN.end() {
            let placeholder = slot == PLACEHOLDER;
            assert_eq!(
                row.raw_rows_total,
                u64::from(placeholder),
                "slot {slot}: rows left: {row:?}"
            );
            assert_eq!(
                (row.meta.is_some(), row.index_present, row.data_shreds),
                (placeholder, false, 0),
                "Agave still sees slot {slot}: {row:?}"
            );
            if let Some(meta) = row.meta.as_ref().filter(|_| placeholder) {
                assert_eq!(
                    (meta.parent_slot, meta.next_slots.as_slice(), meta.received),
                    (None, [PLACEHOLDER + 1].as_slice(), 0),
                    "slot {slot}: only the link to the surviving child stays: {row:?}"
                );
            }
            assert_eq!(
                (row.code_shreds, row.dead, row.root),
                (0, false, false),
                "slot {slot}: {row:?}"
            );
            assert!(!row.duplicate_proof, "slot {slot}: {row:?}");
        }
    }
    let [first, last] = [START, START + 3];
    for gen_slot in p.generated.slots() {
        let slot = gen_slot.slot;
        if slot == first || slot == last {
            assert_slot_exact_on_both_sides(&p.by_bstore, gen_slot, &p.generated.entries(slot));
        }
    }
    let at = |slot: u64| &rows[(slot - (START - 1)) as usize];
    assert!(at(first).root);
    assert_eq!(
        at(first).meta.as_ref().map(|m| m.next_slots.as_slice()),
        Some([].as_slice()),
        "the purged child left its parent's next_slots"
    );
    assert_eq!(
        (at(last).dead, at(last).duplicate_proof),
        (true, true),
        "flags outside the range stay"
    );
    assert_eq!(
        at(last).meta.as_ref().and_then(|m| m.parent_slot),
        Some(START + 2),
        "a child above the range keeps its parent"
    );
    let differences = p.unexpected(raw_differences(&rows, &slot_rows(&p.by_agave)));
    assert!(differences.is_empty(), "{}", differences.join("\n"));

    // bstore goes on: the two new slots, then the purged ones again. Agave inserts the
    // same files into its purged copy.
    let later = p.dir.path().join("later.bin");
    let again = p.dir.path().join("again.bin");
    filtered_stream(&p.generated.stream, &later, |_, slot, _| {
        slot > *WRITTEN.end()
    });
    filtered_stream(&p.generated.stream, &again, |_, slot, _| {
        PURGED.contains(&slot)
    });
    let leader = p.generated.leader();
    for (file, slots) in [
        (&later, [START + 4, START + 5]),
        (&again, [START + 1, START + 2]),
    ] {
        let out = bstore_ingest(&p.by_bstore, &[file], Some(leader));
        assert_eq!(out["slots_full"], json!(slots), "{out}");
        assert_eq!(out["rejected"], 0, "{out}");
        agave_insert(&p.by_agave, file, "all");
    }
    let mut differences = Vec::new();
    for gen_slot in p.generated.slots() {
        let slot = gen_slot.slot;
        assert_slot_exact_on_both_sides(&p.by_bstore, gen_slot, &p.generated.entries(slot));
        differences.extend(column_differences(&p.by_bstore, &p.by_agave, slot));
    }
    for slot in PURGED {
        let (summary, _) = agave_read(&p.by_bstore, slot);
        assert_eq!(
            (summary.dead, summary.root, summary.duplicate_proof),
            (false, false, false),
            "slot {slot} inserted again starts clean: {summary:?}"
        );
    }
    // The placeholder brought the link back: the slot inserted again is its surviving
    // child's parent once more (on 4.2's copy, without a placeholder, it is not).
    let rows = slot_rows(&p.by_bstore);
    let placeholder = &rows[(PLACEHOLDER - (START - 1)) as usize];
    assert_eq!(
        placeholder.meta.as_ref().map(|m| m.next_slots.as_slice()),
        Some([PLACEHOLDER + 1].as_slice()),
        "{placeholder:?}"
    );
    let differences = p.unexpected(differences);
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}

/// With the rows replay and RPC write per slot (bank hash, optimistic confirmation, block
/// time and height, rewards, performance sample), bstore's purge must leave what
/// agave-ledger-tool's leaves: nothing of the purged slots in any slot-keyed family.
#[test]
#[ignore = "needs the Agave tool; run scripts/interop-agave.sh"]
fn bstore_purge_clears_agaves_replay_rows() {
    let p = purged(ReplayRows::Yes);
    let ours = slot_rows(&p.by_bstore);
    let theirs = slot_rows(&p.by_agave);
    for row in &theirs {
        let slot = row.slot;
        if WRITTEN.contains(&slot) && !PURGED.contains(&slot) {
            assert!(row.bank_hash.is_some(), "slot {slot}: {row:?}");
        }
    }
    let mut left = Vec::new();
    for row in &ours {
        let slot = row.slot;
        if PURGED.contains(&slot) {
            let answers = [
                ("bank_hash", row.bank_hash.is_some()),
                ("optimistic", row.optimistic),
                ("block_height", row.block_height.is_some()),
                ("rewards", row.rewards),
            ];
            for (getter, _) in answers.iter().filter(|(_, answered)| *answered) {
                left.push(format!(
                    "slot {slot}: Agave's {getter} still answers: {row:?}"
                ));
            }
        }
    }
    left.extend(p.unexpected(raw_differences(&ours, &theirs)));
    assert!(left.is_empty(), "{}", left.join("\n"));
}
