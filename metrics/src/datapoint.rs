//! `DataPoint`: one measurement with tags, typed fields and a timestamp.
//!
//! Fields keep their type until the agent thread serialises them, so building a point on a
//! producer thread costs a few small allocations and no formatting.

use std::borrow::Cow;
use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

/// A field value with the type InfluxDB stores it as.
#[derive(Debug, Clone, PartialEq)]
pub enum FieldValue {
    /// Written as `12i`.
    I64(i64),
    /// Written as `12i` too: InfluxDB 1.x rejects the `u` suffix unless built with unsigned
    /// support, so values above `i64::MAX` saturate to `i64::MAX` rather than failing the
    /// whole batch.
    U64(u64),
    /// Written plain (`1.5`); non-finite values are left out of the line, since InfluxDB
    /// rejects them and would drop the whole batch.
    F64(f64),
    /// Written as `true` / `false`.
    Bool(bool),
    /// Written quoted, with `"` and `\` escaped.
    Str(String),
}

/// Name of a measurement, tag or field: usually a `&'static str` literal, owned when built
/// at run time.
pub type Name = Cow<'static, str>;

/// One point: measurement name, tags, fields and a timestamp (ns since the Unix epoch).
///
/// The `host_id` tag is added when the point is serialised, so it is not stored here.
#[derive(Debug, Clone, PartialEq)]
pub struct DataPoint {
    /// Measurement name.
    pub name: Name,
    /// Nanoseconds since the Unix epoch.
    pub timestamp_ns: i64,
    /// Tags in insertion order.
    pub tags: Vec<(Name, String)>,
    /// Fields in insertion order. A point with no (finite) field is not written.
    pub fields: Vec<(Name, FieldValue)>,
}

/// Nanoseconds since the Unix epoch now; 0 for a clock before 1970, `i64::MAX` past 2262.
pub fn now_ns() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX))
}

impl DataPoint {
    /// A point named `name`, stamped now.
    pub fn new(name: impl Into<Name>) -> Self {
        Self {
            name: name.into(),
            timestamp_ns: now_ns(),
            tags: Vec::new(),
            fields: Vec::with_capacity(4),
        }
    }

    /// Sets the timestamp (ns since the Unix epoch).
    pub fn at(mut self, timestamp_ns: i64) -> Self {
        self.timestamp_ns = timestamp_ns;
        self
    }

    /// Adds a tag. Tags with an empty value are left out when serialised (InfluxDB rejects
    /// them, and a missing tag reads back as empty anyway).
    pub fn add_tag(&mut self, name: impl Into<Name>, value: &str) -> &mut Self {
        self.tags.push((name.into(), value.to_string()));
        self
    }

    /// Adds a field of any [`FieldValue`] type.
    pub fn add_field(&mut self, name: impl Into<Name>, value: FieldValue) -> &mut Self {
        self.fields.push((name.into(), value));
        self
    }

    /// Adds an integer field.
    pub fn add_field_i64(&mut self, name: impl Into<Name>, value: i64) -> &mut Self {
        self.add_field(name, FieldValue::I64(value))
    }

    /// Adds an unsigned integer field (stored as an InfluxDB integer, see [`FieldValue::U64`]).
    pub fn add_field_u64(&mut self, name: impl Into<Name>, value: u64) -> &mut Self {
        self.add_field(name, FieldValue::U64(value))
    }

    /// Adds a float field.
    pub fn add_field_f64(&mut self, name: impl Into<Name>, value: f64) -> &mut Self {
        self.add_field(name, FieldValue::F64(value))
    }

    /// Adds a boolean field.
    pub fn add_field_bool(&mut self, name: impl Into<Name>, value: bool) -> &mut Self {
        self.add_field(name, FieldValue::Bool(value))
    }

    /// Adds a string field.
    pub fn add_field_str(&mut self, name: impl Into<Name>, value: &str) -> &mut Self {
        self.add_field(name, FieldValue::Str(value.to_string()))
    }

    /// Value of the first field called `name`.
    pub fn field(&self, name: &str) -> Option<&FieldValue> {
        self.fields.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// Value of the first tag called `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

impl fmt::Display for DataPoint {
    /// The line-protocol form with no `host_id` tag, for logs and debugging.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut line = String::new();
        crate::line_protocol::write_line(&mut line, self, None);
        f.write_str(line.trim_end())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builder_keeps_order_and_types() {
        let mut p = DataPoint::new("replay-slot-stats").at(7);
        p.add_tag("cluster", "local")
            .add_field_i64("slot", 5)
            .add_field_u64("total_shreds", 64)
            .add_field_f64("ratio", 0.5)
            .add_field_bool("full", true)
            .add_field_str("note", "ok");
        assert_eq!(p.tag("cluster"), Some("local"));
        assert_eq!(p.field("total_shreds"), Some(&FieldValue::U64(64)));
        assert_eq!(p.field("missing"), None);
        assert_eq!(
            p.to_string(),
            "replay-slot-stats,cluster=local slot=5i,total_shreds=64i,ratio=0.5,full=true,note=\"ok\" 7"
        );
    }

    #[test]
    fn new_points_are_stamped_now() {
        let before = now_ns();
        let p = DataPoint::new("x");
        assert!(p.timestamp_ns >= before && p.timestamp_ns <= now_ns());
        assert!(
            before > 1_600_000_000_000_000_000,
            "clock reads as ns since 1970"
        );
    }
}
