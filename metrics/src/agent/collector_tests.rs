use super::*;
use crate::datapoint::FieldValue;
use crate::writer::{Behaviour, MemoryWriter};
use log::Level;

fn point(name: &str, v: i64) -> DataPoint {
    let mut p = DataPoint::new(name.to_string()).at(1000 + v);
    p.add_field_i64("v", v);
    p
}

fn counter(name: &'static str, count: u64, bucket: u64) -> CounterPoint {
    CounterPoint {
        name,
        count,
        timestamp_ns: 5000 + bucket as i64,
        bucket,
    }
}

fn own_field(points: &[DataPoint], field: &str) -> u64 {
    let own = points
        .iter()
        .rfind(|p| p.name == SELF_MEASUREMENT)
        .expect("a metrics point");
    match own.field(field) {
        Some(FieldValue::I64(v)) => u64::try_from(*v).expect("non-negative"),
        other => panic!("{field}: {other:?}"),
    }
}

fn values(points: &[DataPoint]) -> Vec<i64> {
    points
        .iter()
        .filter(|p| p.name == "p")
        .filter_map(|p| match p.field("v") {
            Some(FieldValue::I64(v)) => Some(*v),
            _ => None,
        })
        .collect()
}

/// A collector holding `limit - 1` points between writes of `limit` lines, as an agent
/// whose writes come on time does.
fn setup(limit: usize, backlog_bytes: usize) -> (Tested, MemoryWriter, Arc<Stats>) {
    let stats = Arc::new(Stats::default());
    let c = Collector::new(limit - 1, backlog_bytes, Arc::clone(&stats));
    (Tested { c, limit }, MemoryWriter::default(), stats)
}

struct Tested {
    c: Collector,
    limit: usize,
}

impl Tested {
    fn write(&mut self, w: &MemoryWriter, host: &str, secs: u64) -> Result<(), MetricsError> {
        self.c.write(w, host, secs, self.limit)
    }
}

impl std::ops::Deref for Tested {
    type Target = Collector;
    fn deref(&self) -> &Collector {
        &self.c
    }
}

impl std::ops::DerefMut for Tested {
    fn deref_mut(&mut self) -> &mut Collector {
        &mut self.c
    }
}

#[test]
fn idle_collector_writes_nothing() {
    let (mut c, w, _) = setup(10, 1 << 20);
    c.write(&w, "h", 0).expect("ok");
    assert_eq!(w.writes(), 0);
}

#[test]
fn over_the_limit_counters_go_before_points() {
    let (mut c, w, stats) = setup(5, 1 << 20);
    for i in 0..3 {
        c.add_point(point("p", i), Level::Info);
    }
    c.add_counter(counter("c1", 1, 1));
    c.add_counter(counter("c2", 1, 1));
    c.write(&w, "h", 10).expect("ok");
    let points = w.points().expect("parse");
    let names: Vec<&str> = points.iter().map(|p| p.name.as_ref()).collect();
    assert_eq!(
        names,
        ["p", "p", "p", "c1", "metrics"],
        "budget 4 = 3 points + 1 counter"
    );
    assert!(points.iter().all(|p| p.tag("host_id") == Some("h")));
    assert_eq!(own_field(&points, "points_written"), 4);
    assert_eq!(own_field(&points, "num_points"), 5);
    assert_eq!(own_field(&points, "points_lost"), 1);
    assert_eq!(own_field(&points, "points_buffered"), 0);
    assert_eq!(own_field(&points, "secs_since_last_write"), 10);
    assert_eq!(stats.snapshot().points_lost, 1);
    assert_eq!(stats.snapshot().lines_written, 5);
}

#[test]
fn points_beyond_the_limit_are_lost_on_arrival() {
    let (mut c, w, stats) = setup(3, 1 << 20);
    for i in 0..5 {
        c.add_point(point("p", i), Level::Info);
    }
    stats.channel_drops.store(7, Ordering::Relaxed);
    c.write(&w, "h", 1).expect("ok");
    let points = w.points().expect("parse");
    assert_eq!(points.iter().filter(|p| p.name == "p").count(), 2);
    assert_eq!(
        own_field(&points, "points_lost"),
        3 + 7,
        "limit drops and channel drops"
    );
    assert_eq!(stats.snapshot().points_lost, 10);
}

#[test]
fn counters_are_summed_per_bucket() {
    let (mut c, w, _) = setup(100, 1 << 20);
    c.add_counter(counter("c", 2, 7));
    c.add_counter(counter("c", 3, 7));
    c.add_counter(counter("c", 4, 8));
    c.write(&w, "h", 1).expect("ok");
    let points = w.points().expect("parse");
    let counts: Vec<Option<&FieldValue>> = points
        .iter()
        .filter(|p| p.name == "c")
        .map(|p| p.field("count"))
        .collect();
    assert_eq!(
        counts,
        [Some(&FieldValue::I64(5)), Some(&FieldValue::I64(4))]
    );
}

#[test]
fn failed_batches_are_retried_after_fresh_points() {
    let (mut c, w, stats) = setup(100, 1 << 20);
    c.add_point(point("old", 1), Level::Info);
    w.set_behaviour(Behaviour::Unreachable);
    assert!(c.write(&w, "h", 1).expect_err("down").is_retryable());
    assert_eq!(
        stats.snapshot().lines_buffered,
        2,
        "the point and its metrics point"
    );
    w.set_behaviour(Behaviour::Accept);
    c.add_point(point("new", 2), Level::Info);
    c.write(&w, "h", 1).expect("up again");
    let names: Vec<String> = w
        .points()
        .expect("parse")
        .iter()
        .map(|p| p.name.to_string())
        .collect();
    assert_eq!(names, ["new", "old", "metrics", "metrics"]);
    let s = stats.snapshot();
    assert_eq!(
        (s.lines_buffered, s.points_lost, s.failed_writes),
        (0, 0, 1)
    );
}

/// Points 0-2, 10-12 and 20-22, each three written while the writer is down; then it is up.
fn three_failed_writes_of_three_points(c: &mut Tested, w: &MemoryWriter) {
    w.set_behaviour(Behaviour::Unreachable);
    for round in 0..3 {
        for i in 0..3 {
            c.add_point(point("p", round * 10 + i), Level::Info);
        }
        let _ = c.write(w, "h", 1);
    }
    w.set_behaviour(Behaviour::Accept);
}

#[test]
fn backlog_drains_within_the_limit() {
    let (mut c, w, _) = setup(4, 1 << 20);
    three_failed_writes_of_three_points(&mut c, &w);
    // 12 lines held; each write carries at most 3 of them plus its metrics point.
    for _ in 0..4 {
        c.write(&w, "h", 1).expect("up");
    }
    let points = w.points().expect("parse");
    assert_eq!(points.len(), 12 + 4);
    let mut got = values(&points);
    got.sort_unstable();
    assert_eq!(got, [0, 1, 2, 10, 11, 12, 20, 21, 22]);
}

#[test]
fn backlog_is_bounded_by_bytes_evicting_oldest() {
    let (mut c, w, stats) = setup(1000, 200);
    w.set_behaviour(Behaviour::Unreachable);
    for i in 0..20 {
        c.add_point(point("p", i), Level::Info);
    }
    let _ = c.write(&w, "h", 1);
    let s = stats.snapshot();
    assert!(s.lines_buffered > 0 && s.lines_buffered < 21, "{s:?}");
    assert_eq!(
        s.lines_buffered + s.points_lost,
        21,
        "every line held or counted lost"
    );
    w.set_behaviour(Behaviour::Accept);
    c.write(&w, "h", 1).expect("up");
    let kept = values(&w.points().expect("parse"));
    assert_eq!(kept.last(), Some(&19), "the newest survive: {kept:?}");
}

#[test]
fn rejected_batches_are_counted_lost() {
    let (mut c, w, stats) = setup(100, 1 << 20);
    c.add_point(point("p", 1), Level::Info);
    w.set_behaviour(Behaviour::Reject);
    assert!(!c.write(&w, "h", 1).expect_err("rejected").is_retryable());
    assert_eq!(stats.snapshot().points_lost, 2);
    w.set_behaviour(Behaviour::Accept);
    c.write(&w, "h", 1).expect("reports the loss");
    assert_eq!(own_field(&w.points().expect("parse"), "points_lost"), 2);
}

#[test]
fn abandon_counts_everything_held() {
    let (mut c, w, stats) = setup(100, 1 << 20);
    c.add_point(point("p", 1), Level::Info);
    w.set_behaviour(Behaviour::Unreachable);
    let _ = c.write(&w, "h", 1);
    c.add_point(point("p", 2), Level::Info);
    assert_eq!(c.abandon(), 3);
    assert_eq!(stats.snapshot().points_lost, 3);
    assert_eq!(stats.snapshot().lines_buffered, 0);
}

#[test]
fn over_the_limit_less_severe_points_go_first() {
    let (mut c, w, stats) = setup(4, 1 << 20);
    c.add_point(point("p", 1), Level::Debug);
    c.add_point(point("p", 2), Level::Info);
    c.add_point(point("p", 3), Level::Debug);
    c.add_point(point("p", 4), Level::Error); // displaces the newest Debug point (3)
    c.add_point(point("p", 5), Level::Trace); // nothing less severe held: lost
    c.add_point(point("p", 6), Level::Warn); // displaces Debug point 1
    c.write(&w, "h", 1).expect("ok");
    assert_eq!(
        values(&w.points().expect("parse")),
        [4, 6, 2],
        "by severity"
    );
    assert_eq!(stats.snapshot().points_lost, 3);
}

#[test]
fn a_late_write_may_carry_more_than_the_nominal_limit() {
    let stats = Arc::new(Stats::default());
    let mut c = Collector::new(100, 1 << 20, Arc::clone(&stats));
    let w = MemoryWriter::default();
    for i in 0..50 {
        c.add_point(point("p", i), Level::Info);
    }
    c.write(&w, "h", 1, 21).expect("ok");
    assert_eq!(
        values(&w.points().expect("parse")).len(),
        20,
        "limit 21 = 20 points + metrics"
    );
    assert_eq!(stats.snapshot().points_lost, 30);
}

#[test]
fn a_failed_batch_keeps_the_backlog_oldest_first() {
    let (mut c, w, _) = setup(4, 1 << 20);
    three_failed_writes_of_three_points(&mut c, &w);
    c.write(&w, "h", 1).expect("up");
    // The first write after the outage retries the oldest three lines.
    assert_eq!(values(&w.points().expect("parse")), [0, 1, 2]);
}
