//! An in-memory writer for tests and benchmarks, with switchable failures.

use std::sync::Mutex;

use crate::MetricsError;
use crate::datapoint::DataPoint;
use crate::writer::MetricsWriter;

/// What a [`MemoryWriter`] keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Retention {
    /// Every body written, concatenated.
    AllLines,
    /// Only counts (for benchmarks that write millions of lines).
    CountsOnly,
}

/// How a [`MemoryWriter`] answers writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Behaviour {
    /// Accept every batch.
    Accept,
    /// Fail as an unreachable server does (retryable).
    Unreachable,
    /// Fail as a server rejecting the batch does (not retryable).
    Reject,
}

#[derive(Debug)]
struct State {
    text: String,
    line_count: usize,
    bytes: usize,
    writes: usize,
    behaviour: Behaviour,
}

/// Keeps what it is given, in memory.
#[derive(Debug)]
pub struct MemoryWriter {
    retention: Retention,
    state: Mutex<State>,
}

impl Default for MemoryWriter {
    fn default() -> Self {
        Self::new(Retention::AllLines)
    }
}

impl MemoryWriter {
    /// An accepting writer.
    pub fn new(retention: Retention) -> Self {
        Self {
            retention,
            state: Mutex::new(State {
                text: String::new(),
                line_count: 0,
                bytes: 0,
                writes: 0,
                behaviour: Behaviour::Accept,
            }),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        // The state stays consistent under a panic elsewhere: every update is one push/add.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Changes how later writes are answered.
    pub fn set_behaviour(&self, behaviour: Behaviour) {
        self.state().behaviour = behaviour;
    }

    /// Line protocol accepted so far (empty with [`Retention::CountsOnly`]).
    pub fn text(&self) -> String {
        self.state().text.clone()
    }

    /// Accepted lines parsed back into points.
    pub fn points(&self) -> Result<Vec<DataPoint>, MetricsError> {
        crate::parse::parse_lines(&self.state().text)
    }

    /// Number of lines accepted.
    pub fn line_count(&self) -> usize {
        self.state().line_count
    }

    /// Bytes accepted.
    pub fn bytes(&self) -> usize {
        self.state().bytes
    }

    /// Number of write calls, accepted or not.
    pub fn writes(&self) -> usize {
        self.state().writes
    }
}

impl MetricsWriter for MemoryWriter {
    fn write(&self, body: &str, lines: usize) -> Result<(), MetricsError> {
        let mut state = self.state();
        state.writes += 1;
        match state.behaviour {
            Behaviour::Accept => {}
            Behaviour::Unreachable => {
                return Err(MetricsError::Transport {
                    url: "memory://".into(),
                    reason: "set unreachable by the test".into(),
                });
            }
            Behaviour::Reject => {
                return Err(MetricsError::Rejected {
                    url: "memory://".into(),
                    status: 400,
                    body: "set to reject by the test".into(),
                });
            }
        }
        state.line_count += lines;
        state.bytes += body.len();
        if self.retention == Retention::AllLines {
            state.text.push_str(body);
        }
        Ok(())
    }
}
