//! compact-u16 ("short_vec") lengths (`docs/formats-entries.md#compact-u16-lengths`).
//!
//! 1–3 bytes, 7 bits per byte, low group first, high bit = more bytes follow. Only the
//! canonical (shortest) form of each value in `0..=65535` is accepted, exactly the set Agave's
//! `short_vec` deserializer accepts: a later byte equal to zero would add nothing (an alias of
//! a shorter form), a third byte may carry only the low 2 bits of the value and never a
//! continuation bit.

/// Most bytes a compact-u16 occupies.
pub const MAX_COMPACT_U16_LEN: usize = 3;

/// Why a compact-u16 is rejected; the text goes into `EntryDefect::CompactU16`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CompactU16Error {
    /// The bytes end while the continuation bit asks for more.
    Truncated,
    /// A byte after the first is zero: a non-canonical alias of a shorter encoding.
    NonCanonical,
    /// The third byte has its continuation bit set.
    ThirdByteContinues,
    /// The value does not fit in 16 bits.
    Overflow,
}

impl CompactU16Error {
    pub(crate) fn reason(self) -> &'static str {
        match self {
            Self::Truncated => "cut short",
            Self::NonCanonical => "non-canonical zero continuation byte",
            Self::ThirdByteContinues => "continuation bit on the third byte",
            Self::Overflow => "value above 65535",
        }
    }
}

/// Decodes a compact-u16 at the start of `bytes`: `(value, bytes used)`.
#[inline]
pub(crate) fn decode(bytes: &[u8]) -> Result<(u16, usize), CompactU16Error> {
    let Some(&b0) = bytes.first() else {
        return Err(CompactU16Error::Truncated);
    };
    // Fast path: lengths below 128 (almost every length on the wire).
    if b0 & 0x80 == 0 {
        return Ok((u16::from(b0), 1));
    }
    let b1 = *bytes.get(1).ok_or(CompactU16Error::Truncated)?;
    if b1 == 0 {
        return Err(CompactU16Error::NonCanonical);
    }
    let low = u32::from(b0 & 0x7f) | (u32::from(b1 & 0x7f) << 7);
    if b1 & 0x80 == 0 {
        // Two groups give at most 14 bits: always fits.
        return Ok((low as u16, 2));
    }
    let b2 = *bytes.get(2).ok_or(CompactU16Error::Truncated)?;
    if b2 == 0 {
        return Err(CompactU16Error::NonCanonical);
    }
    if b2 & 0x80 != 0 {
        return Err(CompactU16Error::ThirdByteContinues);
    }
    let value = low | (u32::from(b2) << 14);
    u16::try_from(value)
        .map(|v| (v, 3))
        .map_err(|_| CompactU16Error::Overflow)
}

/// Appends the canonical compact-u16 encoding of `value` to `out`.
#[inline]
pub(crate) fn encode(value: u16, out: &mut Vec<u8>) {
    let mut rest = value;
    loop {
        // `rest & 0x7f` fits in 7 bits, so the cast keeps every bit.
        let group = (rest & 0x7f) as u8;
        rest >>= 7;
        if rest == 0 {
            out.push(group);
            return;
        }
        out.push(group | 0x80);
    }
}

/// Encoded size of `value` in bytes.
pub(crate) fn encoded_len(value: u16) -> usize {
    match value {
        0..=0x7f => 1,
        0x80..=0x3fff => 2,
        _ => 3,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn known_encodings() {
        let cases: &[(u16, &[u8])] = &[
            (0, &[0x00]),
            (0x7f, &[0x7f]),
            (0x80, &[0x80, 0x01]),
            (0xff, &[0xff, 0x01]),
            (0x100, &[0x80, 0x02]),
            (0x3fff, &[0xff, 0x7f]),
            (0x4000, &[0x80, 0x80, 0x01]),
            (0xffff, &[0xff, 0xff, 0x03]),
        ];
        for &(value, bytes) in cases {
            let mut out = Vec::new();
            encode(value, &mut out);
            assert_eq!(out, bytes, "encode {value}");
            assert_eq!(decode(bytes), Ok((value, bytes.len())), "decode {value}");
            assert_eq!(encoded_len(value), bytes.len());
        }
    }

    #[test]
    fn rejects_bad_forms() {
        use CompactU16Error::*;
        assert_eq!(decode(&[]), Err(Truncated));
        assert_eq!(decode(&[0x80]), Err(Truncated));
        assert_eq!(decode(&[0x80, 0x80]), Err(Truncated));
        assert_eq!(decode(&[0x81, 0x00]), Err(NonCanonical));
        assert_eq!(decode(&[0x80, 0x00]), Err(NonCanonical));
        assert_eq!(decode(&[0x81, 0x80, 0x00]), Err(NonCanonical));
        assert_eq!(decode(&[0x80, 0x80, 0x80]), Err(ThirdByteContinues));
        assert_eq!(decode(&[0xff, 0xff, 0x04]), Err(Overflow));
        assert_eq!(decode(&[0xff, 0xff, 0x7f]), Err(Overflow));
    }

    proptest! {
        #[test]
        fn round_trip(value: u16, tail in proptest::collection::vec(any::<u8>(), 0..4)) {
            let mut out = Vec::new();
            encode(value, &mut out);
            let len = out.len();
            out.extend_from_slice(&tail);
            prop_assert_eq!(decode(&out), Ok((value, len)));
        }

        #[test]
        fn accepted_forms_are_canonical(bytes in proptest::collection::vec(any::<u8>(), 0..4)) {
            if let Ok((value, used)) = decode(&bytes) {
                let mut again = Vec::new();
                encode(value, &mut again);
                prop_assert_eq!(&again[..], &bytes[..used]);
            }
        }
    }
}
