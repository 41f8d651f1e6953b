//! Points sent through the agent to a real InfluxDB come back with their names, tags,
//! field types and values; counters arrive summed; the agent's `metrics` point is there.

use crate::common;

use std::time::Duration;

use bstore_metrics::writer::{HttpOptions, HttpWriter};
use bstore_metrics::{CounterPoint, DataPoint, MetricsAgent};
use serde_json::{Value, json};

#[test]
fn types_tags_values_and_counters_round_trip() {
    let influx = common::Influx::start("rt");
    let options = common::options("node-7", Duration::from_secs(3600));
    let agent = MetricsAgent::new(
        HttpWriter::new(influx.config("rt"), HttpOptions::default()),
        options,
    )
    .expect("agent");
    let ts = 1_700_000_000_000_000_123;
    let mut p = DataPoint::new("replay-slot-stats").at(ts);
    p.add_tag("cluster", "local")
        .add_field_i64("slot", 42)
        .add_field_i64("neg", -7)
        .add_field_u64("huge", u64::MAX)
        .add_field_f64("ratio", 0.25)
        .add_field_f64("whole", 3.0)
        .add_field_bool("full", true)
        .add_field_str("note", "hello");
    agent.submit(p, log::Level::Info);
    for (count, bucket) in [(2, 9), (3, 9)] {
        agent.submit_counter(CounterPoint {
            name: "shreds-counter",
            count,
            timestamp_ns: ts + 1,
            bucket,
        });
    }
    agent.flush().expect("flush to a healthy server");

    let client = influx.client("rt");
    let types = client
        .query("SHOW FIELD KEYS FROM \"replay-slot-stats\"")
        .expect("field keys");
    let mut types: Vec<(String, String)> = types[0]
        .values
        .iter()
        .map(|row| {
            (
                row[0].as_str().unwrap_or("").to_string(),
                row[1].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    types.sort();
    let expected: Vec<(String, String)> = [
        ("full", "boolean"),
        ("huge", "integer"),
        ("neg", "integer"),
        ("note", "string"),
        ("ratio", "float"),
        ("slot", "integer"),
        ("whole", "float"),
    ]
    .iter()
    .map(|(k, t)| (k.to_string(), t.to_string()))
    .collect();
    assert_eq!(types, expected);

    let rows = client
        .query("SELECT * FROM \"replay-slot-stats\"")
        .expect("select");
    let s = &rows[0];
    assert_eq!(s.values.len(), 1);
    let get = |c: &str| s.get(0, c).cloned().unwrap_or(Value::Null);
    assert_eq!(get("time"), json!(ts));
    assert_eq!(get("host_id"), json!("node-7"));
    assert_eq!(get("cluster"), json!("local"));
    assert_eq!(get("slot"), json!(42));
    assert_eq!(get("neg"), json!(-7));
    assert_eq!(get("huge"), json!(i64::MAX), "u64 above i64::MAX saturates");
    assert_eq!(get("ratio"), json!(0.25));
    assert_eq!(get("whole"), json!(3));
    assert_eq!(get("full"), json!(true));
    assert_eq!(get("note"), json!("hello"));

    let counter = client
        .query("SELECT \"count\" FROM \"shreds-counter\"")
        .expect("counter");
    assert_eq!(counter[0].values.len(), 1, "one bucket, one point");
    assert_eq!(counter[0].get(0, "count"), Some(&json!(5)));

    let own = client
        .query("SELECT points_written, num_points, points_lost, points_buffered FROM \"metrics\"")
        .expect("metrics point");
    assert_eq!(own[0].get(0, "points_written"), Some(&json!(2)));
    assert_eq!(own[0].get(0, "num_points"), Some(&json!(3)));
    assert_eq!(own[0].get(0, "points_lost"), Some(&json!(0)));
    assert_eq!(own[0].get(0, "points_buffered"), Some(&json!(0)));
    assert_eq!(agent.stats().lines_written, 3);
}
