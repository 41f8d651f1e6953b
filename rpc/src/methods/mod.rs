//! The methods, by name. `getBlock` runs on the fetch workers; the other ledger methods
//! are short reads and scans, run on Tokio's blocking pool; node methods answer inline.

pub mod block;
mod node;
mod slots;

use std::sync::Arc;

use bstore_ledger::store::Blockstore;
use serde_json::Value;

use crate::error::RpcError;
use crate::params::Params;
use crate::workers::FetchWorkers;

/// What every method may use.
#[derive(Debug)]
pub struct Ctx {
    pub store: Arc<Blockstore>,
    pub workers: FetchWorkers,
}

/// A ledger method that reads a little and answers a small JSON value.
type SlotMethod = fn(&Blockstore, &Params) -> Result<Value, RpcError>;

fn slot_method(method: &str) -> Option<SlotMethod> {
    Some(match method {
        "getBlocks" => slots::get_blocks,
        "getBlocksWithLimit" => slots::get_blocks_with_limit,
        "getBlockTime" => slots::get_block_time,
        "getBlockHeight" => slots::get_block_height,
        "getFirstAvailableBlock" => slots::get_first_available_block,
        "getSlot" => slots::get_slot,
        "getMaxShredInsertSlot" => slots::get_max_shred_insert_slot,
        _ => return None,
    })
}

/// Calls `method`; the result is JSON text (the `result` member of the response).
pub async fn call(ctx: &Ctx, method: &str, params: Option<Value>) -> Result<String, RpcError> {
    let known = method == "getBlock"
        || method == "getHealth"
        || method == "getVersion"
        || slot_method(method).is_some();
    if !known {
        return Err(RpcError::MethodNotFound {
            method: method.to_string(),
        });
    }
    let params = Params::new(params)?;
    if method == "getBlock" {
        return block::get_block(ctx, params).await;
    }
    let value = match (method, slot_method(method)) {
        (_, Some(f)) => {
            let store = Arc::clone(&ctx.store);
            tokio::task::spawn_blocking(move || f(&store, &params))
                .await
                .map_err(|e| RpcError::Internal {
                    reason: format!("{method} failed: {e}"),
                })??
        }
        ("getHealth", None) => node::get_health(&params)?,
        _ => node::get_version(&params)?,
    };
    serde_json::to_string(&value).map_err(|e| RpcError::Internal {
        reason: e.to_string(),
    })
}
