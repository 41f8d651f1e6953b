//! Every character the line protocol escapes survives the trip through the agent to a real
//! InfluxDB 1.x and back; the cases the protocol cannot express (a backslash ending a tag,
//! a leading `#`, line breaks in names) cost exactness at most, never the batch.

use crate::common;

use std::time::Duration;

use bstore_metrics::writer::{HttpOptions, HttpWriter};
use bstore_metrics::{DataPoint, MetricsAgent};
use serde_json::{Value, json};

const TS: i64 = 1_700_000_000_000_000_000;

fn point(name: &str, i: i64) -> DataPoint {
    DataPoint::new(name.to_string()).at(TS + i)
}

#[test]
fn escaped_names_tags_and_strings_read_back_exactly() {
    let influx = common::Influx::start("esc");
    let options = common::options("host, with=odd chars", Duration::from_secs(3600));
    let agent = MetricsAgent::new(
        HttpWriter::new(influx.config("esc"), HttpOptions::default()),
        options,
    )
    .expect("agent");

    let text = "say \"hi\", a\\b = c\\\\ end\\";
    let mut p = point("m,with space=x", 0);
    p.add_tag("tag key ,=", "tag value ,=\"'")
        .add_tag("backslash", "a\\b")
        .add_tag("unicode", "é漢🙂")
        .add_field_str("field key ,=", text)
        .add_field_str("multi", "line one\nline two")
        .add_field_i64("n", 1);
    agent.submit(p, log::Level::Info);

    // Not expressible exactly in InfluxDB 1.x: must still be accepted with the batch.
    let mut trailing = point("lossy", 1);
    trailing.add_tag("t", "end\\").add_field_i64("n", 2);
    agent.submit(trailing, log::Level::Info);
    let mut hash = point("#hash", 2);
    hash.add_field_i64("n", 3);
    agent.submit(hash, log::Level::Info);
    agent.flush().expect("the whole batch is accepted");

    let client = influx.client("esc");
    let rows = client
        .query("SELECT * FROM \"m,with space=x\"")
        .expect("select");
    assert_eq!(
        rows.len(),
        1,
        "measurement name with comma, space and = is exact"
    );
    let get = |c: &str| rows[0].get(0, c).cloned().unwrap_or(Value::Null);
    assert_eq!(get("tag key ,="), json!("tag value ,=\"'"));
    assert_eq!(get("backslash"), json!("a\\b"));
    assert_eq!(get("unicode"), json!("é漢🙂"));
    assert_eq!(get("host_id"), json!("host, with=odd chars"));
    assert_eq!(get("field key ,="), json!(text));
    assert_eq!(get("multi"), json!("line one\nline two"));

    // A trailing backslash would escape the separator; it gains an escaped space instead.
    let lossy = client
        .query("SELECT * FROM \"lossy\"")
        .expect("select lossy");
    assert_eq!(lossy[0].get(0, "t"), Some(&json!("end\\ ")));
    assert_eq!(lossy[0].get(0, "n"), Some(&json!(2)));
    // A leading `#` would make a comment; InfluxDB 1.x keeps our escaping backslash.
    let hash = client
        .query("SELECT n FROM \"\\\\#hash\"")
        .expect("select hash");
    assert_eq!(hash.first().and_then(|s| s.get(0, "n")), Some(&json!(3)));
}
