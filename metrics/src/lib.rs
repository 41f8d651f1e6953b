//! bstore-metrics: points and counters for InfluxDB dashboards, in the style of
//! `solana-metrics`, and per-slot charts for people without Grafana.
//!
//! Start reading at [`macros`] (how other crates report), then [`agent`] (the batching
//! thread and its limits), [`line_protocol`] (the wire format and its escaping) and
//! [`writer`] (HTTP, file, log, memory). [`query`] reads InfluxDB back; [`plot`] draws
//! per-slot SVG charts from InfluxDB or a line-protocol file.
//!
//! Producers call [`submit`] or the macros; the process-wide agent is configured by
//! `SOLANA_METRICS_CONFIG` (InfluxDB) or `BSTORE_METRICS_FILE` (line-protocol file), see
//! [`config`]. Call [`flush`] before exit, or [`set_panic_hook`] to flush on a panic.
//!
//! Datapoints, agent limits and escaping: `docs/metrics.md` in the repository.

pub mod agent;
pub mod config;
pub mod counter;
pub mod datapoint;
mod error;
mod global;
mod host;
pub mod line_protocol;
pub mod macros;
pub mod parse;
pub mod plot;
pub mod query;
pub mod writer;

pub use agent::{AgentOptions, AgentStats, HostId, MetricsAgent};
pub use config::{InfluxConfig, MetricsOutput};
pub use counter::{Counter, CounterPoint};
pub use datapoint::{DataPoint, FieldValue};
pub use error::MetricsError;
pub use global::{flush, init, set_global_agent, set_panic_hook, stats, submit, submit_counter};
pub use host::{default_host_id, host_id, set_host_id};
/// Re-exported for the macros, which check `log_enabled!` in the caller's module.
pub use log;
