//! The integration tests of rpc, one binary (one link of RocksDB): each module is one
//! scenario.

mod address_answers;
#[path = "common/agave_diff.rs"]
mod agave_diff;
mod agave_history;
mod agave_live;
mod archive_fallback;
mod block_answers;
mod bounded_work;
mod client_python;
mod client_web3js;
mod common;
mod confirmed_by_votes;
mod connection_limits;
mod engine_parity;
mod errors_and_limits;
mod get_block_encodings;
mod get_block_reader;
mod get_block_v1;
mod overload_and_secondary;
mod slot_methods;
mod status_cache_span;
