//! The integration tests of bstore, one binary (one link of RocksDB): each module is one
//! scenario.

mod archive_cluster_faults;
mod archive_cluster_interrupt;
mod archive_cluster_purged;
mod archive_cluster_serve;
mod archive_support;
mod cli_bench_insert;
mod cli_bench_ledger;
mod cli_damage_current;
mod cli_damage_missing_sst;
mod cli_damage_support;
mod cli_damage_wal;
mod cli_full_disk_orphans;
mod cli_full_disk_purge;
mod cli_generate_flushes;
mod cli_ledger;
mod cli_ledger_tool;
mod cli_purge;
mod cli_purge_history;
mod cli_replay;
mod cli_replay_access;
mod cli_replay_follow;
mod cli_serve;
mod cli_shreds;
mod common;
mod full_disk_support;
