//! A minimal JSON writer for the block encoder, appending straight to one `String` with no
//! intermediate tree (a mainnet block is thousands of transactions). Base58, base64 and
//! fixed literals need no escaping; text from the ledger (log messages, mints, reward
//! keys) goes through [`JsonOut::str`], which escapes as JSON requires.

use std::fmt::Write;

use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;

use super::base58::{Base58Scratch, MAX_BASE58_INPUT, encode_into};
use crate::error::RpcError;

/// The output buffer of one response.
#[derive(Debug, Default)]
pub(crate) struct JsonOut {
    s: String,
    b58: Base58Scratch,
    /// The first value refused by [`Self::b58`] (its length): the whole output is refused.
    b58_too_long: Option<usize>,
}

impl JsonOut {
    pub(crate) fn with_capacity(n: usize) -> Self {
        Self {
            s: String::with_capacity(n),
            ..Self::default()
        }
    }

    /// The text, or `Base58TooLong` when a value was too long for base58.
    pub(crate) fn into_string(self) -> Result<String, RpcError> {
        match self.b58_too_long {
            Some(len) => Err(RpcError::Base58TooLong {
                len,
                max: MAX_BASE58_INPUT,
            }),
            None => Ok(self.s),
        }
    }

    /// Raw JSON text (punctuation, literals, `"key":` prefixes).
    #[inline]
    pub(crate) fn raw(&mut self, text: &str) {
        self.s.push_str(text);
    }

    /// `"<base58 of bytes>"`. Base58 costs time quadratic in the input, so a value longer
    /// than `MAX_BASE58_INPUT` (the largest transaction) is not encoded: it poisons the
    /// output, and [`Self::into_string`] fails.
    #[inline]
    pub(crate) fn b58(&mut self, bytes: &[u8]) {
        if bytes.len() > MAX_BASE58_INPUT {
            self.b58_too_long.get_or_insert(bytes.len());
            self.s.push_str("\"\"");
            return;
        }
        self.s.push('"');
        encode_into(bytes, &mut self.s, &mut self.b58);
        self.s.push('"');
    }

    /// `"<base64 of bytes>"` (standard alphabet, padded).
    #[inline]
    pub(crate) fn b64(&mut self, bytes: &[u8]) {
        self.s.push('"');
        BASE64.encode_string(bytes, &mut self.s);
        self.s.push('"');
    }

    /// `"<text>"`, escaped: `"` and `\\` and control characters (as `\\n`, `\\u001f`, ...);
    /// everything else, non-ASCII included, is written as is (serde_json's choices).
    pub(crate) fn str(&mut self, text: &str) {
        self.s.reserve(text.len() + 2);
        self.s.push('"');
        let mut start = 0;
        for (i, b) in text.bytes().enumerate() {
            let escaped = match b {
                b'"' => "\\\"",
                b'\\' => "\\\\",
                b'\n' => "\\n",
                b'\r' => "\\r",
                b'\t' => "\\t",
                0x08 => "\\b",
                0x0c => "\\f",
                0..=0x1f => "",
                _ => continue,
            };
            // `i` is at an ASCII byte, so both slices fall on character boundaries.
            self.s.push_str(text.get(start..i).unwrap_or_default());
            if escaped.is_empty() {
                let _ = write!(self.s, "\\u{b:04x}");
            } else {
                self.s.push_str(escaped);
            }
            start = i + 1;
        }
        self.s.push_str(text.get(start..).unwrap_or_default());
        self.s.push('"');
    }

    /// A float as serde_json writes it (shortest round-trip form); not finite is `null`.
    pub(crate) fn f64(&mut self, v: f64) {
        match serde_json::to_string(&v) {
            Ok(text) => self.s.push_str(&text),
            Err(_) => self.s.push_str("null"),
        }
    }

    #[inline]
    pub(crate) fn u64(&mut self, v: u64) {
        // Writing into a `String` cannot fail.
        let _ = write!(self.s, "{v}");
    }

    #[inline]
    pub(crate) fn i64(&mut self, v: i64) {
        let _ = write!(self.s, "{v}");
    }

    #[inline]
    pub(crate) fn bool(&mut self, v: bool) {
        self.s.push_str(if v { "true" } else { "false" });
    }

    /// `[a,b,c]`: each item written by `each`, commas between. The one array writer of the
    /// encoders.
    pub(crate) fn array<T>(
        &mut self,
        items: impl IntoIterator<Item = T>,
        mut each: impl FnMut(&mut Self, T),
    ) {
        let _ = self.try_array(items, |out, item| {
            each(out, item);
            Ok::<(), std::convert::Infallible>(())
        });
    }

    /// [`Self::array`] with a fallible writer; stops at the first error.
    pub(crate) fn try_array<T, E>(
        &mut self,
        items: impl IntoIterator<Item = T>,
        mut each: impl FnMut(&mut Self, T) -> Result<(), E>,
    ) -> Result<(), E> {
        self.s.push('[');
        for (i, item) in items.into_iter().enumerate() {
            if i > 0 {
                self.s.push(',');
            }
            each(self, item)?;
        }
        self.s.push(']');
        Ok(())
    }

    /// `[1,2,3]` from bytes (account index lists).
    pub(crate) fn u8_array(&mut self, bytes: &[u8]) {
        self.array(bytes, |out, b| {
            let _ = write!(out.s, "{b}");
        });
    }

    /// An optional number or `null`.
    pub(crate) fn opt_u64(&mut self, v: Option<u64>) {
        match v {
            Some(v) => self.u64(v),
            None => self.raw("null"),
        }
    }

    pub(crate) fn opt_i64(&mut self, v: Option<i64>) {
        match v {
            Some(v) => self.i64(v),
            None => self.raw("null"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_valid_json() {
        let mut out = JsonOut::default();
        out.raw("{\"a\":");
        out.b58(&[0, 0, 1]);
        out.raw(",\"b\":");
        out.b64(b"hi!");
        out.raw(",\"c\":");
        out.u8_array(&[1, 2, 255]);
        out.raw(",\"d\":");
        out.opt_i64(Some(-5));
        out.raw(",\"e\":");
        out.opt_u64(None);
        out.raw(",\"f\":");
        out.bool(true);
        out.raw("}");
        let text = out.into_string().expect("no long base58 value");
        let v: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        assert_eq!(
            v,
            serde_json::json!({"a": "112", "b": "aGkh", "c": [1, 2, 255], "d": -5, "e": null, "f": true})
        );
    }

    #[test]
    fn escapes_strings_as_serde_json_reads_them() {
        let texts = [
            "plain",
            "quote \" backslash \\ slash /",
            "ctl \u{0} \u{1f} \n \r \t \u{8} \u{c} del \u{7f}",
            "unicode é ✓ 🦀",
            "",
        ];
        for text in texts {
            let mut out = JsonOut::default();
            out.str(text);
            let s = out.into_string().expect("text");
            let back: String = serde_json::from_str(&s).expect("valid JSON string");
            assert_eq!(back, text, "{s}");
        }
        let mut out = JsonOut::default();
        out.raw("[");
        out.f64(1.5);
        out.raw(",");
        out.f64(1e21);
        out.raw(",");
        out.f64(f64::NAN);
        out.raw("]");
        let v: serde_json::Value =
            serde_json::from_str(&out.into_string().expect("text")).expect("valid");
        assert_eq!(v, serde_json::json!([1.5, 1e21, null]));
    }

    #[test]
    fn refuses_base58_longer_than_a_transaction() {
        let mut out = JsonOut::default();
        out.b58(&[7u8; MAX_BASE58_INPUT]);
        assert!(out.into_string().is_ok());
        let mut out = JsonOut::default();
        out.b58(&[7u8; 1 << 20]);
        let e = out.into_string().expect_err("1 MiB of base58 is refused");
        assert_eq!(e.code(), -32602);
    }
}
