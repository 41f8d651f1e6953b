//! A long outage with more points than the backlog may hold: memory stays within the
//! configured bound, the oldest lines are dropped and counted, and the newest that fit are
//! written once the server is back.

use crate::common;

use std::time::Duration;

use bstore_metrics::writer::{HttpOptions, HttpWriter};
use bstore_metrics::{AgentOptions, DataPoint, HostId, MetricsAgent};

const POINTS: i64 = 5000;
const BACKLOG_BYTES: usize = 64 * 1024;

#[test]
fn backlog_stays_bounded_and_drops_are_counted() {
    let mut influx = common::Influx::start("bounded");
    influx.kill();
    let http = HttpOptions {
        connect_timeout: Duration::from_millis(300),
        request_timeout: Duration::from_secs(1),
    };
    let options = AgentOptions {
        write_frequency: Duration::from_secs(3600),
        max_backlog_bytes: BACKLOG_BYTES,
        host_id: HostId::Fixed("b".into()),
        ..AgentOptions::default()
    };
    let agent =
        MetricsAgent::new(HttpWriter::new(influx.config("bounded"), http), options).expect("agent");
    let base = 1_700_000_000_000_000_000;
    for round in 0..5 {
        for i in 0..POINTS / 5 {
            let n = round * (POINTS / 5) + i;
            let mut p = DataPoint::new("p").at(base + n);
            p.add_field_i64("i", n);
            agent.submit(p, log::Level::Info);
        }
        assert!(agent.flush().expect_err("down").is_retryable());
    }
    let held = agent.stats();
    // Each line is `p,host_id=b i=<n>i <19 digits>\n`: at least 37 bytes.
    assert!(held.lines_buffered > 0, "{held:?}");
    assert!(
        held.lines_buffered * 37 <= BACKLOG_BYTES as u64,
        "backlog over its bound: {held:?}"
    );
    assert!(held.points_lost > 0, "{held:?}");

    influx.launch();
    agent.flush().expect("back up");
    let written = influx.count("bounded", "p", "i");
    let own = influx.count("bounded", "metrics", "points_lost");
    let after = agent.stats();
    assert_eq!(
        written as u64 + own as u64 + after.points_lost,
        POINTS as u64 + 6,
        "every point and metrics point written or counted lost: {after:?}"
    );
    // The newest point is among those kept.
    let last = influx
        .client("bounded")
        .query("SELECT last(\"i\") FROM \"p\"")
        .expect("last");
    assert_eq!(last[0].get(0, "last"), Some(&serde_json::json!(POINTS - 1)));
}
