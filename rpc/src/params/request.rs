//! The JSON-RPC 2.0 envelope over one HTTP body, parsed without running anything: a single
//! request or a batch, each item a call or the error that replaces it. Written here rather
//! than taken from a framework so that every error code is the one Solana clients expect
//! (frameworks reuse codes such as -32007 that Solana gives another meaning), and every
//! envelope error is the one Agave's RPC gives (its `jsonrpc-core`; checked against a
//! running 4.4.0 validator, `rpc/tests/it/errors_and_limits.rs`):
//!
//! - a body that is not JSON, or holds (or is a batch holding) anything but request
//!   objects whose `id`, if any, is null, a string or an integer in 0..2^64 and comes
//!   once: `Parse error` (-32700, null id), for the whole body;
//! - an object with a member other than `jsonrpc`, `method`, `params` and `id`, any
//!   member sent twice, a `method` that is not a string, `params` that are neither an
//!   array, an object nor null, or a `jsonrpc` other than "2.0" (absent or null aside):
//!   `Invalid request` (-32600) with the object's id (null without one), no `data`;
//! - a call whose `jsonrpc` is absent or null: -32600 `Unsupported JSON-RPC protocol
//!   version`, in a response without a `jsonrpc` member;
//! - a notification (no `id`): nothing runs and nothing is answered; a body of nothing
//!   else (an empty batch too) gets an empty answer.
//!
//! This module and [`crate::params::args`] build without the `server` feature: they are what the
//! `jsonrpc_request` fuzz target exercises. Parsing is linear in the body: one serde_json
//! pass, then a walk over the batch items.

use serde_json::Value;

use crate::error::RpcError;
use crate::params::members::{Body, Members};

/// One parsed request, or the error that replaces it.
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// A well-formed call, to be run.
    Call {
        /// The id its answer carries.
        id: Value,
        /// The method name, not yet checked against the known ones.
        method: String,
        /// The params as sent: an array, an object or null (`None`: absent).
        params: Option<Value>,
    },
    /// An object that is not a valid request: answered with `Invalid request`.
    Invalid {
        /// The object's id, null without one.
        id: Value,
    },
    /// A call without a `jsonrpc` member (or with a null one): answered with
    /// [`RpcError::UnsupportedVersion`], in a response without `jsonrpc`
    /// ([`unversioned_error_text`]).
    Unversioned {
        /// The call's id.
        id: Value,
    },
    /// A notification: nothing runs, nothing is answered (Agave runs no method for one).
    Notification,
}

/// A whole body.
#[derive(Debug)]
pub enum Envelope {
    /// A body holding one request object.
    Single(Request),
    /// Never longer than the batch limit; empty for an empty batch (nothing is answered).
    Batch(Vec<Request>),
    /// The body as a whole is refused: one error response with a null id.
    Refused(RpcError),
}

/// An id Agave's RPC takes: null, a string, or an integer it holds as a u64.
fn usable_id(id: &Value) -> bool {
    match id {
        Value::Null | Value::String(_) => true,
        Value::Number(n) => n.is_u64(),
        _ => false,
    }
}

/// Sorts one request object; `None` when it can be no request at all (the whole body is
/// then a parse error).
pub fn request(members: Members) -> Option<Request> {
    let Members {
        map: mut obj,
        repeated,
    } = members;
    let id = match obj.remove("id") {
        Some(id) if !usable_id(&id) || repeated.id => return None,
        id => id,
    };
    let shown_id = id.clone().unwrap_or(Value::Null);
    // `Some(true)`: "2.0"; `Some(false)`: absent or null; `None`: anything else.
    let versioned = match obj.remove("jsonrpc") {
        None | Some(Value::Null) => Some(false),
        Some(Value::String(v)) if v == "2.0" => Some(true),
        Some(_) => None,
    };
    let method = match obj.remove("method") {
        Some(Value::String(m)) => Some(m),
        _ => None,
    };
    let params = obj.remove("params");
    let params_ok = params
        .as_ref()
        .is_none_or(|p| p.is_array() || p.is_object() || p.is_null());
    // What is left is a member no request has.
    let (Some(versioned), Some(method), true, true, false) =
        (versioned, method, params_ok, obj.is_empty(), repeated.other)
    else {
        return Some(Request::Invalid { id: shown_id });
    };
    Some(match (id, versioned) {
        (None, _) => Request::Notification,
        (Some(id), false) => Request::Unversioned { id },
        (Some(id), true) => Request::Call { id, method, params },
    })
}

/// The whole body's parse error when an item is no request object.
fn not_a_request() -> RpcError {
    RpcError::Parse {
        reason: "not a JSON-RPC request object".into(),
    }
}

/// Parses one HTTP body into its requests.
pub fn parse_body(body: &[u8], max_batch: usize) -> Envelope {
    let body: Body = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(e) => {
            return Envelope::Refused(RpcError::Parse {
                reason: e.to_string(),
            });
        }
    };
    match body {
        Body::Batch(items) if items.len() > max_batch => {
            Envelope::Refused(RpcError::BatchTooLarge {
                len: items.len(),
                max: max_batch,
            })
        }
        Body::Batch(items) => {
            let sorted = items.into_iter().map(|item| match item {
                Body::Object(members) => request(members),
                Body::Batch(_) | Body::Other => None,
            });
            match sorted.collect() {
                Some(requests) => Envelope::Batch(requests),
                None => Envelope::Refused(not_a_request()),
            }
        }
        Body::Object(members) => match request(members) {
            Some(request) => Envelope::Single(request),
            None => Envelope::Refused(not_a_request()),
        },
        Body::Other => Envelope::Refused(not_a_request()),
    }
}

/// The text before a result: `{"jsonrpc":"2.0","result":`.
pub const RESULT_PREFIX: &str = "{\"jsonrpc\":\"2.0\",\"result\":";

/// The text after a result: `,"id":<id>}`.
pub fn result_suffix(id: &Value) -> String {
    format!(",\"id\":{}}}", id_text(id))
}

fn id_text(id: &Value) -> String {
    // Ids are null, numbers or strings (checked by `request`): always serializable.
    serde_json::to_string(id).unwrap_or_else(|_| "null".into())
}

/// One error response object as text.
pub fn error_text(id: &Value, error: &RpcError) -> String {
    format!(
        "{{\"jsonrpc\":\"2.0\",\"error\":{},\"id\":{}}}",
        error.to_json(),
        id_text(id)
    )
}

/// The response to a call without a `jsonrpc` member: Agave's has none either.
pub fn unversioned_error_text(id: &Value) -> String {
    format!(
        "{{\"error\":{},\"id\":{}}}",
        RpcError::UnsupportedVersion.to_json(),
        id_text(id)
    )
}

/// An error response with a null id (bad body, oversized body, bad batch).
pub fn error_response(error: &RpcError) -> String {
    error_text(&Value::Null, error)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn envelopes() {
        let refused = |body: &[u8]| matches!(parse_body(body, 10), Envelope::Refused(e) if e.code() == -32700);
        assert!(refused(b"{"));
        // Anything but request objects, and ids Agave cannot hold, refuse the whole body.
        for body in [
            "42",
            "\"a string\"",
            "[1]",
            r#"[{"jsonrpc":"2.0","id":1,"method":"getSlot"},5]"#,
            r#"{"jsonrpc":"2.0","id":-5,"method":"getSlot"}"#,
            r#"{"jsonrpc":"2.0","id":1.5,"method":"getSlot"}"#,
            r#"{"jsonrpc":"2.0","id":18446744073709551616,"method":"getSlot"}"#,
            r#"{"jsonrpc":"2.0","id":true,"method":"getSlot"}"#,
            r#"{"jsonrpc":"2.0","id":[1],"method":"getSlot"}"#,
            r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"getSlot"}"#,
            r#"[{"jsonrpc":"2.0","id":1,"id":1,"method":"getSlot"}]"#,
        ] {
            assert!(refused(body.as_bytes()), "{body}");
        }
        assert!(matches!(parse_body(b"[]", 10), Envelope::Batch(items) if items.is_empty()));
        assert!(matches!(
            parse_body(b"[1,2,3]", 2),
            Envelope::Refused(RpcError::BatchTooLarge { len: 3, max: 2 })
        ));
        let body = br#"[{"jsonrpc":"2.0","id":7,"method":"getSlot"},{"jsonrpc":"2.0","method":"x"},{"jsonrpc":"2.0","id":"q"}]"#;
        let Envelope::Batch(items) = parse_body(body, 10) else {
            panic!("a batch");
        };
        assert_eq!(
            items,
            [
                Request::Call {
                    id: json!(7),
                    method: "getSlot".into(),
                    params: None
                },
                Request::Notification,
                Request::Invalid { id: json!("q") },
            ]
        );
        // Invalid objects keep their id; a call without a version is answered as such, a
        // notification without one is not.
        for (body, expected) in [
            (
                r#"{"jsonrpc":"1.0","id":3,"method":"getSlot"}"#,
                Request::Invalid { id: json!(3) },
            ),
            (
                r#"{"jsonrpc":2.0,"id":3,"method":"getSlot"}"#,
                Request::Invalid { id: json!(3) },
            ),
            (
                r#"{"jsonrpc":"2.0","id":3,"method":7}"#,
                Request::Invalid { id: json!(3) },
            ),
            (
                r#"{"jsonrpc":"2.0","id":3}"#,
                Request::Invalid { id: json!(3) },
            ),
            (
                r#"{"jsonrpc":"2.0","id":3,"method":"getSlot","params":5}"#,
                Request::Invalid { id: json!(3) },
            ),
            (
                r#"{"jsonrpc":"2.0","id":3,"method":"getSlot","extra":1}"#,
                Request::Invalid { id: json!(3) },
            ),
            (
                r#"{"jsonrpc":"1.0","method":"getSlot"}"#,
                Request::Invalid { id: Value::Null },
            ),
            (
                r#"{"jsonrpc":"2.0","id":3,"method":"getSlot","params":[],"params":[]}"#,
                Request::Invalid { id: json!(3) },
            ),
            (
                r#"{"method":"getSlot","method":"getSlot"}"#,
                Request::Invalid { id: Value::Null },
            ),
            (
                r#"{"jsonrpc":"2.0","method":"getSlot","extra":1}"#,
                Request::Invalid { id: Value::Null },
            ),
            (
                r#"{"id":3,"method":"getSlot"}"#,
                Request::Unversioned { id: json!(3) },
            ),
            (
                r#"{"jsonrpc":null,"id":"a","method":"getSlot"}"#,
                Request::Unversioned { id: json!("a") },
            ),
            (r#"{"method":"getSlot"}"#, Request::Notification),
            (
                r#"{"jsonrpc":"2.0","id":18446744073709551615,"method":"getSlot","params":null}"#,
                Request::Call {
                    id: json!(u64::MAX),
                    method: "getSlot".into(),
                    params: Some(Value::Null),
                },
            ),
        ] {
            let Envelope::Single(request) = parse_body(body.as_bytes(), 10) else {
                panic!("{body}: one request");
            };
            assert_eq!(request, expected, "{body}");
        }
        let text = unversioned_error_text(&json!(3));
        let v: Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(
            v,
            json!({"error": {"code": -32600, "message": "Unsupported JSON-RPC protocol version"}, "id": 3})
        );
        let text = format!("{RESULT_PREFIX}1{}", result_suffix(&json!("a")));
        let v: Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(v, json!({"jsonrpc": "2.0", "result": 1, "id": "a"}));
    }
}
