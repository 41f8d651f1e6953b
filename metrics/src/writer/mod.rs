//! Where serialised batches go. The agent hands every writer one body of newline-terminated
//! line-protocol lines per write.

mod file;
pub(crate) mod http;
mod log;
mod memory;

pub use file::FileWriter;
pub use http::{HttpOptions, HttpWriter};
pub use log::{LogWriter, TARGET as POINTS_LOG_TARGET};
pub use memory::{Behaviour, MemoryWriter, Retention};

use std::fmt;
use std::sync::Arc;

use crate::MetricsError;

/// A destination for line-protocol batches.
///
/// An error that [`MetricsError::is_retryable`] makes the agent keep the batch in its bounded
/// backlog and send it again later; any other error drops the batch (counted as lost).
pub trait MetricsWriter: Send + Sync + fmt::Debug {
    /// Writes `body`, which holds `lines` newline-terminated lines (`lines > 0`).
    fn write(&self, body: &str, lines: usize) -> Result<(), MetricsError>;
}

impl<W: MetricsWriter + ?Sized> MetricsWriter for Arc<W> {
    fn write(&self, body: &str, lines: usize) -> Result<(), MetricsError> {
        (**self).write(body, lines)
    }
}

impl<W: MetricsWriter + ?Sized> MetricsWriter for Box<W> {
    fn write(&self, body: &str, lines: usize) -> Result<(), MetricsError> {
        (**self).write(body, lines)
    }
}
