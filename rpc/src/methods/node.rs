//! `getHealth` and `getVersion`.

use serde_json::{Value, json};

use crate::error::RpcError;
use crate::params::Params;

/// Always `"ok"`: the server answers from its ledger whatever the cluster does (bstore has
/// no view of the cluster tip to be "behind" of).
pub fn get_health(params: &Params) -> Result<Value, RpcError> {
    params.at_most(0)?;
    Ok(json!("ok"))
}

/// `{"solana-core": <bstore version>}`. Agave also sends `feature-set`; bstore runs no
/// feature set, and clients treat the member as optional.
pub fn get_version(params: &Params) -> Result<Value, RpcError> {
    params.at_most(0)?;
    Ok(json!({ "solana-core": env!("CARGO_PKG_VERSION") }))
}
