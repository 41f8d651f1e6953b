//! The JSON-RPC 2.0 envelope over one HTTP body, parsed without running anything: a single
//! request or a batch, each item a call or the error that replaces it. Written here rather
//! than taken from a framework so that every error code is the one Solana clients expect
//! (frameworks reuse codes such as -32007 that Solana gives another meaning).
//!
//! This module and [`crate::params::args`] build without the `server` feature: they are what the
//! `jsonrpc_request` fuzz target exercises. Parsing is linear in the body: one serde_json
//! pass, then a walk over the batch items.

use serde_json::Value;

use crate::error::RpcError;

/// One parsed request, or the error that replaces it (with the id, when it had one).
#[derive(Debug, Clone, PartialEq)]
pub enum Request {
    /// A well-formed request, to be run.
    Call {
        /// `None` for a notification (no answer is sent).
        id: Option<Value>,
        /// The method name, not yet checked against the known ones.
        method: String,
        /// The params as sent: an array, an object or null (`None`: absent).
        params: Option<Value>,
    },
    /// An item that is not a valid request: answered with an `Invalid request` error.
    Invalid {
        /// The id the answer carries: the item's id when it had a usable one, else null.
        id: Value,
        /// What is wrong with the item (sent as the error's `data`).
        error_reason: String,
    },
}

impl Request {
    /// The error of an invalid item.
    pub fn invalid_error(reason: &str) -> RpcError {
        RpcError::InvalidRequest {
            reason: reason.to_string(),
        }
    }
}

/// A whole body.
#[derive(Debug)]
pub enum Envelope {
    /// A body holding one request object.
    Single(Request),
    /// Never empty and never longer than the batch limit.
    Batch(Vec<Request>),
    /// The body as a whole is refused: one error response with a null id.
    Refused(RpcError),
}

fn invalid(id: Value, reason: &str) -> Request {
    Request::Invalid {
        id,
        error_reason: reason.to_string(),
    }
}

/// Validates one request object.
pub fn request(v: Value) -> Request {
    let Value::Object(mut obj) = v else {
        return invalid(Value::Null, "a request must be a JSON object");
    };
    // Integer ids only (as Agave's `Id`): a fraction or an integer beyond 64 bits is held as
    // an f64, whose text is not the one the client sent, so the answer could not be matched.
    let id = match obj.remove("id") {
        None => None,
        Some(id @ (Value::Null | Value::String(_))) => Some(id),
        Some(Value::Number(n)) if n.is_u64() || n.is_i64() => Some(Value::Number(n)),
        Some(_) => {
            return invalid(Value::Null, "\"id\" must be a string, an integer or null");
        }
    };
    let shown_id = id.clone().unwrap_or(Value::Null);
    if obj.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return invalid(shown_id, "\"jsonrpc\" must be \"2.0\"");
    }
    let method = match obj.remove("method") {
        Some(Value::String(m)) => m,
        _ => return invalid(shown_id, "\"method\" must be a string"),
    };
    let params = obj.remove("params");
    if let Some(p) = &params
        && !(p.is_array() || p.is_object() || p.is_null())
    {
        return invalid(shown_id, "\"params\" must be an array or an object");
    }
    Request::Call { id, method, params }
}

/// Parses one HTTP body into its requests.
pub fn parse_body(body: &[u8], max_batch: usize) -> Envelope {
    let value: Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(e) => {
            return Envelope::Refused(RpcError::Parse {
                reason: e.to_string(),
            });
        }
    };
    match value {
        Value::Array(items) if items.is_empty() => {
            Envelope::Refused(Request::invalid_error("empty batch"))
        }
        Value::Array(items) if items.len() > max_batch => {
            Envelope::Refused(RpcError::BatchTooLarge {
                len: items.len(),
                max: max_batch,
            })
        }
        Value::Array(items) => Envelope::Batch(items.into_iter().map(request).collect()),
        single => Envelope::Single(request(single)),
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
        assert!(matches!(parse_body(b"{", 10), Envelope::Refused(e) if e.code() == -32700));
        assert!(matches!(parse_body(b"[]", 10), Envelope::Refused(e) if e.code() == -32600));
        assert!(matches!(
            parse_body(b"[1,2,3]", 2),
            Envelope::Refused(RpcError::BatchTooLarge { len: 3, max: 2 })
        ));
        let body =
            br#"[{"jsonrpc":"2.0","id":7,"method":"getSlot"},{"jsonrpc":"2.0","method":"x"},5]"#;
        let Envelope::Batch(items) = parse_body(body, 10) else {
            panic!("a batch");
        };
        assert_eq!(
            items[0],
            Request::Call {
                id: Some(json!(7)),
                method: "getSlot".into(),
                params: None
            }
        );
        assert!(matches!(&items[1], Request::Call { id: None, .. }));
        assert!(matches!(
            &items[2],
            Request::Invalid {
                id: Value::Null,
                ..
            }
        ));
        // Found by the fuzz target: a 90-digit id came back as `4.444444444444444e89`.
        for id in ["1.5", "444444444444444444444444444444444444444444"] {
            let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"getSlot"}}"#);
            assert!(matches!(
                parse_body(body.as_bytes(), 10),
                Envelope::Single(Request::Invalid {
                    id: Value::Null,
                    ..
                })
            ));
        }
        let body = br#"{"jsonrpc":"2.0","id":-18446744073,"method":"getSlot"}"#;
        assert!(matches!(
            parse_body(body, 10),
            Envelope::Single(Request::Call { id: Some(_), .. })
        ));
        let text = format!("{RESULT_PREFIX}1{}", result_suffix(&json!("a")));
        let v: Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(v, json!({"jsonrpc": "2.0", "result": 1, "id": "a"}));
    }
}
