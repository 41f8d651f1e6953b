//! The differential check against Agave: every request recorded by `agave-interop history`
//! (Agave's own Blockstore and `solana-transaction-status` encoders over a ledger it wrote,
//! `docs/interop-agave-history.md`) is sent to a bstore server over the same ledger, and
//! the answer must equal Agave's value for value: the `result`, or the error's code and
//! message. Used by `rpc/tests/agave_history.rs` (the committed fixture, in CI) and the
//! interop suite (a fresh run of the tool).

use std::collections::HashMap;

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

/// Each recorded slot's transactions' first signatures, in block order, from Agave's own
/// `getBlock` answers with `transactionDetails: "signatures"`.
fn block_signatures(expected: &Value) -> HashMap<u64, Vec<Value>> {
    let mut out = HashMap::new();
    for c in expected["getBlock"].as_array().into_iter().flatten() {
        if let (Some(slot), Some(sigs)) = (c["slot"].as_u64(), c["result"]["signatures"].as_array())
        {
            out.insert(slot, sigs.clone());
        }
    }
    out
}

/// Agave 4.x adds `transactionIndex` (the transaction's position among its block's
/// transactions) to `getTransaction` and `getSignaturesForAddress` answers; a recording made
/// by Agave 3.1 lacks it. Where it is missing, it is filled in from Agave's own answer for
/// the same block in the same recording, so the check stays Agave's value for value. When
/// that recording has no list for the block (Agave answered its `getBlock` with `null`, as it
/// does for a block with a missing status), bstore's answer must still carry an integer
/// there ([`ANY_INDEX`]).
fn with_transaction_index(
    mut result: Value,
    slot: &Value,
    signature: &Value,
    blocks: &HashMap<u64, Vec<Value>>,
) -> Value {
    let Some(object) = result.as_object_mut() else {
        return result;
    };
    if object.contains_key("transactionIndex") {
        return result;
    }
    let index = slot
        .as_u64()
        .and_then(|slot| blocks.get(&slot))
        .and_then(|sigs| sigs.iter().position(|s| s == signature));
    let value = index.map_or_else(|| json!(ANY_INDEX), |i| json!(i));
    object.insert("transactionIndex".into(), value);
    result
}

/// Stands for "any integer" where the recording cannot tell the transaction's index.
const ANY_INDEX: &str = "<any transaction index>";

/// `want` with every [`ANY_INDEX`] replaced by the integer `have` holds at the same place.
fn resolve_any_index(want: &Value, have: &Value) -> Value {
    match (want, have) {
        (Value::String(s), Value::Number(n)) if s == ANY_INDEX && n.is_u64() => have.clone(),
        (Value::Object(a), Value::Object(b)) => Value::Object(
            a.iter()
                .map(|(k, v)| {
                    (
                        k.clone(),
                        b.get(k).map_or(v.clone(), |w| resolve_any_index(v, w)),
                    )
                })
                .collect(),
        ),
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => Value::Array(
            a.iter()
                .zip(b)
                .map(|(v, w)| resolve_any_index(v, w))
                .collect(),
        ),
        _ => want.clone(),
    }
}

fn cases(expected: &Value) -> Vec<Case> {
    let blocks = block_signatures(expected);
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
        let mut e = c.clone();
        if !e["result"].is_null() {
            e["result"] = with_transaction_index(
                e["result"].clone(),
                &e["result"]["slot"],
                &c["signature"],
                &blocks,
            );
        }
        out.push(Case {
            method: "getTransaction",
            params: json!([c["signature"], config(&c["config"])]),
            what: format!("getTransaction {} {}", c["signature"], c["config"]),
            expected: e,
        });
    }
    for c in expected["getSignaturesForAddress"]
        .as_array()
        .into_iter()
        .flatten()
    {
        let mut e = c.clone();
        if let Some(list) = e["result"].as_array_mut() {
            for item in list.iter_mut() {
                *item = with_transaction_index(
                    item.clone(),
                    &item["slot"],
                    &item["signature"],
                    &blocks,
                );
            }
        }
        out.push(Case {
            method: "getSignaturesForAddress",
            params: json!([c["address"], config(&c["config"])]),
            what: format!("getSignaturesForAddress {} {}", c["address"], c["config"]),
            expected: e,
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
pub fn assert_all_equal(expected: &Value, call: impl Fn(&str, Value) -> Value) {
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
pub fn run(expected: &Value, call: impl Fn(&str, Value) -> Value) -> (usize, Vec<String>) {
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
                let have = &got["result"];
                let want = &resolve_any_index(&case.expected["result"], have);
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
