//! `getHealth` and `getVersion` (their params were checked by [`crate::params::args::Call`]).

use serde_json::{Value, json};

/// Always `"ok"`: the server answers from its ledger whatever the cluster does (bstore has
/// no view of the cluster tip to be "behind" of).
pub(super) fn get_health() -> Value {
    json!("ok")
}

/// `{"solana-core": <bstore version>}`. Agave also sends `feature-set`; bstore runs no
/// feature set, and clients treat the member as optional.
pub(super) fn get_version() -> Value {
    json!({ "solana-core": env!("CARGO_PKG_VERSION") })
}
