//! The integration tests of bstore, one binary (one link of RocksDB): each module is one
//! scenario.

mod archive_cluster_faults;
mod archive_cluster_interrupt;
mod archive_cluster_purged;
mod archive_cluster_serve;
mod archive_support;
mod cli_bench_ledger;
mod cli_ledger;
mod cli_ledger_tool;
mod cli_purge;
mod cli_purge_history;
mod cli_replay;
mod cli_serve;
mod cli_shreds;
mod common;
