//! The `datapoint_*!` and `inc_new_counter_*!` macros submit to the global agent only when
//! `log` is enabled at their level for the calling module, and the global host id is used.

use std::sync::Arc;
use std::time::Duration;

use bstore_metrics::writer::MemoryWriter;
use bstore_metrics::{
    AgentOptions, FieldValue, HostId, MetricsAgent, datapoint_debug, datapoint_error,
    datapoint_info, datapoint_trace, datapoint_warn, inc_new_counter_debug, inc_new_counter_info,
};

/// Info everywhere, Debug for the `verbose` module only.
struct Levels;

impl log::Log for Levels {
    fn enabled(&self, meta: &log::Metadata<'_>) -> bool {
        let max = if meta.target().ends_with("::verbose") {
            log::Level::Debug
        } else {
            log::Level::Info
        };
        meta.level() <= max
    }
    fn log(&self, _: &log::Record<'_>) {}
    fn flush(&self) {}
}

static LOGGER: Levels = Levels;

mod verbose {
    pub(super) fn emit(slot: u64) {
        bstore_metrics::datapoint_debug!("verbose-debug", "module" => "verbose", ("slot", slot, i64));
        bstore_metrics::datapoint_trace!("verbose-trace", ("slot", slot, i64));
    }
}

#[test]
fn macros_respect_the_callers_log_level() {
    log::set_logger(&LOGGER).expect("first logger");
    log::set_max_level(log::LevelFilter::Trace);
    let writer = Arc::new(MemoryWriter::default());
    let options = AgentOptions {
        write_frequency: Duration::from_secs(3600),
        host_id: HostId::Global,
        ..AgentOptions::default()
    };
    let agent = MetricsAgent::new(Arc::clone(&writer), options).expect("agent");
    bstore_metrics::set_global_agent(agent).expect("no global agent yet");
    bstore_metrics::set_host_id("custom-host");

    let (slot, elapsed) = (42u64, 1500u128);
    datapoint_error!("error-point", ("slot", slot, i64));
    datapoint_warn!("warn-point", ("slot", slot, i64));
    datapoint_info!(
        "replay-slot-stats",
        "kind" => "full",
        ("slot", slot, i64),
        ("fetch_entries_time", elapsed, i64),
        ("total_shreds", 64usize, u64),
        ("per_shred", elapsed as f64 / 64.0, f64),
        ("is_full", true, bool),
        ("note", format!("slot {slot}"), String),
    );
    datapoint_debug!("quiet-debug", ("slot", slot, i64));
    datapoint_trace!("quiet-trace", ("slot", slot, i64));
    verbose::emit(slot);
    for _ in 0..10 {
        inc_new_counter_info!("hits", 2);
    }
    inc_new_counter_debug!("quiet-counter", 1);
    bstore_metrics::flush();

    let points = writer.points().expect("parse");
    let mut names: Vec<&str> = points
        .iter()
        .map(|p| p.name.as_ref())
        .filter(|n| *n != "metrics")
        .collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(
        names,
        [
            "error-point",
            "hits",
            "replay-slot-stats",
            "verbose-debug",
            "warn-point"
        ]
    );
    assert!(
        points
            .iter()
            .all(|p| p.tag("host_id") == Some("custom-host"))
    );

    let stats = points
        .iter()
        .find(|p| p.name == "replay-slot-stats")
        .expect("stats point");
    assert_eq!(stats.tag("kind"), Some("full"));
    assert_eq!(
        stats.field("fetch_entries_time"),
        Some(&FieldValue::I64(1500))
    );
    assert_eq!(
        stats.field("per_shred"),
        Some(&FieldValue::F64(1500.0 / 64.0))
    );
    assert_eq!(
        stats.field("note"),
        Some(&FieldValue::Str("slot 42".into()))
    );

    let hits: i64 = points
        .iter()
        .filter(|p| p.name == "hits")
        .map(|p| match p.field("count") {
            Some(FieldValue::I64(n)) => *n,
            other => panic!("count: {other:?}"),
        })
        .sum();
    assert_eq!(
        hits, 20,
        "ten increments of two, summed per one-second bucket"
    );
    assert!(
        points.iter().filter(|p| p.name == "hits").count() <= 2,
        "at most a bucket boundary apart"
    );
}
