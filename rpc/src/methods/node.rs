//! `getHealth` and `getVersion` (their params were checked by [`crate::params::args::Call`]).

use serde_json::{Value, json};

/// `"ok"`: the server answers from its ledger whatever the cluster does (bstore has no view
/// of the cluster tip to be "behind" of). A server whose view of a live ledger stopped
/// following the writer answers an error instead (`transport/catch_up.rs`), before this.
pub(super) fn get_health() -> Value {
    json!("ok")
}

/// `{"solana-core": <bstore version>}`. Agave also sends `feature-set`; bstore runs no
/// feature set, and clients treat the member as optional.
pub(super) fn get_version() -> Value {
    json!({ "solana-core": env!("CARGO_PKG_VERSION") })
}
