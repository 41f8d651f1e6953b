use super::*;
use crate::writer::{MemoryWriter, Retention};
use std::sync::{Condvar, Mutex};

fn options(write_frequency: Duration) -> AgentOptions {
    AgentOptions {
        write_frequency,
        host_id: HostId::Fixed("test-host".into()),
        ..AgentOptions::default()
    }
}

fn point(v: i64) -> DataPoint {
    let mut p = DataPoint::new("p");
    p.add_field_i64("v", v);
    p
}

fn count_named(w: &MemoryWriter, name: &str) -> usize {
    w.points()
        .expect("parse")
        .iter()
        .filter(|p| p.name == name)
        .count()
}

#[test]
fn flush_blocks_until_written() {
    let w = Arc::new(MemoryWriter::default());
    let agent =
        MetricsAgent::new(Arc::clone(&w), options(Duration::from_secs(3600))).expect("start");
    for i in 0..100 {
        agent.submit(point(i), Level::Info);
    }
    agent.flush().expect("flush");
    assert_eq!(count_named(&w, "p"), 100);
    assert!(
        w.points()
            .expect("parse")
            .iter()
            .all(|p| p.tag("host_id") == Some("test-host"))
    );
    assert_eq!(
        agent.stats().lines_written,
        101,
        "100 points and the metrics point"
    );
}

#[test]
fn writes_every_write_frequency_without_flush() {
    let w = Arc::new(MemoryWriter::default());
    let agent =
        MetricsAgent::new(Arc::clone(&w), options(Duration::from_millis(50))).expect("start");
    agent.submit(point(1), Level::Info);
    let start = Instant::now();
    while count_named(&w, "p") == 0 {
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "no periodic write"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    drop(agent);
}

#[test]
fn drop_writes_what_is_queued() {
    let w = Arc::new(MemoryWriter::default());
    let agent =
        MetricsAgent::new(Arc::clone(&w), options(Duration::from_secs(3600))).expect("start");
    for i in 0..10 {
        agent.submit(point(i), Level::Info);
    }
    drop(agent);
    assert_eq!(count_named(&w, "p"), 10);
}

/// A writer that blocks until released, as a hung server would.
#[derive(Debug, Default)]
struct Gate {
    entered: std::sync::atomic::AtomicBool,
    open: Mutex<bool>,
    changed: Condvar,
    inner: MemoryWriter,
}

impl MetricsWriter for Gate {
    fn write(&self, body: &str, lines: usize) -> Result<(), MetricsError> {
        self.entered.store(true, Ordering::SeqCst);
        let mut open = self.open.lock().expect("lock");
        while !*open {
            open = self.changed.wait(open).expect("wait");
        }
        self.inner.write(body, lines)
    }
}

#[test]
fn producers_never_block_on_a_stuck_writer() {
    let gate = Arc::new(Gate::default());
    let mut opts = options(Duration::from_secs(3600));
    opts.channel_capacity = 64;
    let agent = Arc::new(MetricsAgent::new(Arc::clone(&gate), opts).expect("start"));
    agent.submit(point(-1), Level::Info);
    let flusher = {
        let agent = Arc::clone(&agent);
        std::thread::spawn(move || agent.flush())
    };
    // Wait until the agent is stuck inside the write.
    while !gate.entered.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(1));
    }
    // Counted, not timed: all 10,000 submits return while the writer is still stuck (the
    // gate opens only after them); a blocking submit would never let the producer finish.
    let (done_tx, done_rx) = std::sync::mpsc::channel();
    {
        let agent = Arc::clone(&agent);
        std::thread::spawn(move || {
            for i in 0..10_000 {
                agent.submit(point(i), Level::Info);
            }
            let _ = done_tx.send(());
        });
    }
    assert!(
        done_rx.recv_timeout(Duration::from_secs(120)).is_ok(),
        "a submit blocked behind the stuck writer"
    );
    assert!(
        !*gate.open.lock().expect("lock"),
        "the writer was stuck throughout"
    );
    let lost = agent.stats().points_lost;
    assert!(lost >= 10_000 - 64, "channel drops are counted: {lost}");
    *gate.open.lock().expect("lock") = true;
    gate.changed.notify_all();
    flusher.join().expect("flusher").expect("flush");
    agent.flush().expect("flush");
    let written = count_named(&gate.inner, "p");
    assert_eq!(
        written as u64 + lost,
        10_001,
        "every point written or counted lost"
    );
}

#[test]
fn throughput_counts_only_writer_keeps_no_lines() {
    let w = Arc::new(MemoryWriter::new(Retention::CountsOnly));
    let agent =
        MetricsAgent::new(Arc::clone(&w), options(Duration::from_secs(3600))).expect("start");
    agent.submit(point(1), Level::Info);
    agent.flush().expect("flush");
    assert_eq!((w.line_count(), w.text().len()), (2, 0));
}

#[test]
fn flush_drains_a_backlog_larger_than_one_write() {
    let w = Arc::new(MemoryWriter::default());
    let mut opts = options(Duration::from_secs(10));
    opts.max_points_per_sec = 10; // 10 s × 10/s = 100 lines per write
    let agent = MetricsAgent::new(Arc::clone(&w), opts).expect("start");
    w.set_behaviour(crate::writer::Behaviour::Unreachable);
    for round in 0..5 {
        for i in 0..50 {
            agent.submit(point(round * 50 + i), Level::Info);
        }
        assert!(agent.flush().is_err());
    }
    w.set_behaviour(crate::writer::Behaviour::Accept);
    agent.flush().expect("up");
    assert_eq!(count_named(&w, "p"), 250);
    assert!(
        w.writes() >= 5 + 3,
        "250 points and 5 metrics points need 3 batches of 99"
    );
    assert_eq!(agent.stats().lines_buffered, 0);
}
