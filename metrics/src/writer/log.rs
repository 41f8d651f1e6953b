//! The writer used when no server or file is configured: each line goes to the log.

use crate::MetricsError;
use crate::writer::MetricsWriter;

/// Log target of the lines, so they can be filtered (`RUST_LOG=bstore_metrics::points=info`).
pub const TARGET: &str = "bstore_metrics::points";

/// Logs every line at info level under [`TARGET`].
#[derive(Debug, Default, Clone, Copy)]
pub struct LogWriter;

impl MetricsWriter for LogWriter {
    fn write(&self, body: &str, _lines: usize) -> Result<(), MetricsError> {
        if ::log::log_enabled!(target: TARGET, ::log::Level::Info) {
            for line in body.lines() {
                ::log::info!(target: TARGET, "{line}");
            }
        }
        Ok(())
    }
}
