//! The primitive decodings, against the vectors of `solana-short-vec` and
//! `solana-serde-varint`.

use super::Reader;

fn short_u16(bytes: &[u8]) -> Option<u16> {
    let mut r = Reader::new(bytes);
    let v = r.short_u16()?;
    r.is_empty().then_some(v)
}

fn varint(bytes: &[u8]) -> Option<u64> {
    let mut r = Reader::new(bytes);
    let v = r.varint_u64()?;
    r.is_empty().then_some(v)
}

#[test]
fn short_u16_accepts_the_strict_form_only() {
    let good: [(u16, &[u8]); 9] = [
        (0x0000, &[0x00]),
        (0x007f, &[0x7f]),
        (0x0080, &[0x80, 0x01]),
        (0x00ff, &[0xff, 0x01]),
        (0x0100, &[0x80, 0x02]),
        (0x07ff, &[0xff, 0x0f]),
        (0x3fff, &[0xff, 0x7f]),
        (0x4000, &[0x80, 0x80, 0x01]),
        (0xffff, &[0xff, 0xff, 0x03]),
    ];
    for (value, bytes) in good {
        assert_eq!(short_u16(bytes), Some(value), "{bytes:x?}");
    }
    let bad: [&[u8]; 14] = [
        // aliases
        &[0x80, 0x00],
        &[0x80, 0x80, 0x00],
        &[0xff, 0x00],
        &[0xff, 0x80, 0x00],
        &[0x80, 0x81, 0x00],
        &[0xff, 0x81, 0x00],
        &[0x80, 0x82, 0x00],
        &[0xff, 0x8f, 0x00],
        &[0xff, 0xff, 0x00],
        // too short, too long, too large
        &[],
        &[0x80],
        &[0x80, 0x80, 0x80, 0x00],
        &[0x80, 0x80, 0x04],
        &[0x80, 0x80, 0x06],
    ];
    for bytes in bad {
        assert_eq!(Reader::new(bytes).short_u16(), None, "{bytes:x?}");
    }
}

#[test]
fn varint_round_trips_and_rejects_non_canonical_forms() {
    for value in [0u64, 1, 127, 128, 300, 1 << 35, u64::MAX - 1, u64::MAX] {
        let mut bytes = Vec::new();
        let mut v = value;
        while v >= 0x80 {
            bytes.push((v as u8 & 0x7f) | 0x80);
            v >>= 7;
        }
        bytes.push(v as u8);
        assert_eq!(varint(&bytes), Some(value), "{value}");
    }
    // Trailing zeros, a truncated last byte, eleven bytes, a missing byte.
    let max_but_last = [0xffu8; 9];
    let mut truncated = max_but_last.to_vec();
    truncated.push(0x02);
    let bad: [&[u8]; 5] = [
        &[0x80, 0x00],
        &[0x81, 0x80, 0x00],
        &truncated,
        &[0x80; 11],
        &[0x80],
    ];
    for bytes in bad {
        assert_eq!(Reader::new(bytes).varint_u64(), None, "{bytes:x?}");
    }
}

#[test]
fn lengths_are_bounded_by_the_data() {
    let mut data = u64::MAX.to_le_bytes().to_vec();
    data.extend_from_slice(&[0; 64]);
    assert_eq!(Reader::new(&data).bincode_len(32), None);
    assert_eq!(Reader::new(&data).bincode_bytes(), None);
    let mut data = 2u64.to_le_bytes().to_vec();
    data.extend_from_slice(&[0; 64]);
    assert_eq!(Reader::new(&data).bincode_len(32), Some(2));
    assert_eq!(Reader::new(&data).bincode_len(33), None);
    let data = [3, 0, 0, 0, b'a', b'b'];
    assert_eq!(Reader::new(&data).borsh_string(), None);
}

#[test]
fn options_and_bools_take_zero_or_one() {
    assert_eq!(Reader::new(&[0]).option(Reader::u8), Some(None));
    assert_eq!(Reader::new(&[1, 9]).option(Reader::u8), Some(Some(9)));
    assert_eq!(Reader::new(&[2, 9]).option(Reader::u8), None);
    assert_eq!(Reader::new(&[1]).option(Reader::u8), None);
    assert_eq!(Reader::new(&[1]).bool(), Some(true));
    assert_eq!(Reader::new(&[2]).bool(), None);
}
