//! A protobuf wire-format reader for the few messages Agave stores (`TransactionStatusMeta`,
//! `Rewards`): fields are walked in order, nothing is copied, and every length is checked
//! against the bytes left before it is used. Unknown fields are skipped (as protobuf
//! requires); groups (wire types 3 and 4, unused since proto2) are refused.

/// One field's value as it sits on the wire.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Wire<'a> {
    Varint(u64),
    Fixed64(u64),
    Bytes(&'a [u8]),
    Fixed32(u32),
}

impl<'a> Wire<'a> {
    /// A varint field, or an error naming `field`.
    pub(crate) fn varint(self, field: &str) -> Result<u64, String> {
        match self {
            Self::Varint(v) => Ok(v),
            other => Err(format!(
                "{field}: expected a varint, found {}",
                other.kind()
            )),
        }
    }

    /// A length-delimited field (bytes, string, message, packed list).
    pub(crate) fn bytes(self, field: &str) -> Result<&'a [u8], String> {
        match self {
            Self::Bytes(b) => Ok(b),
            other => Err(format!("{field}: expected bytes, found {}", other.kind())),
        }
    }

    /// A UTF-8 string field.
    pub(crate) fn str(self, field: &str) -> Result<&'a str, String> {
        std::str::from_utf8(self.bytes(field)?).map_err(|e| format!("{field}: {e}"))
    }

    /// A 32-bit unsigned field (protobuf truncates a wider varint).
    pub(crate) fn u32(self, field: &str) -> Result<u32, String> {
        Ok(self.varint(field)? as u32)
    }

    /// A `double` field.
    pub(crate) fn f64(self, field: &str) -> Result<f64, String> {
        match self {
            Self::Fixed64(v) => Ok(f64::from_bits(v)),
            other => Err(format!(
                "{field}: expected a double, found {}",
                other.kind()
            )),
        }
    }

    fn kind(self) -> &'static str {
        match self {
            Self::Varint(_) => "a varint",
            Self::Fixed64(_) => "a fixed64",
            Self::Bytes(_) => "bytes",
            Self::Fixed32(_) => "a fixed32",
        }
    }
}

/// The fields of one message, in wire order.
pub(crate) struct Fields<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Fields<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, pos: 0 }
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&end| end <= self.bytes.len())
            .ok_or_else(|| {
                format!(
                    "a field of {n} bytes runs past the end at byte {}",
                    self.pos
                )
            })?;
        let out = self.bytes.get(self.pos..end).unwrap_or_default();
        self.pos = end;
        Ok(out)
    }

    fn varint(&mut self) -> Result<u64, String> {
        let (v, used) = read_varint(self.bytes.get(self.pos..).unwrap_or_default())
            .ok_or_else(|| format!("bad varint at byte {}", self.pos))?;
        self.pos += used;
        Ok(v)
    }

    fn field(&mut self) -> Result<(u32, Wire<'a>), String> {
        let tag = self.varint()?;
        let number = u32::try_from(tag >> 3).map_err(|_| format!("field number {}", tag >> 3))?;
        if number == 0 {
            return Err("field number 0".into());
        }
        let value = match tag & 7 {
            0 => Wire::Varint(self.varint()?),
            1 => Wire::Fixed64(u64::from_le_bytes(
                self.take(8)?.try_into().unwrap_or_default(),
            )),
            2 => {
                let len = self.varint()?;
                let len = usize::try_from(len).map_err(|_| format!("length {len}"))?;
                Wire::Bytes(self.take(len)?)
            }
            5 => Wire::Fixed32(u32::from_le_bytes(
                self.take(4)?.try_into().unwrap_or_default(),
            )),
            other => return Err(format!("field {number}: unsupported wire type {other}")),
        };
        Ok((number, value))
    }
}

impl<'a> Iterator for Fields<'a> {
    type Item = Result<(u32, Wire<'a>), String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.pos >= self.bytes.len() {
            return None;
        }
        let field = self.field();
        if field.is_err() {
            // Stop after the first error: the position is no longer trustworthy.
            self.pos = self.bytes.len();
        }
        Some(field)
    }
}

/// The last occurrence of field `number` in a message (for a non-repeated field the last
/// one wins), the whole message walked: every field's framing is checked as [`Fields`]
/// checks it, with the same errors, but the fields skipped are not built.
pub(crate) fn last_field(bytes: &[u8], number: u32) -> Result<Option<Wire<'_>>, String> {
    let mut found = None;
    let mut pos = 0;
    while let Some(rest) = bytes.get(pos..).filter(|r| !r.is_empty()) {
        let (tag, used) = read_varint(rest).ok_or_else(|| format!("bad varint at byte {pos}"))?;
        if tag >> 3 == u64::from(number) && number != 0 {
            let mut fields = Fields { bytes, pos };
            found = Some(fields.field()?.1);
            pos = fields.pos;
            continue;
        }
        let after_tag = pos + used;
        let end = match tag & 7 {
            0 => {
                read_varint(bytes.get(after_tag..).unwrap_or_default()).map(|(_, n)| after_tag + n)
            }
            1 => Some(after_tag + 8),
            2 => read_varint(bytes.get(after_tag..).unwrap_or_default()).and_then(|(len, n)| {
                usize::try_from(len)
                    .ok()
                    .and_then(|len| (after_tag + n).checked_add(len))
            }),
            5 => Some(after_tag + 4),
            _ => None,
        };
        let field_ok = tag >> 3 != 0 && tag >> 3 <= u64::from(u32::MAX);
        match end.filter(|&end| end <= bytes.len() && field_ok) {
            Some(end) => pos = end,
            // Not a field the quick skip takes: the walk reads it, or names what is wrong.
            None => {
                let mut fields = Fields { bytes, pos };
                fields.field()?;
                pos = fields.pos;
            }
        }
    }
    Ok(found)
}

/// A base-128 varint at the start of `bytes`: its value and length (at most 10 bytes).
pub(crate) fn read_varint(bytes: &[u8]) -> Option<(u64, usize)> {
    // Tags and short lengths take one byte.
    if let Some(&b) = bytes.first()
        && b < 0x80
    {
        return Some((u64::from(b), 1));
    }
    let mut value = 0u64;
    for (i, &b) in bytes.iter().take(10).enumerate() {
        value |= u64::from(b & 0x7f) << (7 * i);
        if b & 0x80 == 0 {
            return Some((value, i + 1));
        }
    }
    None
}

/// Appends a repeated `uint64` field's values: packed (one length-delimited run) or not
/// (one varint per field). A packed run holds at most one value per byte, so `out` grows by
/// no more than the input's size.
pub(crate) fn push_u64s(value: Wire<'_>, out: &mut Vec<u64>, field: &str) -> Result<(), String> {
    match value {
        Wire::Varint(v) => out.push(v),
        Wire::Bytes(mut run) => {
            while !run.is_empty() {
                let (v, used) = read_varint(run).ok_or_else(|| format!("{field}: bad varint"))?;
                out.push(v);
                run = run.get(used..).unwrap_or_default();
            }
        }
        other => return Err(format!("{field}: expected uint64s, found {}", other.kind())),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_each_wire_type_and_packed_lists() {
        // field 1 varint 150; field 2 bytes "hi"; field 3 fixed64 1.5; field 4 packed [1, 300];
        // field 4 unpacked 7; field 5 fixed32 9.
        let mut msg = vec![0x08, 0x96, 0x01, 0x12, 2, b'h', b'i', 0x19];
        msg.extend_from_slice(&1.5f64.to_bits().to_le_bytes());
        msg.extend_from_slice(&[0x22, 3, 1, 0xac, 0x02, 0x20, 7, 0x2d, 9, 0, 0, 0]);
        let fields: Vec<_> = Fields::new(&msg).collect::<Result<_, _>>().expect("valid");
        assert_eq!(fields[0], (1, Wire::Varint(150)));
        assert_eq!(fields[1].1.str("s").expect("utf-8"), "hi");
        assert_eq!(fields[2].1.f64("d").expect("double"), 1.5);
        let mut list = Vec::new();
        push_u64s(fields[3].1, &mut list, "l").expect("packed");
        push_u64s(fields[4].1, &mut list, "l").expect("unpacked");
        assert_eq!(list, [1, 300, 7]);
        assert_eq!(fields[5], (5, Wire::Fixed32(9)));
    }

    /// [`last_field`] by the plain walk.
    fn last_by_walk(bytes: &[u8], number: u32) -> Result<Option<Wire<'_>>, String> {
        let mut last = None;
        for field in Fields::new(bytes) {
            let (n, v) = field?;
            if n == number {
                last = Some(v);
            }
        }
        Ok(last)
    }

    proptest::proptest! {
        #[test]
        fn the_quick_walk_agrees_with_the_plain_walk(
            fields in proptest::collection::vec((1u32..6, 0u8..8, proptest::collection::vec(proptest::arbitrary::any::<u8>(), 0..12)), 0..12),
            noise in proptest::collection::vec((proptest::arbitrary::any::<proptest::sample::Index>(), proptest::arbitrary::any::<u8>()), 0..3),
            cut in proptest::arbitrary::any::<proptest::sample::Index>(),
            number in 0u32..6,
        ) {
            // Mostly well-framed messages (each wire type, lengths that fit), then damaged.
            let mut bytes = Vec::new();
            for (n, wire, body) in fields {
                let wire = [0u8, 1, 2, 5][usize::from(wire % 4)];
                bytes.push(((n << 3) | u32::from(wire)) as u8);
                match wire {
                    0 => bytes.extend(body.iter().map(|b| b | 0x80).take(3).chain([1])),
                    1 => bytes.extend([7u8; 8]),
                    2 => {
                        bytes.push(body.len() as u8);
                        bytes.extend(&body);
                    }
                    _ => bytes.extend([9u8; 4]),
                }
            }
            for (at, v) in noise {
                if !bytes.is_empty() {
                    let i = at.index(bytes.len());
                    bytes[i] = v;
                }
            }
            bytes.truncate(cut.index(bytes.len() + 1));
            proptest::prop_assert_eq!(last_field(&bytes, number), last_by_walk(&bytes, number));
        }
    }

    #[test]
    fn refuses_truncation_groups_and_long_varints() {
        assert!(Fields::new(&[0x12, 5, 1]).next().expect("a field").is_err());
        assert!(Fields::new(&[0x0b]).next().expect("a field").is_err());
        assert!(
            Fields::new(&[
                0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1
            ])
            .next()
            .expect("a field")
            .is_err()
        );
        let mut after_error = Fields::new(&[0x12, 5, 1]);
        assert!(after_error.next().expect("a field").is_err());
        assert!(
            after_error.next().is_none(),
            "the walk stops at the first error"
        );
    }
}
