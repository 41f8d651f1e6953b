//! Per-slot replay statistics (`docs/consumers.md#replay`), the `replay-slot-stats` datapoint, and
//! the
//! `replay-slot-dead` error datapoint.
//!
//! Times are µs, summed over the slot's fetch calls:
//! - `fetch_entries_time` / `fetch_entries_fail_time`: inside fetch calls that succeeded /
//!   failed (every call, including those that found nothing new);
//! - `entry_poh_verification_time`: PoH hash chain plus tick rules;
//! - `replay_time`: inside the executor;
//! - `confirmation_time_us`: whole calls (fetch + PoH + execute);
//! - `replay_total_elapsed`: wall time from the slot's first fetch call to its end,
//!   including the waits for shreds still on their way.

use bstore_ledger::Slot;
use bstore_metrics::{DataPoint, MetricsAgent, create_datapoint};
use log::Level;
use serde::Serialize;
use std::sync::Arc;

use crate::driver::DeadSlots;
use crate::error::ReplayError;

/// The measurement name of the per-slot statistics.
pub const REPLAY_SLOT_STATS: &str = "replay-slot-stats";
/// The measurement name of a slot marked dead.
pub const REPLAY_SLOT_DEAD: &str = "replay-slot-dead";

/// Statistics of one replayed slot, with the `docs/consumers.md#replay` field names (the JSON and
/// datapoint
/// names are the field names).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SlotStats {
    /// The replayed slot.
    pub slot: u64,
    /// µs inside fetch calls that succeeded (including those that found nothing new).
    pub fetch_entries_time: u64,
    /// µs inside fetch calls that failed.
    pub fetch_entries_fail_time: u64,
    /// µs verifying the PoH hash chain and the tick rules.
    pub entry_poh_verification_time: u64,
    /// µs of whole replay calls: fetch, PoH and execution.
    pub confirmation_time_us: u64,
    /// µs inside the executor.
    pub replay_time: u64,
    /// µs of wall time from the slot's first fetch call to its end, waits for shreds included.
    pub replay_total_elapsed: u64,
    /// Fetch calls that returned entries.
    pub num_execute_batches: u64,
    /// Entries replayed, ticks included.
    pub total_entries: u64,
    /// Transactions replayed.
    pub total_transactions: u64,
    /// Data shreds the replayed entries came from.
    pub total_shreds: u64,
    /// µs of each fetch call that returned data sets, in order (for latency percentiles;
    /// not part of the datapoint).
    #[serde(skip)]
    pub fetch_calls_us: Vec<u64>,
}

impl SlotStats {
    /// Empty statistics for `slot`.
    pub fn new(slot: Slot) -> Self {
        Self {
            slot: slot.0,
            ..Self::default()
        }
    }

    /// The `replay-slot-stats` point.
    pub fn to_datapoint(&self) -> DataPoint {
        create_datapoint!(
            @point REPLAY_SLOT_STATS,
            ("slot", self.slot, i64),
            ("fetch_entries_time", self.fetch_entries_time, i64),
            ("fetch_entries_fail_time", self.fetch_entries_fail_time, i64),
            ("entry_poh_verification_time", self.entry_poh_verification_time, i64),
            ("confirmation_time_us", self.confirmation_time_us, i64),
            ("replay_time", self.replay_time, i64),
            ("replay_total_elapsed", self.replay_total_elapsed, i64),
            ("num_execute_batches", self.num_execute_batches, i64),
            ("total_entries", self.total_entries, i64),
            ("total_transactions", self.total_transactions, i64),
            ("total_shreds", self.total_shreds, i64),
        )
    }
}

/// The `replay-slot-dead` point: the slot, why (a `reason` tag with
/// [`ReplayError::kind`]), whether the blockstore flag was set (a `marked` tag), and the
/// full message.
pub fn dead_slot_datapoint(error: &ReplayError, dead_slots: DeadSlots) -> DataPoint {
    let marked = match dead_slots {
        DeadSlots::Mark => "true",
        DeadSlots::Report => "false",
    };
    create_datapoint!(
        @point REPLAY_SLOT_DEAD,
        "reason" => error.kind(),
        "marked" => marked,
        ("slot", error.slot().0, i64),
        ("error", error.to_string(), String),
    )
}

/// Where replay sends its datapoints.
#[derive(Debug, Clone, Default)]
pub enum MetricsSink {
    /// The process-wide agent (`SOLANA_METRICS_CONFIG` / `BSTORE_METRICS_FILE`); a no-op when
    /// none is configured.
    #[default]
    Global,
    /// A given agent (tests, embedding).
    Agent(Arc<MetricsAgent>),
    /// Nowhere: the statistics are only returned.
    Off,
}

impl MetricsSink {
    /// Submits `point`. Replay's points are its product, so they are sent whatever the `log`
    /// level (unlike the `datapoint_*!` macros, which need a logger enabled at their level).
    pub fn submit(&self, point: DataPoint, level: Level) {
        match self {
            Self::Global => bstore_metrics::submit(point, level),
            Self::Agent(agent) => agent.submit(point, level),
            Self::Off => {}
        }
    }
}

/// Percentiles of a set of latencies (µs).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Latency {
    /// Number of latencies measured (0: the percentiles are 0).
    pub count: usize,
    /// Median, in µs.
    pub p50: u64,
    /// 99th percentile, in µs.
    pub p99: u64,
    /// Largest, in µs.
    pub max: u64,
}

impl Latency {
    /// Nearest-rank percentiles of `samples` (sorted in place); all zero when empty.
    pub fn of(samples: &mut [u64]) -> Self {
        samples.sort_unstable();
        let rank = |p: usize| -> u64 {
            let n = samples.len();
            if n == 0 {
                return 0;
            }
            // Nearest rank: ceil(p/100 · n), 1-based.
            let r = (p * n).div_ceil(100).clamp(1, n);
            samples.get(r - 1).copied().unwrap_or(0)
        };
        Self {
            count: samples.len(),
            p50: rank(50),
            p99: rank(99),
            max: samples.last().copied().unwrap_or(0),
        }
    }
}

#[cfg(test)]
mod tests {
    use bstore_metrics::FieldValue;

    use super::*;

    #[test]
    fn datapoint_carries_every_spec_field() {
        let mut stats = SlotStats::new(Slot(7));
        stats.fetch_entries_time = 11;
        stats.total_shreds = 320;
        let p = stats.to_datapoint();
        let names: Vec<&str> = p.fields.iter().map(|(n, _)| n.as_ref()).collect();
        assert_eq!(
            names,
            [
                "slot",
                "fetch_entries_time",
                "fetch_entries_fail_time",
                "entry_poh_verification_time",
                "confirmation_time_us",
                "replay_time",
                "replay_total_elapsed",
                "num_execute_batches",
                "total_entries",
                "total_transactions",
                "total_shreds",
            ]
        );
        assert_eq!(p.field("total_shreds"), Some(&FieldValue::I64(320)));
        assert_eq!(p.name, REPLAY_SLOT_STATS);
        let json = serde_json::to_value(&stats).expect("json");
        assert_eq!(json["fetch_entries_time"], 11);
        assert!(json.get("fetch_calls_us").is_none());
    }

    #[test]
    fn nearest_rank_percentiles() {
        let mut v: Vec<u64> = (1..=100).rev().collect();
        let l = Latency::of(&mut v);
        assert_eq!((l.count, l.p50, l.p99, l.max), (100, 50, 99, 100));
        assert_eq!(Latency::of(&mut []), Latency::default());
        assert_eq!(Latency::of(&mut [5]).p99, 5);
    }
}
