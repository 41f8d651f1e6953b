//! The differential check against Agave: every request recorded by `agave-interop history`
//! (Agave's own Blockstore and `solana-transaction-status` encoders over a ledger it wrote,
//! `docs/interop-agave-history.md`) is sent to a bstore server over the same ledger, and
//! the answer must equal Agave's value for value: the `result`, or the error's code and
//! message. Used by `rpc/tests/agave_history.rs` (the committed fixture, recorded by Agave
//! 4.2.2, in CI) and the interop suite (a fresh run of the tool). Agave 4.x's answers carry
//! `transactionIndex` and `commissionBps` themselves. The recording is read as the tool
//! wrote it (`bstore_interop_protocol::HistoryAnswers`).

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use bstore_interop_protocol::{Answer, HistoryAnswers};
use bstore_ledger::store::{AccessMode, Blockstore};
use bstore_rpc::{RpcConfig, RpcServer};
use serde_json::{Map, Value, json};

/// The recording as the tool wrote it, with Agave's answers as JSON.
pub(super) type Recording = HistoryAnswers<Value>;

/// One request and what Agave answered.
struct Case<'a> {
    method: &'static str,
    params: Value,
    what: String,
    expected: Answer<'a, Value>,
}

/// The config object as a request sends it: `null` members left out.
fn config(recorded: Value) -> Value {
    let mut out = Map::new();
    for (k, v) in recorded.as_object().into_iter().flatten() {
        if !v.is_null() {
            out.insert(k.clone(), v.clone());
        }
    }
    Value::Object(out)
}

/// The recorded answer; a case with neither or both of `result` and `error` is a broken
/// recording, not a case to skip.
fn recorded<'a>(answer: Option<Answer<'a, Value>>, what: &str) -> Answer<'a, Value> {
    answer.unwrap_or_else(|| panic!("{what}: the recording holds no single answer"))
}

fn cases(expected: &Recording) -> Vec<Case<'_>> {
    let mut out = Vec::new();
    for c in &expected.get_block {
        let what = format!("getBlock {} {}", c.slot, json!(c.config));
        out.push(Case {
            method: "getBlock",
            params: json!([c.slot, config(json!(c.config))]),
            expected: recorded(c.answer(), &what),
            what,
        });
    }
    for c in &expected.get_transaction {
        let what = format!("getTransaction {} {}", c.signature, json!(c.config));
        out.push(Case {
            method: "getTransaction",
            params: json!([c.signature, config(json!(c.config))]),
            expected: recorded(c.answer(), &what),
            what,
        });
    }
    for c in &expected.get_signatures_for_address {
        let what = format!("getSignaturesForAddress {} {}", c.address, json!(c.config));
        out.push(Case {
            method: "getSignaturesForAddress",
            params: json!([c.address, config(json!(c.config))]),
            expected: recorded(c.answer(), &what),
            what,
        });
    }
    for c in &expected.get_signature_statuses {
        // Only `value` is compared (the context slot is the node's).
        out.push(Case {
            method: "getSignatureStatuses",
            params: json!([c.signatures, config(json!(c.config))]),
            expected: recorded(c.answer(), "getSignatureStatuses"),
            what: "getSignatureStatuses".into(),
        });
    }
    out
}

/// Sends every recorded request through `call` and fails, listing the first differences,
/// unless every answer equals Agave's (and the recording holds at least 800 requests).
pub(super) fn assert_all_equal(expected: &Recording, call: impl Fn(&str, Value) -> Value) {
    let (checked, mismatches) = run(expected, call);
    assert!(
        checked > 800,
        "the recording holds every request ({checked})"
    );
    assert!(
        mismatches.is_empty(),
        "{} of {checked} answers differ from Agave's:\n{}",
        mismatches.len(),
        mismatches
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Sends every case through `call` (method, params → whole response) and returns one line
/// per mismatch, with the number of cases checked.
pub(super) fn run(
    expected: &Recording,
    call: impl Fn(&str, Value) -> Value,
) -> (usize, Vec<String>) {
    let cases = cases(expected);
    let mut mismatches = Vec::new();
    for case in &cases {
        let response = call(case.method, case.params.clone());
        let mut have_result = response.get("result").unwrap_or(&Value::Null);
        if case.method == "getSignatureStatuses" {
            have_result = &have_result["value"];
        }
        let verdict = match (case.expected, response.get("error")) {
            (Answer::Error(want), Some(have)) => (want["code"] == have["code"]
                && want["message"] == have["message"])
                .then_some(())
                .ok_or_else(|| format!("error {have} instead of {want}")),
            (Answer::Error(want), None) => {
                Err(format!("answered {have_result} instead of error {want}"))
            }
            (Answer::Result(_), Some(have)) => Err(format!("error {have} instead of a result")),
            (Answer::Result(want), None) => (want == have_result)
                .then_some(())
                .ok_or_else(|| first_difference(want, have_result, "result")),
        };
        if let Err(why) = verdict {
            mismatches.push(format!("{}: {why}", case.what));
        }
    }
    (cases.len(), mismatches)
}

/// A bstore server on 127.0.0.1 over the ledger at `ledger`, opened read-only.
pub(super) fn serve_read_only(ledger: &Path) -> RpcServer {
    let store = Blockstore::open(ledger, AccessMode::ReadOnly).expect("opens");
    let config = RpcConfig {
        addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        ..RpcConfig::default()
    };
    RpcServer::start(Arc::new(store), config).expect("server starts")
}

/// The path and values of the first place two JSON values differ.
pub(super) fn first_difference(want: &Value, have: &Value, path: &str) -> String {
    match (want, have) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in a {
                match b.get(k) {
                    None => return format!("{path}.{k} missing (Agave: {v})"),
                    Some(w) if w != v => return first_difference(v, w, &format!("{path}.{k}")),
                    _ => {}
                }
            }
            if let Some(k) = b.keys().find(|k| !a.contains_key(*k)) {
                return format!("{path}.{k} extra ({})", b[k]);
            }
            format!("{path}: differs")
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (v, w)) in a.iter().zip(b).enumerate() {
                if v != w {
                    return first_difference(v, w, &format!("{path}[{i}]"));
                }
            }
            format!("{path}: differs")
        }
        _ => format!("{path}: {have} instead of {want}"),
    }
}
