//! Counters: a static per call site (see `inc_new_counter_*!`), whose increments reach the
//! agent as [`CounterPoint`]s and are summed there per time bucket, so a hot counter costs
//! one channel message per increment and one line per bucket.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::datapoint::{DataPoint, now_ns};

/// Default bucket width: counts within one second become one point.
pub const DEFAULT_BUCKET_MS: u64 = 1000;
/// Default: log the running total every this many increments.
pub const DEFAULT_LOG_RATE: u64 = 1000;

/// Increments of one counter, on their way to the agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CounterPoint {
    /// Measurement name.
    pub name: &'static str,
    /// Events counted since the counter's previous point.
    pub count: u64,
    /// When the first of these events was submitted (ns since the Unix epoch).
    pub timestamp_ns: i64,
    /// Time bucket (`timestamp / bucket width`); the agent sums points of one bucket.
    pub bucket: u64,
}

impl CounterPoint {
    /// The point written for a bucket: `name count=Ni <first timestamp>`.
    ///
    /// The first timestamp, not the bucket start, is used so a bucket split across two writes
    /// gives two distinct points instead of the second overwriting the first in InfluxDB.
    pub fn to_datapoint(&self) -> DataPoint {
        let mut p = DataPoint::new(self.name).at(self.timestamp_ns);
        p.add_field_u64("count", self.count);
        p
    }
}

/// A named event counter. Use through `inc_new_counter_info!` and friends, which keep one
/// `static Counter` per call site.
#[derive(Debug)]
pub struct Counter {
    /// Measurement name.
    pub name: &'static str,
    /// Events counted so far.
    counts: AtomicU64,
    /// Calls to [`Counter::inc`] so far.
    times: AtomicU64,
    /// `counts` when the last point was submitted.
    last_submitted: AtomicU64,
    /// Log the total every this many calls.
    log_rate: u64,
    /// Bucket width in ms.
    bucket_ms: u64,
}

impl Counter {
    /// A counter with the default bucket and log rate (`const` so it can be a `static`).
    pub const fn new(name: &'static str) -> Self {
        Self::with_rates(name, DEFAULT_LOG_RATE, DEFAULT_BUCKET_MS)
    }

    /// A counter logging every `log_rate` calls and bucketing by `bucket_ms` (0s become 1).
    pub const fn with_rates(name: &'static str, log_rate: u64, bucket_ms: u64) -> Self {
        Self {
            name,
            counts: AtomicU64::new(0),
            times: AtomicU64::new(0),
            last_submitted: AtomicU64::new(0),
            log_rate: if log_rate == 0 { 1 } else { log_rate },
            bucket_ms: if bucket_ms == 0 { 1 } else { bucket_ms },
        }
    }

    /// Events counted so far.
    pub fn count(&self) -> u64 {
        self.counts.load(Ordering::Relaxed)
    }

    /// Counts `events` and returns the point to submit, unless a racing thread already
    /// claimed these events in its point (every event is submitted exactly once).
    /// Every `log_rate` calls the running total is logged at `level`.
    pub fn record(&self, events: u64, level: log::Level) -> Option<CounterPoint> {
        let total = self.counts.fetch_add(events, Ordering::Relaxed) + events;
        let times = self.times.fetch_add(1, Ordering::Relaxed) + 1;
        if times.is_multiple_of(self.log_rate) && log::log_enabled!(level) {
            log::log!(
                level,
                "COUNTER:{{\"name\": \"{}\", \"counts\": {total}, \"times\": {times}}}",
                self.name
            );
        }
        // fetch_max hands each range of the running total to exactly one caller: whoever
        // raises the high-water mark claims the events between the old and the new mark.
        let last = self.last_submitted.fetch_max(total, Ordering::Relaxed);
        if total <= last {
            return None;
        }
        let timestamp_ns = now_ns();
        let ms = u64::try_from(timestamp_ns / 1_000_000).unwrap_or(0);
        Some(CounterPoint {
            name: self.name,
            count: total - last,
            timestamp_ns,
            bucket: ms / self.bucket_ms,
        })
    }

    /// Counts `events` and submits them to the global agent (logging the total at `level`
    /// every `log_rate` calls).
    pub fn inc(&self, level: log::Level, events: u64) {
        if let Some(point) = self.record(events, level) {
            crate::global::submit_counter(point);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_is_claimed_exactly_once() {
        static C: Counter = Counter::new("c");
        let claimed: u64 = std::thread::scope(|s| {
            let hs: Vec<_> = (0..4)
                .map(|_| {
                    s.spawn(|| {
                        (0..1000)
                            .filter_map(|_| C.record(3, log::Level::Info))
                            .map(|p| p.count)
                            .sum::<u64>()
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().expect("no panic")).sum()
        });
        assert_eq!(C.count(), 12_000);
        assert_eq!(claimed, 12_000);
        assert_eq!(C.record(0, log::Level::Info), None, "nothing left to claim");
    }

    #[test]
    fn point_is_named_count_at_first_timestamp() {
        let c = Counter::with_rates("events", 1, 1000);
        let p = c
            .record(5, log::Level::Info)
            .expect("first increment is claimed");
        assert_eq!(p.count, 5);
        assert_eq!(
            p.bucket,
            u64::try_from(p.timestamp_ns / 1_000_000_000).expect("after 1970")
        );
        let d = p.to_datapoint();
        assert_eq!(d.to_string(), format!("events count=5i {}", p.timestamp_ns));
    }
}
