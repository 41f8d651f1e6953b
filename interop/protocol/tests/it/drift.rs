//! A message that drifted from its type fails to parse, with an error naming the field.

use bstore_interop_protocol::{
    BlockCase, DuplicateKind, FetchFailed, Generated, Inserted, SlotEntries, Summary,
};
use serde_json::{Value, json};

fn gen_line() -> Value {
    json!({
        "chained": true, "leader": "L", "out": "g.bin", "records": 0, "shred_version": 1,
        "slots": [], "start_hash": "H", "version_seed": null,
    })
}

#[test]
fn an_unknown_field_is_an_error_naming_it() {
    let mut line = gen_line();
    serde_json::from_value::<Generated>(line.clone()).expect("the line as printed");
    line["leaders"] = json!("L");
    let err = serde_json::from_value::<Generated>(line)
        .expect_err("an extra field")
        .to_string();
    assert!(err.contains("unknown field `leaders`"), "{err}");
}

#[test]
fn a_missing_field_is_an_error_naming_it() {
    let mut line = gen_line();
    if let Some(map) = line.as_object_mut() {
        map.remove("records");
    }
    let err = serde_json::from_value::<Generated>(line)
        .expect_err("a missing field")
        .to_string();
    assert!(err.contains("missing field `records`"), "{err}");
}

#[test]
fn an_unknown_duplicate_kind_is_an_error() {
    for kind in [
        DuplicateKind::SamePosition,
        DuplicateKind::MerkleRootConflict,
        DuplicateKind::ChainedMerkleRootConflict,
        DuplicateKind::LastIndexConflict,
        DuplicateKind::ErasureConfigConflict,
        DuplicateKind::SamePayload,
    ] {
        assert_eq!(json!(kind), json!(kind.name()), "{kind:?}");
    }
    assert!(serde_json::from_value::<DuplicateKind>(json!("same_slot")).is_err());
}

#[test]
fn a_failed_fetch_is_its_own_shape() {
    let failed = SlotEntries::Failed(FetchFailed {
        error: "dead slot".into(),
    });
    let text = serde_json::to_string(&failed).expect("serializes");
    assert_eq!(text, r#"{"error":"dead slot"}"#);
    let back: SlotEntries = serde_json::from_str(&text).expect("parses");
    assert_eq!(back.fetched(), Err("dead slot"));
    // A summary whose entries carry both shapes' fields is neither.
    let mut summary: Value = serde_json::from_str(
        r#"{"dead":false,"duplicate_proof":false,"entries":{"blockhash":null,"count":0,
        "is_full":false,"num_shreds":0,"sha256":"00","ticks":0,"transactions":0},
        "erasure_meta":[],"index":{"num_coding":null,"num_data":null,"present":false,
        "row":null},"is_full":false,"merkle_root_meta":[],"meta":null,"root":false,"slot":5}"#,
    )
    .expect("JSON");
    serde_json::from_value::<Summary>(summary.clone()).expect("the summary as printed");
    summary["entries"]["error"] = json!("dead slot");
    assert!(serde_json::from_value::<Summary>(summary).is_err());
}

#[test]
fn an_insert_slot_without_meta_is_null_meta() {
    let line = json!({
        "code": 0, "completed_data_sets": [], "data": 0, "possible_duplicates": [],
        "records": 0, "recovered": 0, "recovered_exists": 0, "recovered_invalid": 0,
        "selected": 0, "skipped": 0, "slots": [{"meta": null, "slot": 4}], "slots_full": [],
        "unparsable": 0, "unparsable_examples": [], "via": "insert-shreds",
    });
    let inserted: Inserted = serde_json::from_value(line.clone()).expect("parses");
    assert_eq!(inserted.slots[0].slot(), 4);
    assert_eq!(serde_json::to_value(&inserted).expect("serializes"), line);
}

#[test]
fn a_case_without_an_answer_has_none() {
    let case: BlockCase<Value> = serde_json::from_value(json!({
        "slot": 3,
        "config": {"encoding": "json", "maxSupportedTransactionVersion": null,
                   "rewards": true, "transactionDetails": "full"},
    }))
    .expect("parses");
    assert!(case.answer().is_none());
    let null_result: BlockCase<Value> = serde_json::from_value(json!({
        "slot": 3, "result": null,
        "config": {"encoding": "json", "maxSupportedTransactionVersion": 0,
                   "rewards": true, "transactionDetails": "full"},
    }))
    .expect("parses");
    assert!(null_result.answer().is_some());
}
