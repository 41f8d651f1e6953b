//! The process-wide agent behind [`submit`], [`flush`] and the macros.
//!
//! It is created on first use from the environment ([`MetricsOutput::from_env`]). With
//! neither `SOLANA_METRICS_CONFIG` nor `BSTORE_METRICS_FILE` set and the
//! `bstore_metrics::points` log target disabled, no agent is created at all: submitting costs
//! one atomic load. Call [`init`] at start-up to create it eagerly and see config errors.

use std::sync::{Once, OnceLock};

use log::Level;

use crate::MetricsError;
use crate::agent::{AgentOptions, AgentStats, MetricsAgent};
use crate::config::MetricsOutput;
use crate::counter::CounterPoint;
use crate::datapoint::DataPoint;
use crate::writer::{FileWriter, HttpOptions, HttpWriter, LogWriter, POINTS_LOG_TARGET};

static AGENT: OnceLock<Option<MetricsAgent>> = OnceLock::new();

fn agent_for(output: MetricsOutput) -> Result<Option<MetricsAgent>, MetricsError> {
    let options = AgentOptions::default();
    let agent = match output {
        MetricsOutput::Influx(config) => {
            log::info!("metrics: writing to {} db {}", config.host, config.db);
            MetricsAgent::new(HttpWriter::new(config, HttpOptions::default()), options)?
        }
        MetricsOutput::File(path) => {
            log::info!("metrics: appending line protocol to {}", path.display());
            MetricsAgent::new(FileWriter::open(path)?, options)?
        }
        MetricsOutput::Log if log::log_enabled!(target: POINTS_LOG_TARGET, Level::Info) => {
            MetricsAgent::new(LogWriter, options)?
        }
        MetricsOutput::Log => return Ok(None),
    };
    Ok(Some(agent))
}

fn agent() -> Option<&'static MetricsAgent> {
    AGENT
        .get_or_init(|| {
            MetricsOutput::from_env()
                .and_then(agent_for)
                .unwrap_or_else(|e| {
                    log::error!("metrics disabled: {e}");
                    None
                })
        })
        .as_ref()
}

/// Creates the global agent from the environment now, returning config or file errors
/// instead of logging them. Does nothing if the agent already exists.
pub fn init() -> Result<(), MetricsError> {
    if AGENT.get().is_some() {
        return Ok(());
    }
    let agent = agent_for(MetricsOutput::from_env()?)?;
    // Lost a race with a concurrent first use: that agent stays, ours shuts down.
    let _ = AGENT.set(agent);
    Ok(())
}

/// Makes `agent` the global one (tests, embedding). Fails, handing it back, when the global
/// agent already exists.
pub fn set_global_agent(agent: MetricsAgent) -> Result<(), MetricsAgent> {
    AGENT
        .set(Some(agent))
        .map_err(|slot| slot.expect("OnceLock::set hands back the Some it was given"))
}

/// Queues `point` on the global agent without blocking (see [`MetricsAgent::submit`]).
pub fn submit(point: DataPoint, level: Level) {
    if let Some(agent) = agent() {
        agent.submit(point, level);
    }
}

/// Queues counter increments on the global agent (the caller has checked the level).
pub fn submit_counter(point: CounterPoint) {
    if let Some(agent) = agent() {
        agent.submit_counter(point);
    }
}

/// Writes everything queued on the global agent and waits; failures are logged (the lines
/// stay in the agent's backlog when retryable).
pub fn flush() {
    if let Some(Err(e)) = agent().map(MetricsAgent::flush) {
        log::warn!("metrics flush: {e}");
    }
}

/// Accounting of the global agent, if there is one.
pub fn stats() -> Option<AgentStats> {
    agent().map(MetricsAgent::stats)
}

/// Installs (once) a panic hook that runs the previous hook, submits a `panic` point
/// (program, thread, message, location, version) and flushes the global agent.
pub fn set_panic_hook(program: &'static str, version: Option<String>) {
    static SET: Once = Once::new();
    SET.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            previous(info);
            let payload = info.payload();
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "<non-string panic payload>".to_string());
            let location = info.location().map(ToString::to_string).unwrap_or_default();
            let mut point = DataPoint::new("panic");
            point
                .add_field_str("program", program)
                .add_field_str("thread", std::thread::current().name().unwrap_or("?"))
                .add_field_i64("one", 1)
                .add_field_str("message", &message)
                .add_field_str("location", &location)
                .add_field_str("version", version.as_deref().unwrap_or(""));
            submit(point, Level::Error);
            flush();
        }));
    });
}
