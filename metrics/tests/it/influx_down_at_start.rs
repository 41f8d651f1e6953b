//! The server is down when the agent starts: producers are not slowed, the failed batch is
//! kept, and once the server is up the points buffered before it arrive.

use crate::common;

use std::time::{Duration, Instant};

use bstore_metrics::writer::{HttpOptions, HttpWriter};
use bstore_metrics::{DataPoint, MetricsAgent};

#[test]
fn points_buffered_while_down_arrive_after_start() {
    let port = common::free_port();
    let mut influx = common::Influx::prepare(port);
    let http = HttpOptions {
        connect_timeout: Duration::from_millis(500),
        request_timeout: Duration::from_secs(2),
    };
    let options = common::options("down-test", Duration::from_secs(3600));
    let agent =
        MetricsAgent::new(HttpWriter::new(influx.config("down"), http), options).expect("agent");

    let base = 1_700_000_000_000_000_000;
    let mut slowest = Duration::ZERO;
    for i in 0..100 {
        let mut p = DataPoint::new("p").at(base + i);
        p.add_field_i64("i", i);
        let t = Instant::now();
        agent.submit(p, log::Level::Info);
        slowest = slowest.max(t.elapsed());
    }
    assert!(
        slowest < Duration::from_millis(20),
        "a submit took {slowest:?}"
    );
    let err = agent.flush().expect_err("nothing listens yet");
    assert!(err.is_retryable(), "{err}");
    assert_eq!(
        agent.stats().lines_buffered,
        101,
        "100 points and the metrics point held"
    );

    influx.launch();
    influx.create_db("down");
    for i in 100..110 {
        let mut p = DataPoint::new("p").at(base + i);
        p.add_field_i64("i", i);
        agent.submit(p, log::Level::Info);
    }
    agent.flush().expect("server is up");
    assert_eq!(influx.count("down", "p", "i"), 110);
    assert_eq!(influx.count("down", "metrics", "points_written"), 2);
    let stats = agent.stats();
    assert_eq!(
        (stats.points_lost, stats.lines_buffered, stats.failed_writes),
        (0, 0, 1)
    );
}
