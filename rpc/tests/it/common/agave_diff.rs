//! The differential check against Agave: every request recorded by `agave-interop history`
//! (Agave's own Blockstore and `solana-transaction-status` encoders over a ledger it wrote,
//! `docs/interop-agave-history.md`) is sent to a bstore server over the same ledger, and
//! the answer must equal Agave's value for value: the `result`, or the error's code and
//! message. Used by `rpc/tests/agave_history.rs` (the committed fixture, recorded by Agave
//! 4.2.2, in CI) and the interop suite (a fresh run of the tool). Agave 4.x's answers carry
//! `transactionIndex` and `commissionBps` themselves.

use serde_json::{Map, Value, json};

/// One request and what Agave answered.
struct Case {
    method: &'static str,
    params: Value,
    what: String,
    expected: Value,
}

/// The config object as a request sends it: `null` members left out.
fn config(c: &Value) -> Value {
    let mut out = Map::new();
    for (k, v) in c.as_object().into_iter().flatten() {
        if !v.is_null() {
            out.insert(k.clone(), v.clone());
        }
    }
    Value::Object(out)
}

fn cases(expected: &Value) -> Vec<Case> {
    let mut out = Vec::new();
    for c in expected["getBlock"].as_array().into_iter().flatten() {
        out.push(Case {
            method: "getBlock",
            params: json!([c["slot"], config(&c["config"])]),
            what: format!("getBlock {} {}", c["slot"], c["config"]),
            expected: c.clone(),
        });
    }
    for c in expected["getTransaction"].as_array().into_iter().flatten() {
        out.push(Case {
            method: "getTransaction",
            params: json!([c["signature"], config(&c["config"])]),
            what: format!("getTransaction {} {}", c["signature"], c["config"]),
            expected: c.clone(),
        });
    }
    for c in expected["getSignaturesForAddress"]
        .as_array()
        .into_iter()
        .flatten()
    {
        out.push(Case {
            method: "getSignaturesForAddress",
            params: json!([c["address"], config(&c["config"])]),
            what: format!("getSignaturesForAddress {} {}", c["address"], c["config"]),
            expected: c.clone(),
        });
    }
    for c in expected["getSignatureStatuses"]
        .as_array()
        .into_iter()
        .flatten()
    {
        let mut e = c.clone();
        // Only `value` is compared (the context slot is the node's).
        e["result"] = c["value"].clone();
        out.push(Case {
            method: "getSignatureStatuses",
            params: json!([c["signatures"], config(&c["config"])]),
            what: "getSignatureStatuses".into(),
            expected: e,
        });
    }
    out
}

/// Sends every recorded request through `call` and fails, listing the first differences,
/// unless every answer equals Agave's (and the recording holds at least 800 requests).
pub(super) fn assert_all_equal(expected: &Value, call: impl Fn(&str, Value) -> Value) {
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
pub(super) fn run(expected: &Value, call: impl Fn(&str, Value) -> Value) -> (usize, Vec<String>) {
    let cases = cases(expected);
    let mut mismatches = Vec::new();
    for case in &cases {
        let response = call(case.method, case.params.clone());
        let got = if case.method == "getSignatureStatuses" {
            response
                .get("result")
                .map(|r| json!({"result": r["value"]}))
                .unwrap_or(response.clone())
        } else {
            response.clone()
        };
        let verdict = match (case.expected.get("error"), got.get("error")) {
            (Some(want), Some(have)) => (want["code"] == have["code"]
                && want["message"] == have["message"])
                .then_some(())
                .ok_or_else(|| format!("error {have} instead of {want}")),
            (Some(want), None) => Err(format!(
                "answered {} instead of error {want}",
                got["result"]
            )),
            (None, Some(have)) => Err(format!("error {have} instead of a result")),
            (None, None) => {
                let (want, have) = (&case.expected["result"], &got["result"]);
                (want == have)
                    .then_some(())
                    .ok_or_else(|| first_difference(want, have, "result"))
            }
        };
        if let Err(why) = verdict {
            mismatches.push(format!("{}: {why}", case.what));
        }
    }
    (cases.len(), mismatches)
}

/// The path and values of the first place two JSON values differ.
fn first_difference(want: &Value, have: &Value, path: &str) -> String {
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
