//! The integration tests of ledger, one binary (one link of RocksDB): each module is one
//! scenario.

mod common;
#[cfg(feature = "storage")]
mod damage_support;
mod deshred_real;
mod engine_conformance;
mod fetch_block_components;
mod fetch_block_frame;
mod fetch_block_reader;
mod fetch_block_state;
mod fetch_concurrent_readers;
mod fetch_corrupt_store;
mod fetch_find_transaction;
mod fetch_ranges_model;
mod fetch_real_random_order;
mod fetch_v1_transactions;
mod history_block_record;
mod model;
mod recovery_proptest;
mod recovery_real;
mod store_agave4_families;
mod store_agave4_rows;
mod store_agave4_rules;
mod store_agave_rows;
mod store_concurrent_readers;
mod store_crash;
mod store_damage_current;
mod store_damage_missing_sst;
mod store_damage_wal;
mod store_damage_wal_tail;
mod store_duplicates;
mod store_faults;
mod store_legacy_positionless;
mod store_merkle_checks;
mod store_merkle_memo;
mod store_model;
mod store_open_writes_no_table;
mod store_parent_info;
mod store_purge;
mod store_read_only_and_secondary;
mod store_recovery;
mod store_rejects;
mod store_reopen;
#[cfg(feature = "storage")]
mod store_support;
mod store_testdata_random_order;
