//! A small InfluxDB 1.x client for reading back: `/ping`, `/query` (InfluxQL, JSON results
//! with ns epochs). Used by the plot command and the real-server tests.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::MetricsError;
use crate::config::InfluxConfig;
use crate::datapoint::{DataPoint, FieldValue};
use crate::writer::HttpOptions;
use crate::writer::http::{finish, http_agent, with_credentials};

/// One series of a query result.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Measurement name.
    pub name: String,
    /// Tags the result is grouped by (`GROUP BY`), if any.
    pub tags: BTreeMap<String, String>,
    /// Column names; the first is `time` for selects.
    pub columns: Vec<String>,
    /// Rows, one value per column.
    pub values: Vec<Vec<Value>>,
}

impl Series {
    /// The value in `row` of the column named `column`.
    pub fn get(&self, row: usize, column: &str) -> Option<&Value> {
        let index = self.columns.iter().position(|c| c == column)?;
        self.values.get(row)?.get(index)
    }

    /// The rows as points: `time` becomes the timestamp, group-by tags become tags, every
    /// other non-null column a field. JSON does not say whether `2` was a float, so whole
    /// numbers come back as [`FieldValue::I64`] (use `SHOW FIELD KEYS` for the stored type).
    pub fn to_points(&self) -> Vec<DataPoint> {
        self.values
            .iter()
            .map(|row| {
                let mut point = DataPoint::new(self.name.clone()).at(0);
                for (tag, value) in &self.tags {
                    point.add_tag(tag.clone(), value);
                }
                for (column, value) in self.columns.iter().zip(row) {
                    if column == "time" {
                        point.timestamp_ns = value.as_i64().unwrap_or(0);
                    } else if let Some(v) = json_field(value) {
                        point.add_field(column.clone(), v);
                    }
                }
                point
            })
            .collect()
    }
}

fn json_field(value: &Value) -> Option<FieldValue> {
    match value {
        Value::Bool(b) => Some(FieldValue::Bool(*b)),
        Value::String(s) => Some(FieldValue::Str(s.clone())),
        Value::Number(n) => n
            .as_i64()
            .map(FieldValue::I64)
            .or_else(|| n.as_u64().map(FieldValue::U64))
            .or_else(|| n.as_f64().map(FieldValue::F64)),
        Value::Null | Value::Array(_) | Value::Object(_) => None,
    }
}

/// Reads from one InfluxDB server and database.
#[derive(Debug)]
pub struct InfluxClient {
    agent: ureq::Agent,
    config: InfluxConfig,
}

impl InfluxClient {
    /// A client for `config` (no connection is made yet).
    pub fn new(config: InfluxConfig, options: HttpOptions) -> Self {
        Self {
            agent: http_agent(options),
            config,
        }
    }

    /// `GET /ping`: Ok when the server answers.
    pub fn ping(&self) -> Result<(), MetricsError> {
        let url = format!("{}/ping", self.config.host);
        finish(self.agent.get(&url).call(), &url).map(drop)
    }

    /// Runs a statement that changes the server (`CREATE DATABASE`, `DROP ...`) with POST.
    pub fn execute(&self, statement: &str) -> Result<(), MetricsError> {
        let url = format!("{}/query", self.config.host);
        let request = with_credentials(self.agent.post(&url), &self.config);
        let body = finish(request.send_form(&[("q", statement)]), &url)?;
        Self::series(&url, &body).map(drop)
    }

    /// Runs an InfluxQL query against the configured database; times are ns epochs.
    pub fn query(&self, query: &str) -> Result<Vec<Series>, MetricsError> {
        let url = format!("{}/query?db={}", self.config.host, self.config.db);
        let request = self
            .agent
            .get(&format!("{}/query", self.config.host))
            .query("db", &self.config.db)
            .query("epoch", "ns")
            .query("q", query);
        let body = finish(with_credentials(request, &self.config).call(), &url)?;
        Self::series(&url, &body)
    }

    /// Parses `{"results":[{"series":[...]} | {"error":"..."}]}`; a statement error is an
    /// error, a statement without rows gives no series.
    fn series(url: &str, body: &str) -> Result<Vec<Series>, MetricsError> {
        let bad = |reason: String| MetricsError::BadResponse {
            url: url.to_string(),
            reason,
        };
        let json: Value = serde_json::from_str(body).map_err(|e| bad(format!("not JSON: {e}")))?;
        let results = json
            .get("results")
            .and_then(Value::as_array)
            .ok_or_else(|| bad(format!("no `results` in {body:.200}")))?;
        let mut out = Vec::new();
        for result in results {
            if let Some(error) = result.get("error").and_then(Value::as_str) {
                return Err(bad(format!("query error: {error}")));
            }
            for series in result
                .get("series")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                out.push(
                    parse_series(series)
                        .ok_or_else(|| bad(format!("malformed series {series}")))?,
                );
            }
        }
        Ok(out)
    }
}

fn parse_series(series: &Value) -> Option<Series> {
    let strings = |v: &Value| -> Option<Vec<String>> {
        v.as_array()?
            .iter()
            .map(|c| c.as_str().map(str::to_string))
            .collect()
    };
    let tags = match series.get("tags") {
        Some(Value::Object(map)) => map
            .iter()
            .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
            .collect(),
        _ => BTreeMap::new(),
    };
    Some(Series {
        name: series
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
        tags,
        columns: strings(series.get("columns")?)?,
        values: match series.get("values") {
            Some(Value::Array(rows)) => rows
                .iter()
                .map(|r| r.as_array().cloned())
                .collect::<Option<_>>()?,
            _ => Vec::new(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_series_errors_and_empty_results() {
        let body = r#"{"results":[{"statement_id":0,"series":[{"name":"m","tags":{"host_id":"h"},
            "columns":["time","a","b","s","n"],"values":[[5,1,2.5,"x",null],[6,-1,true,"y",3]]}]},
            {"statement_id":1}]}"#;
        let series = InfluxClient::series("u", body).expect("valid");
        assert_eq!(series.len(), 1);
        assert_eq!(series[0].get(1, "s"), Some(&Value::from("y")));
        let points = series[0].to_points();
        assert_eq!(points[0].timestamp_ns, 5);
        assert_eq!(points[0].tag("host_id"), Some("h"));
        assert_eq!(points[0].field("b"), Some(&FieldValue::F64(2.5)));
        assert_eq!(points[0].field("n"), None, "null columns are not fields");
        assert_eq!(points[1].field("b"), Some(&FieldValue::Bool(true)));

        let err = InfluxClient::series("u", r#"{"results":[{"error":"database not found: x"}]}"#)
            .expect_err("statement error");
        assert!(err.to_string().contains("database not found: x"), "{err}");
        assert!(InfluxClient::series("u", "<html>").is_err());
    }
}
