//! The server is SIGKILLed while a producer is submitting and comes back on the same data:
//! the producer never stalls and every point reaches the server once it is back.

use crate::common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::time::Duration;

use bstore_metrics::writer::{HttpOptions, HttpWriter};
use bstore_metrics::{DataPoint, MetricsAgent};

/// The producer submits at least this many points, and goes on until the server is back.
const MIN_POINTS: i64 = 2000;

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

    // The producer submits until told to stop; `progress` counts its returned submits.
    let progress = Arc::new(AtomicI64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let producer = {
        let (agent, progress, stop) =
            (Arc::clone(&agent), Arc::clone(&progress), Arc::clone(&stop));
        std::thread::spawn(move || {
            let base = 1_700_000_000_000_000_000;
            let mut i = 0;
            while i < MIN_POINTS || !stop.load(Ordering::SeqCst) {
                let mut p = DataPoint::new("p").at(base + i);
                p.add_field_i64("i", i);
                agent.submit(p, log::Level::Info);
                i += 1;
                progress.store(i, Ordering::SeqCst);
                if i % 2 == 0 {
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
            i
        })
    };
    std::thread::sleep(Duration::from_millis(300));
    influx.kill();
    let at_kill = progress.load(Ordering::SeqCst);
    std::thread::sleep(Duration::from_millis(500));
    let at_restart = progress.load(Ordering::SeqCst);
    influx.launch();
    std::thread::sleep(Duration::from_millis(300));
    stop.store(true, Ordering::SeqCst);
    let points = producer.join().expect("producer");
    // Counted, not timed: submits kept returning while the server was down.
    assert!(
        at_restart > at_kill,
        "the producer stalled while the server was down ({at_kill} submits before, {at_restart} after)"
    );
    agent.flush().expect("server is back");

    assert_eq!(influx.count("crash", "p", "i"), points);
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
