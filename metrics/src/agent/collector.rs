//! What the agent thread holds between writes, and how one write is assembled and accounted
//! for. No threads or clocks here, so every rule is unit-tested directly.
//!
//! Each write sends at most `limit` lines (the caller derives it from the rate limit and the
//! time since the last write): fresh points first (the live view operators watch), then
//! counters, then backlog lines from failed writes, oldest first, and last a `metrics` point
//! about the agent itself. Over the limit, counters are dropped before points, and points
//! of a less severe `log::Level` before more severe ones; backlog lines that do not fit stay
//! in the backlog. Everything is bounded: fresh points and counter buckets by `hold`, the
//! backlog by bytes, evicting oldest first. Every dropped line is counted and reported as
//! `points_lost`.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::sync::atomic::Ordering;

use log::Level;

use crate::MetricsError;
use crate::agent::stats::Stats;
use crate::counter::CounterPoint;
use crate::datapoint::DataPoint;
use crate::line_protocol::write_line;
use crate::writer::MetricsWriter;

/// Measurement of the agent's own point.
pub const SELF_MEASUREMENT: &str = "metrics";

#[derive(Debug)]
pub(crate) struct Collector {
    /// Most fresh points (and, separately, counter buckets) held between writes.
    hold: usize,
    max_backlog_bytes: usize,
    /// Fresh points by level, most severe first (`Level::Error as usize - 1` is 0).
    points: [Vec<DataPoint>; 5],
    /// Total length of `points`.
    points_len: usize,
    counters: HashMap<(&'static str, u64), CounterPoint>,
    /// Complete lines (with `\n`) whose write failed with a retryable error.
    backlog: VecDeque<String>,
    backlog_bytes: usize,
    /// Points and counter points collected since the last write.
    collected: usize,
    /// Lines dropped since the last write (for the `metrics` point; `stats` has the total).
    lost: usize,
    stats: Arc<Stats>,
}

impl Collector {
    pub(crate) fn new(hold: usize, max_backlog_bytes: usize, stats: Arc<Stats>) -> Self {
        Self {
            hold: hold.max(1),
            max_backlog_bytes,
            points: Default::default(),
            points_len: 0,
            counters: HashMap::new(),
            backlog: VecDeque::new(),
            backlog_bytes: 0,
            collected: 0,
            lost: 0,
            stats,
        }
    }

    fn lose(&mut self, n: usize) {
        self.lost += n;
        self.stats.lost.fetch_add(n as u64, Ordering::Relaxed);
    }

    /// Holds a point for the next write. When the write is already full, the point displaces
    /// a held point of a less severe level (the newest of the least severe), or is lost.
    pub(crate) fn add_point(&mut self, point: DataPoint, level: Level) {
        self.collected += 1;
        let index = level_index(level);
        if self.points_len >= self.hold {
            let victim = self
                .points
                .iter_mut()
                .skip(index + 1)
                .rev()
                .find(|v| !v.is_empty());
            match victim {
                Some(held) => {
                    held.pop();
                    self.points_len -= 1;
                }
                None => {
                    self.lose(1);
                    return;
                }
            }
            self.lose(1);
        }
        if let Some(held) = self.points.get_mut(index) {
            held.push(point);
            self.points_len += 1;
        }
    }

    pub(crate) fn add_counter(&mut self, point: CounterPoint) {
        self.collected += 1;
        let full = self.counters.len() >= self.hold;
        match self.counters.entry((point.name, point.bucket)) {
            std::collections::hash_map::Entry::Occupied(mut e) => {
                let sum = e.get().count.saturating_add(point.count);
                e.get_mut().count = sum;
            }
            std::collections::hash_map::Entry::Vacant(_) if full => self.lose(1),
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(point);
            }
        }
    }

    /// True while lines from failed writes wait for a retry.
    pub(crate) fn has_backlog(&self) -> bool {
        !self.backlog.is_empty()
    }

    pub(crate) fn is_idle(&self) -> bool {
        self.points_len == 0
            && self.counters.is_empty()
            && self.backlog.is_empty()
            && self.lost == 0
    }

    /// Assembles one batch of at most `limit` lines (the `metrics` point included), writes
    /// it and accounts for the outcome.
    pub(crate) fn write(
        &mut self,
        writer: &dyn MetricsWriter,
        host_id: &str,
        secs_since_last_write: u64,
        limit: usize,
    ) -> Result<(), MetricsError> {
        let channel_drops = self.stats.channel_drops.swap(0, Ordering::Relaxed);
        self.lose(usize::try_from(channel_drops).unwrap_or(usize::MAX));
        if self.is_idle() && self.collected == 0 {
            return Ok(());
        }
        let budget = limit.max(2) - 1;
        let mut batch = Batch {
            host_id,
            body: String::new(),
            starts: Vec::new(),
        };
        // Most severe level first, so what does not fit is the least severe.
        let mut over = 0;
        for p in self.points.iter_mut().flat_map(|held| held.drain(..)) {
            if batch.starts.len() < budget {
                batch.push(&p);
            } else {
                over += 1;
            }
        }
        self.points_len = 0;
        self.lose(over);
        let mut counters: Vec<CounterPoint> = self.counters.drain().map(|(_, c)| c).collect();
        counters.sort_unstable_by_key(|c| (c.timestamp_ns, c.name));
        let counter_room = budget.saturating_sub(batch.starts.len());
        self.lose(counters.len().saturating_sub(counter_room));
        for c in counters.iter().take(counter_room) {
            batch.push(&c.to_datapoint());
        }
        // Lines before this index are new; from it to the metrics point, retried backlog.
        let new_lines = batch.starts.len();
        let backlog_room = budget.saturating_sub(new_lines);
        for line in self.backlog.drain(..backlog_room.min(self.backlog.len())) {
            self.backlog_bytes -= line.len();
            batch.starts.push(batch.body.len());
            batch.body.push_str(&line);
        }
        let data_lines = batch.starts.len();

        let mut own = DataPoint::new(SELF_MEASUREMENT);
        own.add_field_u64("points_written", data_lines as u64)
            .add_field_u64("num_points", self.collected as u64)
            .add_field_u64("points_lost", self.lost as u64)
            .add_field_u64("points_buffered", self.backlog.len() as u64)
            .add_field_u64("secs_since_last_write", secs_since_last_write);
        batch.push(&own);
        self.lost = 0;
        self.collected = 0;

        let Batch { body, starts, .. } = batch;
        let lines = starts.len();
        let result = writer.write(&body, lines);
        match &result {
            Ok(()) => {
                self.stats
                    .written
                    .fetch_add(lines as u64, Ordering::Relaxed);
            }
            Err(e) if e.is_retryable() => {
                self.stats.failed_writes.fetch_add(1, Ordering::Relaxed);
                // Keep the backlog oldest first, so eviction drops the oldest: retried lines
                // go back to the front, new lines and the metrics point to the back.
                let line = |i: usize| {
                    let start = starts.get(i).copied().unwrap_or(body.len());
                    let end = starts.get(i + 1).copied().unwrap_or(body.len());
                    body.get(start..end).unwrap_or_default().to_string()
                };
                let retried = new_lines..lines.saturating_sub(1);
                for i in retried.rev() {
                    let l = line(i);
                    self.backlog_bytes += l.len();
                    self.backlog.push_front(l);
                }
                for i in (0..new_lines).chain([lines.saturating_sub(1)]) {
                    let l = line(i);
                    self.backlog_bytes += l.len();
                    self.backlog.push_back(l);
                }
                self.evict_over_bound();
            }
            Err(_) => {
                self.stats.failed_writes.fetch_add(1, Ordering::Relaxed);
                self.lose(lines);
            }
        }
        self.stats
            .buffered
            .store(self.backlog.len() as u64, Ordering::Relaxed);
        result
    }

    /// Drops the oldest backlog lines until the backlog fits its byte bound.
    fn evict_over_bound(&mut self) {
        while self.backlog_bytes > self.max_backlog_bytes {
            let Some(line) = self.backlog.pop_front() else {
                break;
            };
            self.backlog_bytes -= line.len();
            self.lose(1);
        }
    }

    /// Lines lost at shutdown (the final write failed): counted, never silently.
    pub(crate) fn abandon(&mut self) -> usize {
        let n = self.backlog.len() + self.points_len + self.counters.len();
        self.lose(n);
        self.stats.buffered.store(0, Ordering::Relaxed);
        self.backlog.clear();
        self.backlog_bytes = 0;
        self.points.iter_mut().for_each(Vec::clear);
        self.points_len = 0;
        self.counters.clear();
        self.lost = 0;
        n
    }
}

/// Position of `level` in [`Collector::points`]: Error 0 .. Trace 4.
fn level_index(level: Level) -> usize {
    (level as usize).saturating_sub(1).min(4)
}

/// One body being assembled, with the byte offset where each line starts so a failed batch
/// can go back to the backlog line by line.
struct Batch<'a> {
    host_id: &'a str,
    body: String,
    starts: Vec<usize>,
}

impl Batch<'_> {
    fn push(&mut self, point: &DataPoint) {
        let at = self.body.len();
        if write_line(&mut self.body, point, Some(self.host_id)) {
            self.starts.push(at);
        }
    }
}

#[cfg(test)]
#[path = "collector_tests.rs"]
mod tests;
