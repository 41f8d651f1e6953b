//! The integration tests of metrics, one binary (one link of RocksDB): each module is one
//! scenario.

mod common;
mod dashboard_queries;
mod global_env_file;
mod global_env_influx;
mod influx_down_at_start;
mod influx_escaping;
mod influx_killed_mid_run;
mod influx_outage_bounded_memory;
mod influx_roundtrip_types;
mod influx_slow_server;
mod macros_global;
mod plot_from_influx;
