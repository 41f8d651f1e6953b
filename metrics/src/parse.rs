//! A line-protocol reader: the inverse of [`crate::line_protocol`], used to plot from a
//! file and by tests. Escapes are read as InfluxDB reads them: in names only `\,`, `\=` and
//! `\ ` (and a measurement's leading `\#`) are escapes, any other backslash is literal. What
//! our writer produces reads back exactly except where the writer documents a loss.
//!
//! Empty lines and `#` comments are skipped; other whitespace is never skipped (a name may
//! start with a tab). A line without a timestamp gets 0.

use std::iter::Peekable;
use std::str::Chars;

use crate::MetricsError;
use crate::datapoint::{DataPoint, FieldValue};
use crate::line_protocol::NameKind;

/// Parses every point in `text`.
pub fn parse_lines(text: &str) -> Result<Vec<DataPoint>, MetricsError> {
    let mut reader = Reader {
        chars: text.chars().peekable(),
        line: 1,
    };
    let mut points = Vec::new();
    while let Some(&c) = reader.chars.peek() {
        match c {
            '\n' => {
                reader.bump();
            }
            '\r' => {
                reader.chars.next();
            }
            '#' => reader.skip_line(),
            _ => points.push(reader.point()?),
        }
    }
    Ok(points)
}

struct Reader<'a> {
    chars: Peekable<Chars<'a>>,
    line: usize,
}

impl Reader<'_> {
    fn err<T>(&self, reason: impl Into<String>) -> Result<T, MetricsError> {
        Err(MetricsError::Parse {
            line: self.line,
            reason: reason.into(),
        })
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next();
        if c == Some('\n') {
            self.line += 1;
        }
        c
    }

    fn skip_line(&mut self) {
        while let Some(c) = self.bump() {
            if c == '\n' {
                break;
            }
        }
    }

    /// Reads an escaped name up to (not including) one of `stops`.
    fn name(&mut self, kind: NameKind, stops: &[char]) -> String {
        let mut out = String::new();
        let mut first = true;
        while let Some(&c) = self.chars.peek() {
            if stops.contains(&c) || c == '\n' {
                break;
            }
            self.chars.next();
            if c == '\\' {
                match self.chars.peek() {
                    Some(&n)
                        if kind.escapes(n)
                            || (first && kind == NameKind::Measurement && n == '#') =>
                    {
                        out.push(n);
                        self.chars.next();
                    }
                    _ => out.push('\\'),
                }
            } else {
                out.push(c);
            }
            first = false;
        }
        out
    }

    fn expect(&mut self, want: char, what: &str) -> Result<(), MetricsError> {
        match self.chars.peek() {
            Some(&c) if c == want => {
                self.chars.next();
                Ok(())
            }
            Some(&c) => self.err(format!("expected `{want}` {what}, found `{c}`")),
            None => self.err(format!("expected `{want}` {what}, found end of input")),
        }
    }

    fn point(&mut self) -> Result<DataPoint, MetricsError> {
        let name = self.name(NameKind::Measurement, &[',', ' ']);
        if name.is_empty() {
            return self.err("empty measurement name");
        }
        let mut point = DataPoint::new(name).at(0);
        while self.chars.peek() == Some(&',') {
            self.chars.next();
            let key = self.name(NameKind::Key, &['=', ',', ' ']);
            self.expect('=', &format!("after tag key `{key}`"))?;
            let value = self.name(NameKind::Key, &[',', ' ']);
            if key.is_empty() || value.is_empty() {
                return self.err(format!("empty tag key or value in `{key}={value}`"));
            }
            point.tags.push((key.into(), value));
        }
        self.expect(' ', "before the fields")?;
        loop {
            let key = self.name(NameKind::Key, &['=', ',', ' ']);
            self.expect('=', &format!("after field key `{key}`"))?;
            if key.is_empty() {
                return self.err("empty field key");
            }
            let value = self.value(&key)?;
            point.fields.push((key.into(), value));
            if self.chars.peek() != Some(&',') {
                break;
            }
            self.chars.next();
        }
        if self.chars.peek() == Some(&' ') {
            self.chars.next();
            let digits: String =
                std::iter::from_fn(|| self.chars.next_if(|c| *c == '-' || c.is_ascii_digit()))
                    .collect();
            point.timestamp_ns = match digits.parse() {
                Ok(ts) => ts,
                Err(_) => return self.err(format!("bad timestamp `{digits}`")),
            };
        }
        match self.chars.peek() {
            None | Some('\n') => Ok(point),
            Some('\r') => {
                self.chars.next();
                Ok(point)
            }
            Some(&c) => self.err(format!("unexpected `{c}` after the point")),
        }
    }

    fn value(&mut self, key: &str) -> Result<FieldValue, MetricsError> {
        if self.chars.peek() == Some(&'"') {
            self.chars.next();
            let mut s = String::new();
            loop {
                match self.bump() {
                    Some('"') => return Ok(FieldValue::Str(s)),
                    Some('\\') => match self.chars.peek() {
                        Some(&n @ ('"' | '\\')) => {
                            s.push(n);
                            self.chars.next();
                        }
                        _ => s.push('\\'),
                    },
                    Some(c) => s.push(c),
                    None => return self.err(format!("unterminated string in field `{key}`")),
                }
            }
        }
        let raw: String = std::iter::from_fn(|| {
            self.chars
                .next_if(|c| !matches!(c, ',' | ' ' | '\n' | '\r'))
        })
        .collect();
        let bad = || MetricsError::Parse {
            line: self.line,
            reason: format!("bad value `{raw}` for field `{key}`"),
        };
        let value = match raw.as_str() {
            "t" | "T" | "true" | "True" | "TRUE" => FieldValue::Bool(true),
            "f" | "F" | "false" | "False" | "FALSE" => FieldValue::Bool(false),
            _ => {
                if let Some(int) = raw.strip_suffix('i') {
                    FieldValue::I64(int.parse().map_err(|_| bad())?)
                } else if let Some(uint) = raw.strip_suffix('u') {
                    FieldValue::U64(uint.parse().map_err(|_| bad())?)
                } else {
                    let v: f64 = raw.parse().map_err(|_| bad())?;
                    if !v.is_finite() {
                        return Err(bad());
                    }
                    FieldValue::F64(v)
                }
            }
        };
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::line_protocol::write_line;
    use proptest::prelude::*;

    #[test]
    fn reads_types_tags_and_comments() {
        let text = "# comment\n\nm,host_id=h,k=v a=1i,b=2u,c=1.5,d=t,e=\"x\\\"y\" 42\r\nn f=-3 \n";
        let err = parse_lines(text).expect_err("trailing space before newline has no timestamp");
        assert!(matches!(err, MetricsError::Parse { line: 4, .. }), "{err}");
        let points = parse_lines(&text.replace("-3 \n", "-3\n")).expect("valid");
        assert_eq!(points.len(), 2);
        let m = &points[0];
        assert_eq!((m.name.as_ref(), m.timestamp_ns), ("m", 42));
        assert_eq!(m.tag("host_id"), Some("h"));
        assert_eq!(m.field("a"), Some(&FieldValue::I64(1)));
        assert_eq!(m.field("b"), Some(&FieldValue::U64(2)));
        assert_eq!(m.field("c"), Some(&FieldValue::F64(1.5)));
        assert_eq!(m.field("d"), Some(&FieldValue::Bool(true)));
        assert_eq!(m.field("e"), Some(&FieldValue::Str("x\"y".into())));
        assert_eq!(points[1].field("f"), Some(&FieldValue::F64(-3.0)));
        assert_eq!(points[1].timestamp_ns, 0);
    }

    #[test]
    fn errors_carry_the_line_number() {
        for (text, line) in [
            ("ok v=1i 1\nbad\n", 2),
            ("m v=\"open\n\nx", 3),
            ("m v=1x 1", 1),
        ] {
            match parse_lines(text) {
                Err(MetricsError::Parse { line: got, .. }) => assert_eq!(got, line, "{text:?}"),
                other => panic!("{text:?}: expected a parse error, got {other:?}"),
            }
        }
    }

    fn name() -> impl Strategy<Value = String> {
        // Weighted towards the characters that need escaping.
        proptest::collection::vec(
            prop_oneof![
                3 => prop::sample::select(vec!['\\', ',', '=', ' ', '"', 'a', 'é', '#']),
                1 => any::<char>().prop_filter("no line breaks", |c| *c != '\n' && *c != '\r'),
            ],
            1..12,
        )
        .prop_map(|cs| cs.into_iter().collect())
    }

    fn value() -> impl Strategy<Value = FieldValue> {
        prop_oneof![
            any::<i64>().prop_map(FieldValue::I64),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(FieldValue::F64),
            any::<bool>().prop_map(FieldValue::Bool),
            any::<String>().prop_map(FieldValue::Str),
        ]
    }

    proptest! {
        #[test]
        fn parse_inverts_write(
            measurement in name(),
            tags in proptest::collection::vec((name(), name()), 0..4),
            fields in proptest::collection::vec((name(), value()), 1..5),
            ts in any::<i64>(),
        ) {
            let mut p = DataPoint::new(measurement).at(ts);
            for (k, v) in tags { p.add_tag(k, &v); }
            for (k, v) in fields { p.add_field(k, v); }
            let mut text = String::new();
            prop_assert!(write_line(&mut text, &p, None));
            let back = parse_lines(&text).map_err(|e| TestCaseError::fail(format!("{e}: {text:?}")))?;
            // The writer's documented losses: a trailing backslash gains a space, and a
            // measurement's leading `\#` reads as `#`.
            let lossy = |n: &str| if n.ends_with('\\') { format!("{n} ") } else { n.to_string() };
            let name = lossy(&p.name);
            p.name = name.strip_prefix("\\#").map_or(name.clone(), |rest| format!("#{rest}")).into();
            for (k, v) in &mut p.tags { *k = lossy(k).into(); *v = lossy(v); }
            for (k, _) in &mut p.fields { *k = lossy(k).into(); }
            prop_assert_eq!(back, vec![p]);
        }
    }
}
