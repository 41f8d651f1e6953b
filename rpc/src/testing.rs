//! The methods layer without the HTTP transport, over any storage engine: the same calls,
//! params parsing, worker pools and encoders the server runs, answered as the `result`
//! text the server would send. The crate's tests run one ledger on two engines through it
//! and compare the answers byte for byte. Hidden from the docs: not a supported API.

use std::sync::Arc;

use bstore_ledger::store::{Blockstore, KvEngine};
use serde_json::Value;

use crate::error::RpcError;
use crate::methods::{self, Ctx};
use crate::transport::limits::RpcConfig;
use crate::transport::server::methods_ctx;

/// The methods over one ledger, bounded by an [`RpcConfig`]'s limits (its addresses,
/// connection limits and catch-up are not used: there is no socket and no catch-up).
#[derive(Debug)]
pub struct Methods<E: KvEngine + 'static> {
    ctx: Ctx<E>,
}

impl<E: KvEngine + 'static> Methods<E> {
    /// Starts the worker pools over `store` (joined when this is dropped).
    pub fn new(store: &Arc<Blockstore<E>>, config: &RpcConfig) -> Result<Self, RpcError> {
        Ok(Self {
            ctx: methods_ctx(store, config, None)?,
        })
    }

    /// The `result` of `method` with `params` as JSON text, or the error the server would
    /// answer with. The work runs where the server would run it (the calling thread or a
    /// worker pool), so this must be awaited on a Tokio runtime.
    pub async fn answer(&self, method: &str, params: Option<Value>) -> Result<String, RpcError> {
        Ok(methods::call(&self.ctx, method, params).await?.text)
    }
}
