//! The server is SIGKILLed while a producer is submitting and comes back on the same data:
//! the producer never stalls and every point reaches the server once it is back.

use crate::common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use bstore_metrics::writer::{HttpOptions, HttpWriter};
use bstore_metrics::{DataPoint, MetricsAgent};

const POINTS: i64 = 2000;

#[test]
fn every_point_arrives_after_a_crash_and_restart() {
    let mut influx = common::Influx::start("crash");
    let http = HttpOptions {
        connect_timeout: Duration::from_millis(300),
        request_timeout: Duration::from_secs(1),
    };
    let options = common::options("crash-test", Duration::from_millis(100));
    let agent = Arc::new(
        MetricsAgent::new(HttpWriter::new(influx.config("crash"), http), options).expect("agent"),
    );

    let producer = {
        let agent = Arc::clone(&agent);
        std::thread::spawn(move || {
            let base = 1_700_000_000_000_000_000;
            let mut slowest = Duration::ZERO;
            for i in 0..POINTS {
                let mut p = DataPoint::new("p").at(base + i);
                p.add_field_i64("i", i);
                let t = Instant::now();
                agent.submit(p, log::Level::Info);
                slowest = slowest.max(t.elapsed());
                if i % 2 == 0 {
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
            slowest
        })
    };
    std::thread::sleep(Duration::from_millis(300));
    influx.kill();
    std::thread::sleep(Duration::from_millis(500));
    influx.launch();
    let slowest = producer.join().expect("producer");
    assert!(
        slowest < Duration::from_millis(20),
        "a submit took {slowest:?}"
    );
    agent.flush().expect("server is back");

    assert_eq!(influx.count("crash", "p", "i"), POINTS);
    let stats = agent.stats();
    assert!(
        stats.failed_writes >= 1,
        "the agent saw the outage: {stats:?}"
    );
    assert_eq!(
        (stats.points_lost, stats.lines_buffered),
        (0, 0),
        "{stats:?}"
    );
}
