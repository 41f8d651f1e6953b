//! The one error type of this crate.

use std::path::PathBuf;

/// Everything that can go wrong in `bstore-metrics`, each variant with the context a user
/// needs to fix it.
#[derive(Debug, thiserror::Error)]
pub enum MetricsError {
    /// `SOLANA_METRICS_CONFIG` (or a string given to [`crate::InfluxConfig::parse`]) is wrong.
    #[error("metrics config {var}: {reason} (expected `host=http://H:8086,db=NAME,u=USER,p=PASS`)")]
    Config {
        /// Where the text came from, e.g. `SOLANA_METRICS_CONFIG`.
        var: &'static str,
        /// What is wrong with it, naming the offending key or entry.
        reason: String,
    },

    /// The server could not be reached or did not answer in time. Retryable: the agent keeps
    /// the batch in its bounded backlog.
    #[error("metrics server {url} unreachable: {reason}")]
    Transport {
        /// The URL without credentials.
        url: String,
        /// The transport error (refused, timed out, reset, ...).
        reason: String,
    },

    /// The server answered with a 5xx status. Retryable.
    #[error("metrics server {url} failed with HTTP {status}: {body}")]
    ServerFailed {
        /// The URL without credentials.
        url: String,
        /// HTTP status code.
        status: u16,
        /// The start of the response body (InfluxDB explains itself there).
        body: String,
    },

    /// The server refused the request with a 4xx status (bad line, unknown database, bad
    /// credentials). Not retryable: sending the same bytes again gets the same answer.
    #[error("metrics server {url} rejected the request with HTTP {status}: {body}")]
    Rejected {
        /// The URL without credentials.
        url: String,
        /// HTTP status code.
        status: u16,
        /// The start of the response body.
        body: String,
    },

    /// A response body (e.g. `/query` JSON) was not what InfluxDB sends.
    #[error("bad response from {url}: {reason}")]
    BadResponse {
        /// The URL without credentials.
        url: String,
        /// What was wrong with it.
        reason: String,
    },

    /// Reading or writing a local file (line-protocol output, input for plotting, charts).
    #[error("{action} {path}: {source}")]
    Io {
        /// What was being done: "append to", "read", "create", ...
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },

    /// A line of line-protocol text could not be parsed.
    #[error("line protocol, line {line}: {reason}")]
    Parse {
        /// 1-based line number in the input.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },

    /// Plotting found nothing to draw, or a series is unusable.
    #[error("plot {measurement}: {reason}")]
    Plot {
        /// The measurement being plotted.
        measurement: String,
        /// What is missing.
        reason: String,
    },

    /// The agent thread could not be started.
    #[error("cannot start the metrics agent thread: {source}")]
    Spawn {
        /// The cause.
        #[source]
        source: std::io::Error,
    },

    /// The agent thread is gone (it panicked or was shut down), so a flush cannot complete.
    #[error("metrics agent thread is not running")]
    AgentGone,
}

impl MetricsError {
    /// True when sending the same batch again later may succeed (server down, slow or
    /// failing with 5xx); false when the server has judged the batch itself.
    pub fn is_retryable(&self) -> bool {
        matches!(self, Self::Transport { .. } | Self::ServerFailed { .. })
    }
}
