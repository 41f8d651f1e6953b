//! Retention: purging slot ranges (`purge.rs`: agave-ledger-tool's `purge` and Agave's
//! `--limit-ledger-size`), the purge that gives the space back on a full disk
//! (`purge_space.rs`), and the purge of the history rows keyed by signature or address
//! (`purge_history.rs`), which reads the purged slots back through the fetch path. It sits
//! above both the store and the fetch path: the store keeps the range primitives
//! (`store/purge.rs`) and the cleaned-up mark (`store/purged_ranges.rs`).

mod purge;
mod purge_history;
#[cfg(feature = "storage")]
mod purge_space;
