//! A server whose answers are delayed past the client timeout: producers are not slowed,
//! timed-out batches are retried, and once the server is fast again every point is stored
//! (a retried batch that had already reached InfluxDB overwrites itself: same series, same
//! timestamps).

use crate::common;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bstore_metrics::writer::{HttpOptions, HttpWriter};
use bstore_metrics::{DataPoint, InfluxConfig, MetricsAgent};

/// A TCP proxy to `upstream` on 127.0.0.1 that holds every response chunk for `delay` while
/// `slow` is set.
fn delaying_proxy(upstream: u16, slow: Arc<AtomicBool>, delay: Duration) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind proxy");
    let port = listener.local_addr().expect("addr").port();
    std::thread::spawn(move || {
        for client in listener.incoming().flatten() {
            let Ok(server) = TcpStream::connect(("127.0.0.1", upstream)) else {
                continue;
            };
            let (mut c_read, mut s_write) = (
                client.try_clone().expect("clone"),
                server.try_clone().expect("clone"),
            );
            std::thread::spawn(move || std::io::copy(&mut c_read, &mut s_write));
            let slow = Arc::clone(&slow);
            std::thread::spawn(move || {
                let (mut server, mut client) = (server, client);
                let mut buf = [0u8; 16 * 1024];
                while let Ok(n @ 1..) = server.read(&mut buf) {
                    if slow.load(Ordering::SeqCst) {
                        std::thread::sleep(delay);
                    }
                    if client.write_all(&buf[..n]).is_err() {
                        break;
                    }
                }
            });
        }
    });
    port
}

#[test]
fn slow_answers_time_out_without_blocking_producers() {
    let influx = common::Influx::start("slow");
    let slow = Arc::new(AtomicBool::new(true));
    let proxy = delaying_proxy(influx.port, Arc::clone(&slow), Duration::from_millis(1500));
    let http = HttpOptions {
        connect_timeout: Duration::from_millis(300),
        request_timeout: Duration::from_millis(300),
    };
    let options = common::options("slow-test", Duration::from_millis(100));
    let config = InfluxConfig::new(format!("http://127.0.0.1:{proxy}"), "slow");
    let agent = MetricsAgent::new(HttpWriter::new(config, http), options).expect("agent");

    let base = 1_700_000_000_000_000_000;
    let mut slowest = Duration::ZERO;
    for i in 0..1000 {
        let mut p = DataPoint::new("p").at(base + i);
        p.add_field_i64("i", i);
        let t = Instant::now();
        agent.submit(p, log::Level::Info);
        slowest = slowest.max(t.elapsed());
        if i % 4 == 0 {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    assert!(
        slowest < Duration::from_millis(20),
        "a submit took {slowest:?}"
    );
    let timed_out = agent.flush().expect_err("answers arrive after the timeout");
    assert!(timed_out.is_retryable(), "{timed_out}");
    assert!(agent.stats().lines_buffered > 0);

    slow.store(false, Ordering::SeqCst);
    agent.flush().expect("fast again");
    assert_eq!(influx.count("slow", "p", "i"), 1000);
    let stats = agent.stats();
    assert!(
        stats.failed_writes >= 1 && stats.points_lost == 0 && stats.lines_buffered == 0,
        "{stats:?}"
    );
}
