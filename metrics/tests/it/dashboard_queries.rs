//! The shipped Grafana dashboard is well-formed Grafana 9/10 JSON with a panel for every
//! per-slot replay fetch metric, and every InfluxQL query in it (panels and the host
//! variable) runs on a real InfluxDB with `replay-slot-stats` data and returns the values.

use crate::common;

use std::collections::BTreeSet;
use std::time::Duration;

use bstore_metrics::writer::{HttpOptions, HttpWriter};
use bstore_metrics::{DataPoint, MetricsAgent};
use serde_json::{Value, json};

const METRICS: [&str; 6] = [
    "fetch_entries_time",
    "fetch_entries_fail_time",
    "num_execute_batches",
    "confirmation_time_us",
    "replay_total_elapsed",
    "total_shreds",
];

fn dashboard() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/dashboards/replay-slot-stats.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).expect("dashboard file"))
        .expect("valid JSON")
}

fn queries(dash: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for panel in dash["panels"].as_array().expect("panels") {
        for target in panel["targets"].as_array().expect("targets") {
            let q = target["query"]
                .as_str()
                .expect("raw InfluxQL query")
                .to_string();
            out.push((panel["title"].as_str().expect("title").to_string(), q));
        }
    }
    out
}

#[test]
fn dashboard_is_grafana_json_covering_every_metric() {
    let dash = dashboard();
    assert!(
        dash["schemaVersion"]
            .as_u64()
            .is_some_and(|v| (36..=39).contains(&v)),
        "Grafana 9/10 schema"
    );
    assert_eq!(dash["uid"], json!("bstore-replay-slot-stats"));
    let panels = dash["panels"].as_array().expect("panels");
    let ids: BTreeSet<u64> = panels
        .iter()
        .map(|p| p["id"].as_u64().expect("id"))
        .collect();
    assert_eq!(ids.len(), panels.len(), "panel ids are unique");
    for panel in panels {
        assert!(["timeseries", "table"].contains(&panel["type"].as_str().expect("type")));
        assert_eq!(
            panel["datasource"],
            json!({"type": "influxdb", "uid": "${DS_INFLUXDB}"})
        );
        for key in ["h", "w", "x", "y"] {
            assert!(
                panel["gridPos"][key].is_u64(),
                "gridPos.{key} of {}",
                panel["title"]
            );
        }
        for target in panel["targets"].as_array().expect("targets") {
            assert_eq!(target["rawQuery"], json!(true));
        }
    }
    let all = queries(&dash);
    for metric in METRICS {
        assert!(
            all.iter()
                .any(|(_, q)| q.starts_with(&format!("SELECT \"{metric}\" FROM"))),
            "no panel plots {metric}"
        );
    }
    assert!(
        all.iter()
            .any(|(_, q)| q.contains("\"fetch_entries_time\" / \"total_shreds\""))
    );
}

#[test]
fn every_dashboard_query_runs_on_influxdb() {
    let influx = common::Influx::start("dash");
    for (host, scale) in [("validator-a", 1), ("validator-b", 2)] {
        let options = common::options(host, Duration::from_secs(3600));
        let agent = MetricsAgent::new(
            HttpWriter::new(influx.config("dash"), HttpOptions::default()),
            options,
        )
        .expect("agent");
        for slot in 100..110i64 {
            let mut p = DataPoint::new("replay-slot-stats");
            p.add_field_i64("slot", slot)
                .add_field_i64("fetch_entries_time", 1000 * scale)
                .add_field_i64("fetch_entries_fail_time", if slot == 105 { 0 } else { 7 })
                .add_field_i64("num_execute_batches", 3)
                .add_field_i64("confirmation_time_us", 4000)
                .add_field_i64("replay_total_elapsed", 9000)
                .add_field_i64("total_shreds", if slot == 105 { 0 } else { 50 });
            agent.submit(p, log::Level::Info);
            std::thread::sleep(Duration::from_millis(1)); // distinct timestamps
        }
        agent.flush().expect("flush");
    }
    let client = influx.client("dash");
    let dash = dashboard();
    let variable = dash["templating"]["list"][0]["query"]
        .as_str()
        .expect("variable query");
    let hosts: BTreeSet<String> = client.query(variable).expect("host variable")[0]
        .values
        .iter()
        .filter_map(|row| row.get(1).and_then(Value::as_str).map(str::to_string))
        .collect();
    assert_eq!(
        hosts,
        BTreeSet::from(["validator-a".to_string(), "validator-b".to_string()])
    );

    for (title, query) in queries(&dash) {
        // What Grafana substitutes for the time range and an "All" multi-value variable.
        let q = query
            .replace("$timeFilter", "time > now() - 1h")
            .replace("$host_id", "(validator-a|validator-b)");
        let series = client
            .query(&q)
            .unwrap_or_else(|e| panic!("{title}: {q}: {e}"));
        assert_eq!(series.len(), 2, "{title}: one series per host");
        let rows: usize = series.iter().map(|s| s.values.len()).sum();
        let expected = if q.contains("\"total_shreds\" > 0") {
            18
        } else {
            20
        };
        assert_eq!(rows, expected, "{title}: one row per slot");
        if q.contains("AS \"fetch_time_per_shred\"") {
            let b = series
                .iter()
                .find(|s| s.tags.get("host_id").map(String::as_str) == Some("validator-b"));
            assert_eq!(
                b.and_then(|s| s.get(0, "fetch_time_per_shred")),
                Some(&json!(40)),
                "2000 µs / 50 shreds"
            );
        }
    }
}
