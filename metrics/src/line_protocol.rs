//! InfluxDB line protocol: `name,host_id=ID[,tag=v]* field=v[,field=v]* <unix ns>\n`.
//!
//! Escaping (`docs/metrics.md#line-protocol-and-escaping`, which Agave does not do): measurement
//! names escape `,` and space; tag
//! keys, tag values and field keys escape `,`, `=` and space; string field values escape `"`
//! and `\`. A backslash in a name is literal, as InfluxDB reads it (`a\b` stays `a\b`, and
//! `a\,` is written `a\\,`). Cases the protocol cannot express are made safe rather than
//! exact, so one odd string never corrupts the line (InfluxDB would reject the whole batch):
//! - a name ending in `\` would escape the separator after it (InfluxDB checks only the
//!   preceding byte); an escaped space is added after it, so it reads back as `\ `.
//! - CR and LF end a line and have no escape in names; they become an escaped space.
//! - a measurement starting with `#` would make the line a comment; it is written `\#`
//!   (InfluxDB keeps the backslash; [`crate::parse`] reads `#`).
//!
//! Lines that InfluxDB would reject are not produced: empty tag values and tags or fields
//! with an empty key are left out, non-finite floats are left out, and a point with an
//! empty name or no field left writes nothing.

use std::fmt::Write as _;

use crate::datapoint::{DataPoint, FieldValue};

/// Which characters a name position escapes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameKind {
    /// A measurement name: `,` and space.
    Measurement,
    /// A tag key, tag value or field key: `,`, `=` and space.
    Key,
}

impl NameKind {
    /// True when `c` is written as `\c` in this position.
    pub fn escapes(self, c: char) -> bool {
        match self {
            Self::Measurement => c == ',' || c == ' ',
            Self::Key => c == ',' || c == ' ' || c == '=',
        }
    }
}

/// Appends `name` escaped for `kind`.
pub fn escape_name(out: &mut String, name: &str, kind: NameKind) {
    // Fast path: most names are plain identifiers and are copied in one go.
    let special = |b: u8| matches!(b, b',' | b' ' | b'=' | b'\\' | b'\n' | b'\r');
    if !name.bytes().any(special) && !name.starts_with('#') {
        out.push_str(name);
        return;
    }
    let mut chars = name.chars().peekable();
    let mut first = true;
    while let Some(c) = chars.next() {
        match c {
            '#' if first && kind == NameKind::Measurement => out.push_str("\\#"),
            '\n' | '\r' => out.push_str("\\ "),
            c if kind.escapes(c) => {
                out.push('\\');
                out.push(c);
            }
            '\\' if chars.peek().is_none() => out.push_str("\\\\ "),
            c => out.push(c),
        }
        first = false;
    }
}

/// Appends `value` as a quoted string field value.
pub fn escape_string_field(out: &mut String, value: &str) {
    out.reserve(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
}

/// Appends the decimal digits of `v` (what `write!("{v}")` gives, without the formatter).
fn push_int(out: &mut String, v: i64) {
    // u64::MAX has 20 digits, so `at` never goes below 0 before `n` reaches 0.
    let mut digits = [0u8; 20];
    let mut n = v.unsigned_abs();
    let mut at = digits.len();
    while let Some(slot) = at.checked_sub(1).and_then(|i| digits.get_mut(i)) {
        // `n % 10 < 10`, so the cast cannot truncate.
        *slot = b'0' + (n % 10) as u8;
        at -= 1;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if v < 0 {
        out.push('-');
    }
    for &d in digits.get(at..).unwrap_or_default() {
        out.push(char::from(d));
    }
}

/// Appends a field value; returns false (appending nothing) for a value InfluxDB rejects.
fn write_value(out: &mut String, value: &FieldValue) -> bool {
    // `write!` into a String cannot fail; the results are ignored for that reason.
    match value {
        FieldValue::I64(v) => {
            push_int(out, *v);
            out.push('i');
        }
        FieldValue::U64(v) => {
            push_int(out, i64::try_from(*v).unwrap_or(i64::MAX));
            out.push('i');
        }
        FieldValue::F64(v) if v.is_finite() => {
            let _ = write!(out, "{v}");
        }
        FieldValue::F64(_) => return false,
        FieldValue::Bool(v) => out.push_str(if *v { "true" } else { "false" }),
        FieldValue::Str(v) => escape_string_field(out, v),
    }
    true
}

/// Appends one line for `point` (ending in `\n`), with a `host_id` tag first when given and
/// the point has none of its own. Returns false, appending nothing, when the point has no
/// name or no writable field.
pub fn write_line(out: &mut String, point: &DataPoint, host_id: Option<&str>) -> bool {
    if point.name.is_empty() {
        return false;
    }
    let start = out.len();
    escape_name(out, &point.name, NameKind::Measurement);
    let own_host_id = point.tags.iter().any(|(k, _)| k == "host_id");
    if let Some(id) = host_id.filter(|id| !id.is_empty() && !own_host_id) {
        out.push_str(",host_id=");
        escape_name(out, id, NameKind::Key);
    }
    for (key, value) in &point.tags {
        if key.is_empty() || value.is_empty() {
            continue;
        }
        out.push(',');
        escape_name(out, key, NameKind::Key);
        out.push('=');
        escape_name(out, value, NameKind::Key);
    }
    let mut separator = ' ';
    for (key, value) in &point.fields {
        if key.is_empty() {
            continue;
        }
        let field_start = out.len();
        out.push(separator);
        escape_name(out, key, NameKind::Key);
        out.push('=');
        if write_value(out, value) {
            separator = ',';
        } else {
            out.truncate(field_start);
        }
    }
    if separator == ' ' {
        out.truncate(start);
        return false;
    }
    out.push(' ');
    push_int(out, point.timestamp_ns);
    out.push('\n');
    true
}

/// Serialises `points` into one body; returns it and the number of lines in it.
pub fn to_body<'a>(
    points: impl IntoIterator<Item = &'a DataPoint>,
    host_id: Option<&str>,
) -> (String, usize) {
    let mut body = String::new();
    let mut lines = 0;
    for p in points {
        lines += usize::from(write_line(&mut body, p, host_id));
    }
    (body, lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(p: &DataPoint, host: Option<&str>) -> String {
        let mut s = String::new();
        write_line(&mut s, p, host);
        s
    }

    fn point(name: &str) -> DataPoint {
        DataPoint::new(name.to_string()).at(1_700_000_000_123_456_789)
    }

    #[test]
    fn golden_types_and_host_id() {
        let mut p = point("replay-slot-stats");
        p.add_tag("kind", "full")
            .add_field_i64("slot", -3)
            .add_field_u64("big", u64::MAX)
            .add_field_f64("f", 2.0)
            .add_field_f64("g", 0.125)
            .add_field_bool("t", true)
            .add_field_bool("n", false)
            .add_field_str("s", "x");
        assert_eq!(
            line(&p, Some("node-1")),
            "replay-slot-stats,host_id=node-1,kind=full slot=-3i,big=9223372036854775807i,\
             f=2,g=0.125,t=true,n=false,s=\"x\" 1700000000123456789\n"
        );
    }

    #[test]
    fn golden_measurement_escapes_comma_and_space_only() {
        let mut p = point("a b,c=d");
        p.add_field_i64("v", 1);
        assert_eq!(line(&p, None), "a\\ b\\,c=d v=1i 1700000000123456789\n");
    }

    #[test]
    fn golden_tag_key_and_value_escape_comma_equals_space() {
        let mut p = point("m");
        p.add_tag("k ,=", "v ,=\"").add_field_i64("v", 1);
        assert_eq!(
            line(&p, Some("h=1")),
            "m,host_id=h\\=1,k\\ \\,\\==v\\ \\,\\=\" v=1i 1700000000123456789\n"
        );
    }

    #[test]
    fn golden_field_key_escapes_comma_equals_space() {
        let mut p = point("m");
        p.add_field_i64("a b,c=d", 1);
        assert_eq!(line(&p, None), "m a\\ b\\,c\\=d=1i 1700000000123456789\n");
    }

    #[test]
    fn golden_string_field_escapes_quote_and_backslash() {
        let mut p = point("m");
        p.add_field_str("s", r#"say "hi" \ ,= end\"#);
        assert_eq!(
            line(&p, None),
            "m s=\"say \\\"hi\\\" \\\\ ,= end\\\\\" 1700000000123456789\n"
        );
    }

    #[test]
    fn golden_backslash_in_names_is_literal_except_at_the_end() {
        let mut p = point("m\\");
        p.add_tag("t", "a\\b")
            .add_tag("u", "a\\,")
            .add_tag("w", "\\\\x");
        p.add_field_i64("k\\", 1);
        assert_eq!(
            line(&p, None),
            "m\\\\ ,t=a\\b,u=a\\\\,,w=\\\\x k\\\\ =1i 1700000000123456789\n"
        );
    }

    #[test]
    fn golden_leading_hash_is_not_a_comment() {
        let mut p = point("#m#");
        p.add_field_i64("#", 1);
        assert_eq!(line(&p, None), "\\#m# #=1i 1700000000123456789\n");
    }

    #[test]
    fn golden_newlines_in_names_become_escaped_spaces() {
        let mut p = point("m\n");
        p.add_tag("t", "a\r\nb").add_field_str("s", "line\nbreak");
        assert_eq!(
            line(&p, None),
            "m\\ ,t=a\\ \\ b s=\"line\nbreak\" 1700000000123456789\n"
        );
    }

    #[test]
    fn integers_format_like_display() {
        for v in [0, 1, -1, 9, 10, -10, 1234567890, i64::MIN, i64::MAX] {
            let mut out = String::new();
            push_int(&mut out, v);
            assert_eq!(out, v.to_string());
        }
    }

    #[test]
    fn unwritable_parts_are_left_out() {
        let mut p = point("m");
        p.add_tag("empty", "")
            .add_tag("", "nokey")
            .add_field_f64("nan", f64::NAN)
            .add_field_f64("inf", f64::INFINITY)
            .add_field_i64("", 5)
            .add_field_i64("ok", 1);
        assert_eq!(line(&p, None), "m ok=1i 1700000000123456789\n");
    }

    #[test]
    fn points_without_fields_or_name_write_nothing() {
        let mut p = point("m");
        p.add_field_f64("nan", f64::NAN);
        let mut out = String::from("keep\n");
        assert!(!write_line(&mut out, &p, Some("h")));
        let mut q = point("");
        q.add_field_i64("v", 1);
        assert!(!write_line(&mut out, &q, Some("h")));
        assert_eq!(out, "keep\n");
    }

    #[test]
    fn own_host_id_tag_wins() {
        let mut p = point("m");
        p.add_tag("host_id", "mine").add_field_bool("b", true);
        assert_eq!(
            line(&p, Some("global")),
            "m,host_id=mine b=true 1700000000123456789\n"
        );
    }

    #[test]
    fn body_counts_written_lines() {
        let mut a = point("a");
        a.add_field_i64("v", 1);
        let b = point("b");
        let (body, n) = to_body([&a, &b, &a], Some("h"));
        assert_eq!(n, 2);
        assert_eq!(body.lines().count(), 2);
    }
}
