//! Per-slot charts (SVG) of a measurement such as `replay-slot-stats`, from a line-protocol
//! file or from InfluxDB, for people without Grafana. The same charts as
//! `dashboards/replay-slot-stats.json`.
//!
//! The slot is read from a field or tag named `slot`; each `host_id` gets its own line.

mod svg;

pub use svg::{Line, render as render_svg};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::MetricsError;
use crate::datapoint::{DataPoint, FieldValue};
use crate::query::InfluxClient;

/// The measurement replay reports once per slot.
pub const REPLAY_SLOT_STATS: &str = "replay-slot-stats";

/// What a chart plots per slot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ValueExpr {
    /// A field's value.
    Field(String),
    /// `numerator / denominator` (slots where the denominator is 0 are skipped).
    Ratio {
        /// Field divided.
        numerator: String,
        /// Field dividing.
        denominator: String,
    },
}

/// One chart: its file name, title, y-axis label and value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChartSpec {
    /// File name without `.svg`.
    pub file_stem: String,
    /// Chart title.
    pub title: String,
    /// Y-axis label (the unit).
    pub y_label: String,
    /// What is plotted.
    pub value: ValueExpr,
}

impl ChartSpec {
    /// A chart of one field, named after it.
    pub fn field(name: &str) -> Self {
        Self {
            file_stem: name.to_string(),
            title: name.to_string(),
            y_label: name.to_string(),
            value: ValueExpr::Field(name.to_string()),
        }
    }
}

/// The per-slot replay fetch charts (same panels as the Grafana dashboard).
pub fn replay_charts() -> Vec<ChartSpec> {
    let chart = |file_stem: &str, title: &str, y_label: &str, value| ChartSpec {
        file_stem: file_stem.into(),
        title: title.into(),
        y_label: y_label.into(),
        value,
    };
    let field = |name: &str| ValueExpr::Field(name.into());
    vec![
        chart(
            "fetch_entries_time",
            "Fetch entries time per slot",
            "µs",
            field("fetch_entries_time"),
        ),
        chart(
            "fetch_entries_fail_time",
            "Failed fetch time per slot",
            "µs",
            field("fetch_entries_fail_time"),
        ),
        chart(
            "num_execute_batches",
            "Execute batches per slot",
            "batches",
            field("num_execute_batches"),
        ),
        chart(
            "confirmation_time_us",
            "Confirmation time per slot",
            "µs",
            field("confirmation_time_us"),
        ),
        chart(
            "replay_total_elapsed",
            "Replay total elapsed per slot",
            "µs",
            field("replay_total_elapsed"),
        ),
        chart(
            "total_shreds",
            "Shreds per slot",
            "shreds",
            field("total_shreds"),
        ),
        chart(
            "fetch_time_per_shred",
            "Fetch time per shred",
            "µs / shred",
            ValueExpr::Ratio {
                numerator: "fetch_entries_time".into(),
                denominator: "total_shreds".into(),
            },
        ),
    ]
}

fn number(point: &DataPoint, name: &str) -> Option<f64> {
    match point.field(name)? {
        FieldValue::I64(v) => Some(*v as f64),
        FieldValue::U64(v) => Some(*v as f64),
        FieldValue::F64(v) => Some(*v),
        FieldValue::Bool(_) | FieldValue::Str(_) => None,
    }
}

fn slot_of(point: &DataPoint) -> Option<u64> {
    match point.field("slot") {
        Some(FieldValue::I64(v)) => u64::try_from(*v).ok(),
        Some(FieldValue::U64(v)) => Some(*v),
        Some(FieldValue::F64(v)) if *v >= 0.0 && v.fract() == 0.0 => Some(*v as u64),
        _ => point.tag("slot").and_then(|s| s.parse().ok()),
    }
}

/// The `(slot, value)` lines of `value` in `measurement`, one per `host_id`, sorted by slot.
/// A slot reported twice by one host keeps its last value.
pub fn per_slot_lines(points: &[DataPoint], measurement: &str, value: &ValueExpr) -> Vec<Line> {
    let mut by_host: BTreeMap<&str, BTreeMap<u64, f64>> = BTreeMap::new();
    for p in points.iter().filter(|p| p.name == measurement) {
        let Some(slot) = slot_of(p) else { continue };
        let v = match value {
            ValueExpr::Field(f) => number(p, f),
            ValueExpr::Ratio {
                numerator,
                denominator,
            } => match (number(p, numerator), number(p, denominator)) {
                (Some(n), Some(d)) if d != 0.0 => Some(n / d),
                _ => None,
            },
        };
        if let Some(v) = v.filter(|v| v.is_finite()) {
            by_host
                .entry(p.tag("host_id").unwrap_or("(no host_id)"))
                .or_default()
                .insert(slot, v);
        }
    }
    by_host
        .into_iter()
        .map(|(host, slots)| Line {
            label: host.to_string(),
            points: slots.into_iter().collect(),
        })
        .collect()
}

/// Renders one chart of `measurement` from `points` as an SVG document. Errors when no point
/// has both a slot and the chart's value.
pub fn render_per_slot_svg(
    points: &[DataPoint],
    measurement: &str,
    chart: &ChartSpec,
) -> Result<String, MetricsError> {
    let lines = per_slot_lines(points, measurement, &chart.value);
    if lines.is_empty() {
        return Err(MetricsError::Plot {
            measurement: measurement.to_string(),
            reason: format!("no point has a `slot` and a value for {:?}", chart.value),
        });
    }
    Ok(svg::render(
        &format!("{} ({measurement})", chart.title),
        &chart.y_label,
        &lines,
    ))
}

/// Writes every chart of `charts` that has data to `out_dir/<file_stem>.svg`, returning the
/// files written; errors when none has data.
pub fn render_charts(
    points: &[DataPoint],
    measurement: &str,
    charts: &[ChartSpec],
    out_dir: &Path,
) -> Result<Vec<PathBuf>, MetricsError> {
    std::fs::create_dir_all(out_dir).map_err(|source| MetricsError::Io {
        action: "create",
        path: out_dir.to_path_buf(),
        source,
    })?;
    let mut written = Vec::new();
    for chart in charts {
        let Ok(svg) = render_per_slot_svg(points, measurement, chart) else {
            log::warn!("plot: no data for {} in {measurement}", chart.file_stem);
            continue;
        };
        let path = out_dir.join(format!("{}.svg", chart.file_stem));
        std::fs::write(&path, svg).map_err(|source| MetricsError::Io {
            action: "write",
            path: path.clone(),
            source,
        })?;
        written.push(path);
    }
    if written.is_empty() {
        return Err(MetricsError::Plot {
            measurement: measurement.to_string(),
            reason: format!("none of the {} charts has data", charts.len()),
        });
    }
    Ok(written)
}

/// Reads the points of a line-protocol file.
pub fn load_line_protocol(path: &Path) -> Result<Vec<DataPoint>, MetricsError> {
    let text = std::fs::read_to_string(path).map_err(|source| MetricsError::Io {
        action: "read",
        path: path.to_path_buf(),
        source,
    })?;
    crate::parse::parse_lines(&text)
}

/// Reads every point of `measurement` from InfluxDB, with its tags (`GROUP BY *`).
pub fn load_influx(
    client: &InfluxClient,
    measurement: &str,
) -> Result<Vec<DataPoint>, MetricsError> {
    let quoted = measurement.replace('\\', "\\\\").replace('"', "\\\"");
    let series = client.query(&format!("SELECT * FROM \"{quoted}\" GROUP BY *"))?;
    Ok(series.iter().flat_map(|s| s.to_points()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(host: &str, slot: u64, fetch: i64, shreds: i64) -> DataPoint {
        let mut p = DataPoint::new(REPLAY_SLOT_STATS).at(1);
        p.add_tag("host_id", host)
            .add_field_i64("slot", slot as i64)
            .add_field_i64("fetch_entries_time", fetch)
            .add_field_i64("total_shreds", shreds);
        p
    }

    #[test]
    fn lines_per_host_sorted_by_slot_with_ratio() {
        let points = vec![
            stats("b", 12, 300, 3),
            stats("a", 11, 100, 0),
            stats("a", 10, 50, 5),
            stats("b", 11, 10, 1),
        ];
        let ratio = ValueExpr::Ratio {
            numerator: "fetch_entries_time".into(),
            denominator: "total_shreds".into(),
        };
        let lines = per_slot_lines(&points, REPLAY_SLOT_STATS, &ratio);
        assert_eq!(
            lines,
            vec![
                Line {
                    label: "a".into(),
                    points: vec![(10, 10.0)]
                },
                Line {
                    label: "b".into(),
                    points: vec![(11, 10.0), (12, 100.0)]
                },
            ],
            "slot 11 of host a has no shreds and is skipped"
        );
    }

    #[test]
    fn slot_may_be_a_tag_and_other_measurements_are_ignored() {
        let mut p = DataPoint::new(REPLAY_SLOT_STATS);
        p.add_tag("slot", "42").add_field_f64("total_shreds", 7.0);
        let mut other = DataPoint::new("other");
        other
            .add_field_i64("slot", 1)
            .add_field_i64("total_shreds", 1);
        let lines = per_slot_lines(
            &[p, other],
            REPLAY_SLOT_STATS,
            &ValueExpr::Field("total_shreds".into()),
        );
        assert_eq!(
            lines,
            vec![Line {
                label: "(no host_id)".into(),
                points: vec![(42, 7.0)]
            }]
        );
    }

    #[test]
    fn render_charts_writes_only_charts_with_data() {
        let dir = tempfile::tempdir().expect("tempdir");
        let points = vec![stats("a", 1, 10, 2), stats("a", 2, 20, 4)];
        let files = render_charts(&points, REPLAY_SLOT_STATS, &replay_charts(), dir.path())
            .expect("charts");
        let names: Vec<String> = files
            .iter()
            .filter_map(|f| f.file_name())
            .map(|f| f.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names,
            [
                "fetch_entries_time.svg",
                "total_shreds.svg",
                "fetch_time_per_shred.svg"
            ]
        );
        let svg =
            std::fs::read_to_string(dir.path().join("fetch_time_per_shred.svg")).expect("read");
        assert!(svg.contains("Fetch time per shred (replay-slot-stats)"));
        let err =
            render_charts(&points, "nothing", &replay_charts(), dir.path()).expect_err("no data");
        assert!(err.to_string().contains("none of the 7 charts"), "{err}");
    }
}
