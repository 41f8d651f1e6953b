//! Every message in `tests/recorded/` (one line each, printed by `agave-interop` linked
//! against Agave 4.2.2) parses into its type and prints back byte for byte, keys in the
//! tool's sorted order: the types describe the tool's output exactly, no field left out
//! or renamed.

use std::path::{Path, PathBuf};

use bstore_interop_protocol::{
    ColumnDump, DuplicateKind, DuplicateProofRead, DuplicateStored, EncodeBench, FetchBench,
    Generated, HistoryAnswers, HistorySlot, HistorySummary, InsertBench, InsertPath, Inserted,
    MarkedDead, Purged, ReplayRowsWritten, Rooted, SlotRows, Summary,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

fn recorded(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/recorded")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.trim_end().to_string()
}

/// Parses the recorded line as `T` and prints it back as the tool prints (through a
/// `Value`, keys sorted): the same bytes.
fn round_trip<T: Serialize + DeserializeOwned>(name: &str) -> T {
    let text = recorded(name);
    let parsed: T = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let value = serde_json::to_value(&parsed).expect("serializes");
    assert_eq!(value.to_string(), text, "{name} prints back differently");
    parsed
}

#[test]
fn gen_lines_print_back_byte_for_byte() {
    let chained: Generated = round_trip("gen.json");
    assert_eq!(chained.slots.len(), 3);
    assert!(chained.chained);
    let version: Generated = round_trip("gen-a.json");
    assert_eq!(version.version_seed, Some(1));
    let plain: Generated = round_trip("gen-unchained.json");
    // 40 data shreds round up to two whole FEC sets.
    assert_eq!(
        (plain.slots[0].data_shreds, plain.slots[0].fec_sets),
        (64, 2)
    );
}

#[test]
fn insert_lines_print_back_byte_for_byte() {
    let even: Inserted = round_trip("insert-even.json");
    assert_eq!(even.via, InsertPath::InsertShreds);
    assert!(even.slots_full.is_empty());
    let odd: Inserted = round_trip("insert-odd.json");
    assert_eq!(odd.slots_full, vec![10, 11]);
    // Only the slots of the selected shreds (`--slots 10..=11`) are reported.
    let slots: Vec<u64> = odd.slots.iter().map(|s| s.slot()).collect();
    assert_eq!(slots, vec![10, 11]);
    round_trip::<Inserted>("insert-ws-a.json");
    let b5: Inserted = round_trip("insert-ws-b5.json");
    assert_eq!(b5.via, InsertPath::WindowService);
    assert_eq!(b5.possible_duplicates[0].kind, DuplicateKind::SamePosition);
}

#[test]
fn summary_lines_print_back_byte_for_byte() {
    let full: Summary = round_trip("summary-full.json");
    assert!(full.is_full);
    let fetched = full.entries.fetched().expect("fetched");
    assert!(fetched.is_full);
    let partial: Summary = round_trip("summary-partial.json");
    assert!(!partial.is_full);
    let orphan: Summary = round_trip("summary-orphan.json");
    assert_eq!(orphan.meta.map(|m| m.parent_slot), Some(None));
    let none: Summary = round_trip("summary-none.json");
    assert!(none.meta.is_none() && none.index.row.is_none());
}

#[test]
fn column_and_row_lines_print_back_byte_for_byte() {
    let dump: ColumnDump = round_trip("dump.json");
    for (column, rows) in dump.columns.hex_rows() {
        assert!(!rows.is_empty(), "{column}");
    }
    let rows: SlotRows = round_trip("slot-rows.json");
    assert_eq!(rows.slots.len(), 5);
    assert!(rows.slots.iter().all(|s| s.raw.len() == 16));
}

#[test]
fn duplicate_lines_print_back_byte_for_byte() {
    let read: DuplicateProofRead = round_trip("duplicate-proof.json");
    let proof = read.proof.expect("a proof");
    assert!(proof.valid);
    assert!(proof.conflicts.contains(&DuplicateKind::SamePosition));
    let shred = proof.shred1.parsed().expect("parsed");
    assert_eq!(shred.signed_by_leader, Some(true));
    let unchecked: DuplicateProofRead = round_trip("duplicate-proof-noleader.json");
    let shred = unchecked.proof.expect("a proof").shred2;
    assert_eq!(shred.parsed().map(|s| s.signed_by_leader), Some(None));
    let none: DuplicateProofRead = round_trip("duplicate-proof-none.json");
    assert!(none.proof.is_none());
    let stored: DuplicateStored = round_trip("store-duplicate.json");
    assert!(stored.has_duplicate);
}

#[test]
fn small_writes_and_benches_print_back_byte_for_byte() {
    assert_eq!(round_trip::<Rooted>("set-root.json").rooted, vec![10, 11]);
    assert_eq!(round_trip::<MarkedDead>("set-dead.json").dead, vec![12]);
    assert_eq!(
        round_trip::<Purged>("purge.json"),
        Purged {
            start: 12,
            end: 12,
            agave: "4.2.2".into()
        }
    );
    round_trip::<ReplayRowsWritten>("replay-rows.json");
    let fetch: FetchBench = round_trip("fetch-bench.json");
    assert_eq!(fetch.round_medians_ns.len(), 2);
    let insert: InsertBench = round_trip("insert-bench.json");
    assert_eq!(insert.agave, "4.2.2");
    round_trip::<EncodeBench>("encode-bench.json");
    let history: HistorySummary = round_trip("history.json");
    assert_eq!(history.get_block.requests, 576);
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/agave-history")
        .join(name)
}

/// The committed answers file (`fixtures/agave-history/expected.json.gz`, written by the
/// tool on Agave 4.2.2): every case holds exactly one answer, and the file prints back
/// byte for byte.
#[test]
fn history_answers_file_prints_back_byte_for_byte() {
    let gz = fixture("expected.json.gz");
    let out = std::process::Command::new("gzip")
        .arg("-dc")
        .arg(&gz)
        .output()
        .expect("runs gzip");
    assert!(out.status.success(), "gzip -dc {}", gz.display());
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let answers: HistoryAnswers<Value> = serde_json::from_str(&text).expect("the answers file");
    let printed = serde_json::to_value(&answers)
        .expect("serializes")
        .to_string();
    assert!(
        printed == text.trim_end(),
        "the answers file prints back differently"
    );

    assert_eq!(answers.get_block.len(), 576);
    assert!(answers.get_block.iter().all(|c| c.answer().is_some()));
    assert!(answers.get_transaction.iter().all(|c| c.answer().is_some()));
    assert!(
        answers
            .get_signatures_for_address
            .iter()
            .all(|c| c.answer().is_some())
    );
    assert!(
        answers
            .get_signature_statuses
            .iter()
            .all(|c| c.answer().is_some())
    );
    // A `null` result is an answer, not a missing one.
    assert!(
        answers
            .get_transaction
            .iter()
            .any(|c| c.result.as_ref().is_some_and(Value::is_null))
    );
    let gaps = answers
        .slots
        .iter()
        .filter(|s| matches!(s, HistorySlot::Gap(_)))
        .count();
    assert_eq!(
        gaps, 2,
        "the skipped slot and the one past the highest root"
    );
}
