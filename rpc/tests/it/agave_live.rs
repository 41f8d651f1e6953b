//! bstore answers as a live Agave 4.4.0 validator did, on that validator's own ledger: the
//! ledgers in `fixtures/agave-live/` (Alpenglow off) and `fixtures/agave-live-alpenglow/`
//! are slices of `scripts/validator-live.sh` runs' (blocks the validator produced and
//! executed: transfers, failures, memos, SPL Token and Token-2022, a lookup table with v0
//! transactions, a v1 transaction, stake; an epoch boundary's rewards: voting and staking
//! with Alpenglow off, Alpenglow's `VATDebit` with it on), and each `answers.json.gz` holds the validator's own RPC answers to every
//! question `interop/live/record.py` asks about those slots (see the README there). Every
//! answer of a bstore server over the slice must equal the validator's, compared as
//! `interop/live/jsondiff.py` compares them: the `result` value for value (for an
//! RpcResponse its `value` and the context's keys), or the whole `error`.

use crate::common;

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{Value, json};

use crate::agave_diff;

/// `answers.json` as `record.py` writes it.
#[derive(Deserialize)]
struct Recording {
    /// The validator's `getVersion`.
    validator: Value,
    /// The slot ranges kept in the ledger slice.
    slots: String,
    requests: Vec<Recorded>,
}

#[derive(Deserialize)]
struct Recorded {
    method: String,
    params: Value,
    /// The validator's answer in `jsondiff.comparable`'s form.
    answer: Value,
}

/// A response in `jsondiff.comparable`'s form: `{"error": ..}` whole, or `{"result": ..}`
/// where an RpcResponse (`context` + `value`) keeps its value and the context's sorted keys
/// (the context's slot is the server's tip at the time).
fn comparable(response: &Value) -> Value {
    if let Some(error) = response.get("error") {
        return json!({ "error": error });
    }
    let result = response.get("result").cloned().unwrap_or(Value::Null);
    match result.as_object() {
        Some(o) if o.len() == 2 && o.contains_key("context") && o.contains_key("value") => {
            let keys = match &o["context"] {
                Value::Object(c) => {
                    let mut keys: Vec<&String> = c.keys().collect();
                    keys.sort();
                    json!(keys)
                }
                other => other.clone(),
            };
            json!({ "result": { "context_keys": keys, "value": o["value"] } })
        }
        _ => json!({ "result": result }),
    }
}

/// How many of the recorded answers of `method` are results (not null, not an error).
fn results(recording: &Recording, method: &str) -> usize {
    recording
        .requests
        .iter()
        .filter(|r| r.method == method && r.answer.get("result").is_some_and(|v| !v.is_null()))
        .count()
}

#[test]
fn every_answer_equals_the_live_validators() {
    check_fixture("agave-live");
}

#[test]
fn every_answer_equals_the_live_alpenglow_validators() {
    check_fixture("agave-live-alpenglow");
}

/// Serves `fixtures/FIXTURE`'s ledger slice and requires every recorded answer.
fn check_fixture(fixture: &str) {
    let (_dir, ledger) = bstore_testkit::fixtures::unpack_ledger(fixture).expect("fixture");
    let recording: Recording = common::fixtures::gzipped_json(fixture, "answers.json.gz");
    assert_eq!(recording.validator["solana-core"], "4.4.0");
    // A recording of nothing but errors would prove little: the methods the slice is for
    // must have real answers.
    for (method, at_least) in [
        ("getBlock", 800),
        ("getTransaction", 100),
        ("getSignaturesForAddress", 200),
        ("getSignatureStatuses", 1),
        ("getBlocks", 1),
    ] {
        let n = results(&recording, method);
        assert!(n >= at_least, "{method}: {n} results recorded");
    }

    let server = agave_diff::serve_read_only(&ledger);
    let addr = server.local_addr();
    let mut checked: BTreeMap<&str, usize> = BTreeMap::new();
    let mut differences = Vec::new();
    for r in &recording.requests {
        let ours = comparable(&common::call(addr, &r.method, r.params.clone()));
        *checked.entry(&r.method).or_default() += 1;
        if ours != r.answer {
            differences.push(format!(
                "{} {}: {}",
                r.method,
                r.params,
                agave_diff::first_difference(&r.answer, &ours, "answer")
            ));
        }
    }
    server.stop().expect("clean stop");
    assert!(
        differences.is_empty(),
        "slots {}: {} of {} answers differ from the validator's ({checked:?}):\n{}",
        recording.slots,
        differences.len(),
        recording.requests.len(),
        differences[..differences.len().min(40)].join("\n")
    );
}
