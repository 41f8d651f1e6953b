//! Per-slot charts render from InfluxDB `/query` results and from the agent's line-protocol
//! file alike: same lines, same slots.

use crate::common;

use std::time::Duration;

use bstore_metrics::plot::{self, REPLAY_SLOT_STATS, ValueExpr};
use bstore_metrics::writer::{FileWriter, HttpOptions, HttpWriter, MetricsWriter};
use bstore_metrics::{DataPoint, MetricsAgent};

fn send(writer: impl MetricsWriter + 'static, host: &str) {
    let options = common::options(host, Duration::from_secs(3600));
    let agent = MetricsAgent::new(writer, options).expect("agent");
    for slot in 0..40i64 {
        let mut p =
            DataPoint::new(REPLAY_SLOT_STATS).at(1_700_000_000_000_000_000 + slot * 400_000_000);
        p.add_field_i64("slot", 1000 + slot)
            .add_field_i64("fetch_entries_time", 500 + 10 * slot)
            .add_field_i64("fetch_entries_fail_time", slot % 3)
            .add_field_i64("num_execute_batches", 4)
            .add_field_i64("confirmation_time_us", 3000 + slot)
            .add_field_i64("replay_total_elapsed", 8000 + slot)
            .add_field_i64("total_shreds", 10 + slot);
        agent.submit(p, log::Level::Info);
    }
    agent.flush().expect("flush");
}

#[test]
fn influx_and_file_give_the_same_charts() {
    let influx = common::Influx::start("plot");
    let dir = tempfile::tempdir().expect("tempdir");
    let lp = dir.path().join("metrics.lp");
    send(
        HttpWriter::new(influx.config("plot"), HttpOptions::default()),
        "node-a",
    );
    send(FileWriter::open(&lp).expect("file"), "node-a");

    let from_influx = plot::load_influx(&influx.client("plot"), REPLAY_SLOT_STATS).expect("query");
    let from_file = plot::load_line_protocol(&lp).expect("file");
    let per_shred = ValueExpr::Ratio {
        numerator: "fetch_entries_time".into(),
        denominator: "total_shreds".into(),
    };
    let a = plot::per_slot_lines(&from_influx, REPLAY_SLOT_STATS, &per_shred);
    let b = plot::per_slot_lines(&from_file, REPLAY_SLOT_STATS, &per_shred);
    assert_eq!(a, b);
    assert_eq!(a.len(), 1);
    assert_eq!(a[0].label, "node-a");
    assert_eq!(a[0].points.len(), 40);
    assert_eq!(a[0].points[0], (1000, 50.0), "500 µs over 10 shreds");

    let out = dir.path().join("charts");
    let files = plot::render_charts(
        &from_influx,
        REPLAY_SLOT_STATS,
        &plot::replay_charts(),
        &out,
    )
    .expect("charts");
    assert_eq!(files.len(), 7, "every chart has data");
    for f in &files {
        let svg = std::fs::read_to_string(f).expect("svg");
        assert!(svg.contains("node-a (40 slots)"), "{}", f.display());
    }
}
