//! Counters shared between the agent thread, producers and whoever asks for [`AgentStats`].

use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Debug, Default)]
pub(crate) struct Stats {
    pub(crate) written: AtomicU64,
    pub(crate) lost: AtomicU64,
    pub(crate) buffered: AtomicU64,
    pub(crate) failed_writes: AtomicU64,
    /// Points producers could not queue because the channel was full; folded into `lost`
    /// (and the next `metrics` point) by the agent at its next write.
    pub(crate) channel_drops: AtomicU64,
}

/// A snapshot of an agent's accounting since it started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AgentStats {
    /// Lines the writer accepted, including the agent's own `metrics` points.
    pub lines_written: u64,
    /// Points and lines dropped: channel full, over the per-write limit, evicted from the
    /// backlog, rejected by the server, or still unsent at shutdown.
    pub points_lost: u64,
    /// Lines held in the backlog for a retry.
    pub lines_buffered: u64,
    /// Writes that failed (retryable or not).
    pub failed_writes: u64,
}

impl Stats {
    pub(crate) fn snapshot(&self) -> AgentStats {
        AgentStats {
            lines_written: self.written.load(Ordering::Relaxed),
            points_lost: self.lost.load(Ordering::Relaxed)
                + self.channel_drops.load(Ordering::Relaxed),
            lines_buffered: self.buffered.load(Ordering::Relaxed),
            failed_writes: self.failed_writes.load(Ordering::Relaxed),
        }
    }
}
