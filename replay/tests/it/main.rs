//! The integration tests of replay, one binary (one link of RocksDB): each module is one
//! scenario.

mod alpenglow_blocks;
mod common;
mod data_sets_signatures_once;
mod data_sets_v1_transactions;
mod evicted_parent_read_back;
mod evicted_parent_refused;
mod follow_bounded_state;
mod follow_streaming;
mod parent_dead_or_unknown;
mod replay_stats_influx;
mod testnet_flipped_hash_dead;
mod testnet_hash_limit_dead;
mod testnet_missing_shred_dead;
mod testnet_pooled_replay;
mod testnet_slot_replays;
mod tick_rules_dead;
