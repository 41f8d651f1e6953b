//! `MetricsAgent`: a background thread that receives points over a bounded channel, batches
//! them and writes every `write_frequency`.
//!
//! Producers never block: [`MetricsAgent::submit`] is a `try_send`, and a full channel counts
//! the point as lost. The thread only ever holds bounded state (see `collector`), so a server
//! that is down or slow costs counted drops, never unbounded memory or a stalled producer.

mod collector;
mod stats;

pub use collector::SELF_MEASUREMENT;
pub use stats::AgentStats;

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::thread::{JoinHandle, ThreadId};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, TrySendError};
use log::Level;

use crate::MetricsError;
use crate::counter::CounterPoint;
use crate::datapoint::DataPoint;
use crate::writer::MetricsWriter;
use collector::Collector;
use stats::Stats;

/// Which `host_id` tag an agent writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostId {
    /// The process-wide one ([`crate::host_id`], settable with [`crate::set_host_id`]), read
    /// at each write.
    Global,
    /// This one.
    Fixed(String),
}

/// Tuning of an agent. `Default` is the production setting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentOptions {
    /// Time between writes (default 10 s).
    pub write_frequency: Duration,
    /// Rate limit: a write carries at most this × the time since the previous write (at
    /// least `write_frequency`) lines (default 4000/s). Between writes the agent holds at
    /// most twice the nominal batch (`lines_per_write`) of fresh points, and as many
    /// counter buckets.
    pub max_points_per_sec: usize,
    /// Capacity of the producer channel; points beyond it are counted lost (default 32768).
    pub channel_capacity: usize,
    /// Bound on lines kept for retry while the server is unreachable (default 32 MiB).
    pub max_backlog_bytes: usize,
    /// The `host_id` tag.
    pub host_id: HostId,
}

impl Default for AgentOptions {
    fn default() -> Self {
        Self {
            write_frequency: Duration::from_secs(10),
            max_points_per_sec: 4000,
            channel_capacity: 32 * 1024,
            max_backlog_bytes: 32 << 20,
            host_id: HostId::Global,
        }
    }
}

impl AgentOptions {
    /// Lines per on-time write, the agent's own `metrics` point included (at least 2).
    pub fn lines_per_write(&self) -> usize {
        self.lines_for(self.write_frequency)
    }

    /// Lines a write may carry `elapsed` after the previous one (never less than on time).
    pub fn lines_for(&self, elapsed: Duration) -> usize {
        let secs = elapsed.max(self.write_frequency).as_secs_f64();
        // Saturating float-to-int cast: huge settings mean "no practical limit".
        ((self.max_points_per_sec as f64 * secs).ceil() as usize).max(2)
    }
}

enum Command {
    Point(DataPoint, Level),
    Counter(CounterPoint),
    Flush(Sender<Result<(), MetricsError>>),
    Shutdown,
}

/// The batching agent. Dropping it writes what it holds and joins its thread.
#[derive(Debug)]
pub struct MetricsAgent {
    sender: Sender<Command>,
    stats: Arc<Stats>,
    thread: Option<JoinHandle<()>>,
    thread_id: ThreadId,
}

impl MetricsAgent {
    /// Starts an agent writing to `writer`.
    pub fn new(
        writer: impl MetricsWriter + 'static,
        options: AgentOptions,
    ) -> Result<Self, MetricsError> {
        let (sender, receiver) = crossbeam_channel::bounded(options.channel_capacity.max(1));
        let stats = Arc::new(Stats::default());
        let thread_stats = Arc::clone(&stats);
        let thread = std::thread::Builder::new()
            .name("bstoreMetrics".into())
            .spawn(move || run(&receiver, &writer, &options, thread_stats))
            .map_err(|source| MetricsError::Spawn { source })?;
        let thread_id = thread.thread().id();
        Ok(Self {
            sender,
            stats,
            thread: Some(thread),
            thread_id,
        })
    }

    /// Queues `point` without blocking; a full channel counts it lost. `level` ranks it when a
    /// write is over its limit (less severe points are dropped first).
    pub fn submit(&self, point: DataPoint, level: Level) {
        self.send(Command::Point(point, level));
    }

    /// Queues counter increments without blocking.
    pub fn submit_counter(&self, point: CounterPoint) {
        self.send(Command::Counter(point));
    }

    fn send(&self, command: Command) {
        if let Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) =
            self.sender.try_send(command)
        {
            self.stats.channel_drops.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Writes everything queued before this call, and the backlog of earlier failed writes,
    /// in batches of at most the per-write limit, and waits for the writes. Returns the first
    /// write error, if any (retryable failures leave the lines in the backlog). Called on
    /// the agent's own thread (e.g. from a panic hook there), it returns at once.
    pub fn flush(&self) -> Result<(), MetricsError> {
        if std::thread::current().id() == self.thread_id {
            return Ok(());
        }
        let (reply, done) = crossbeam_channel::bounded(1);
        // A blocking send: a flush must not be dropped for a full channel.
        self.sender
            .send(Command::Flush(reply))
            .map_err(|_| MetricsError::AgentGone)?;
        done.recv().map_err(|_| MetricsError::AgentGone)?
    }

    /// Accounting since the agent started.
    pub fn stats(&self) -> AgentStats {
        self.stats.snapshot()
    }
}

impl Drop for MetricsAgent {
    fn drop(&mut self) {
        let _ = self.sender.send(Command::Shutdown);
        if let Some(thread) = self.thread.take()
            && thread.join().is_err()
        {
            log::error!("metrics agent thread panicked");
        }
    }
}

fn run(
    receiver: &Receiver<Command>,
    writer: &dyn MetricsWriter,
    options: &AgentOptions,
    stats: Arc<Stats>,
) {
    let hold = options.lines_per_write().saturating_mul(2);
    let mut collector = Collector::new(hold, options.max_backlog_bytes, stats);
    let mut clock = Clock {
        batch_taken: Instant::now(),
        next_write: Instant::now() + options.write_frequency,
    };
    let write = |collector: &mut Collector, clock: &mut Clock| {
        let host_id = match &options.host_id {
            HostId::Global => crate::host::host_id(),
            HostId::Fixed(id) => id.clone(),
        };
        let elapsed = clock.batch_taken.elapsed();
        clock.batch_taken = Instant::now();
        let result = collector.write(
            writer,
            &host_id,
            elapsed.as_secs(),
            options.lines_for(elapsed),
        );
        clock.next_write = Instant::now() + options.write_frequency;
        if let Err(e) = &result {
            log::warn!("metrics write failed: {e}");
        }
        result
    };
    // Flush and shutdown send everything held, in limit-sized batches back to back, until
    // nothing is left or a write fails. Each successful batch shrinks the backlog and adds
    // nothing to it, so this ends.
    let drain = |collector: &mut Collector, clock: &mut Clock| loop {
        let result = write(collector, clock);
        if result.is_err() || !collector.has_backlog() {
            return result;
        }
    };
    loop {
        match receiver.recv_deadline(clock.next_write) {
            Ok(Command::Point(point, level)) => collector.add_point(point, level),
            Ok(Command::Counter(point)) => collector.add_counter(point),
            Ok(Command::Flush(reply)) => {
                let _ = reply.send(drain(&mut collector, &mut clock));
            }
            Ok(Command::Shutdown) | Err(RecvTimeoutError::Disconnected) => {
                // Points queued behind the shutdown still count: take them, then write.
                for command in receiver.try_iter() {
                    match command {
                        Command::Point(point, level) => collector.add_point(point, level),
                        Command::Counter(point) => collector.add_counter(point),
                        Command::Flush(reply) => drop(reply),
                        Command::Shutdown => {}
                    }
                }
                if drain(&mut collector, &mut clock).is_err() {
                    let lost = collector.abandon();
                    log::warn!("metrics agent shut down with {lost} unsent lines");
                }
                return;
            }
            Err(RecvTimeoutError::Timeout) => {}
        }
        // Checked after every message so a steady stream cannot postpone writes.
        if Instant::now() >= clock.next_write {
            let _ = write(&mut collector, &mut clock);
        }
    }
}

/// The agent's two times: when the last batch was taken (the rate limit counts from there,
/// so time spent in a slow write raises the next batch's limit) and when the next periodic
/// write is due (`write_frequency` after the last write ended, so a slow server is not sent
/// a write per message).
struct Clock {
    batch_taken: Instant,
    next_write: Instant,
}

#[cfg(test)]
#[path = "agent_tests.rs"]
mod tests;
