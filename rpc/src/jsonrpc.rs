//! The JSON-RPC 2.0 envelope over one HTTP body: a single request or a batch, responses in
//! request order, nothing for notifications (requests without `id`). Written here rather
//! than taken from a framework so that every error code is the one Solana clients expect
//! (frameworks reuse codes such as -32007 that Solana gives another meaning).

use serde_json::Value;

use crate::error::RpcError;
use crate::methods::{Ctx, call};

/// One parsed request, or the error that replaces it (with the id, when it had one).
enum Item {
    Call {
        id: Option<Value>,
        method: String,
        params: Option<Value>,
    },
    Invalid {
        id: Value,
        error: RpcError,
    },
}

fn invalid(id: Value, reason: &str) -> Item {
    Item::Invalid {
        id,
        error: RpcError::InvalidRequest {
            reason: reason.to_string(),
        },
    }
}

/// Validates one request object.
fn item(v: Value) -> Item {
    let Value::Object(mut obj) = v else {
        return invalid(Value::Null, "a request must be a JSON object");
    };
    let id = match obj.remove("id") {
        None => None,
        Some(id @ (Value::Null | Value::Number(_) | Value::String(_))) => Some(id),
        Some(_) => return invalid(Value::Null, "\"id\" must be a string, a number or null"),
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
    Item::Call { id, method, params }
}

/// One response object as text.
fn response(id: &Value, outcome: Result<String, RpcError>) -> String {
    let id = serde_json::to_string(id).unwrap_or_else(|_| "null".into());
    match outcome {
        Ok(result) => format!("{{\"jsonrpc\":\"2.0\",\"result\":{result},\"id\":{id}}}"),
        Err(e) => format!(
            "{{\"jsonrpc\":\"2.0\",\"error\":{},\"id\":{id}}}",
            e.to_json()
        ),
    }
}

/// An error response with a null id (bad body, oversized body, bad batch).
pub fn error_response(error: RpcError) -> String {
    response(&Value::Null, Err(error))
}

/// Runs one item; `None` for a notification.
async fn run(ctx: &Ctx, item: Item) -> Option<String> {
    match item {
        Item::Invalid { id, error } => Some(response(&id, Err(error))),
        Item::Call { id, method, params } => {
            let outcome = call(ctx, &method, params).await;
            if let Err(e @ (RpcError::Ledger { .. } | RpcError::Internal { .. })) = &outcome {
                log::error!("{method}: {e}: {:?}", e.data());
            }
            id.map(|id| response(&id, outcome))
        }
    }
}

/// Handles one HTTP body; `None` when nothing is to be sent back (only notifications).
/// Batch items run one after another, so one batch holds at most one fetch worker.
pub async fn handle_body(ctx: &Ctx, body: &[u8], max_batch: usize) -> Option<String> {
    let value: Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(e) => {
            return Some(error_response(RpcError::Parse {
                reason: e.to_string(),
            }));
        }
    };
    match value {
        Value::Array(items) => {
            if items.is_empty() {
                return Some(error_response(RpcError::InvalidRequest {
                    reason: "empty batch".into(),
                }));
            }
            if items.len() > max_batch {
                return Some(error_response(RpcError::BatchTooLarge {
                    len: items.len(),
                    max: max_batch,
                }));
            }
            let mut out = Vec::with_capacity(items.len());
            for v in items {
                if let Some(r) = run(ctx, item(v)).await {
                    out.push(r);
                }
            }
            if out.is_empty() {
                return None;
            }
            Some(format!("[{}]", out.join(",")))
        }
        single => run(ctx, item(single)).await,
    }
}
