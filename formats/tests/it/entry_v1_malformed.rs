//! Malformed v1 transactions, made from Agave's own bytes (`entry_v1_agave`): a config mask
//! with unknown bits or a split priority-fee pair, cuts at every offset (the config values
//! among them), more signatures than the bytes hold, a v1 message after a signature count,
//! and every single-byte change. Owned decode and views always agree, never panic, name
//! the field and its offset, and whatever still decodes re-encodes to the same bytes. On
//! every single-byte change and every cut, bstore accepts exactly what Agave 4's
//! deserializer accepts, consuming as many bytes (Agave's verdicts are in the vectors).

use bstore_formats::FormatError;
use bstore_formats::entry::{
    EntriesView, EntryDefect, TransactionView, decode_entries, decode_transaction,
    encode_transaction_into,
};

use crate::entry_v1_agave::{Vector, vectors};

/// Owned decode and view parse of one transaction: the same result; the defect if any.
fn both(bytes: &[u8]) -> Result<usize, (usize, EntryDefect)> {
    let owned = decode_transaction(bytes);
    let view = TransactionView::parse(bytes);
    match (&owned, &view) {
        (Ok((tx, a)), Ok((_, b))) => {
            assert_eq!(a, b, "owned and view span the same bytes");
            let mut again = Vec::new();
            encode_transaction_into(tx, &mut again);
            assert_eq!(again, bytes[..*a], "what decodes re-encodes to its bytes");
            Ok(*a)
        }
        (Err(a), Err(b)) => {
            assert_eq!(format!("{a:?}"), format!("{b:?}"), "owned and view agree");
            match a {
                FormatError::InvalidEntries { offset, defect } => Err((*offset, *defect)),
                other => panic!("expected InvalidEntries, got {other:?}"),
            }
        }
        _ => panic!("owned {owned:?} and view {view:?} disagree"),
    }
}

fn full_config() -> Vector {
    vectors()
        .into_iter()
        .find(|v| v.name == "v1_all_config_two_signers")
        .expect("the full-config vector")
}

/// Offset of the v1 config mask: version byte, 3-byte header.
const MASK_AT: usize = 4;

#[test]
fn bad_config_masks_are_refused_at_the_mask() {
    let v = full_config();
    let mask = u32::from_le_bytes(v.bytes[MASK_AT..MASK_AT + 4].try_into().expect("4 bytes"));
    assert_eq!(mask, 0b1_1111);
    for (bad, defect) in [
        (
            mask | 1 << 5,
            EntryDefect::UnknownConfigMaskBits(mask | 1 << 5),
        ),
        (1 << 31, EntryDefect::UnknownConfigMaskBits(1 << 31)),
        (
            mask & !0b01,
            EntryDefect::SplitPriorityFeeBits(mask & !0b01),
        ),
        (0b10, EntryDefect::SplitPriorityFeeBits(0b10)),
    ] {
        let mut bytes = v.bytes.clone();
        bytes[MASK_AT..MASK_AT + 4].copy_from_slice(&bad.to_le_bytes());
        assert_eq!(both(&bytes), Err((MASK_AT, defect)), "mask {bad:#x}");
        // Inside a data set, at the shifted offset, owned and view alike.
        let mut set = 1u64.to_le_bytes().to_vec();
        set.extend_from_slice(&7u64.to_le_bytes());
        set.extend_from_slice(&[5; 32]);
        set.extend_from_slice(&1u64.to_le_bytes());
        let at = set.len();
        set.extend_from_slice(&bytes);
        for r in [
            decode_entries(&set).map(|_| ()),
            EntriesView::parse(&set).map(|_| ()),
        ] {
            match r {
                Err(FormatError::InvalidEntries { offset, defect: d }) => {
                    assert_eq!((offset, d), (at + MASK_AT, defect));
                }
                other => panic!("expected the mask defect, got {other:?}"),
            }
        }
    }
}

#[test]
fn every_cut_fails_with_a_typed_defect() {
    for v in vectors() {
        let len = v.bytes.len();
        for cut in 0..len {
            let (offset, defect) = both(&v.bytes[..cut])
                .err()
                .unwrap_or_else(|| panic!("{}: a cut at {cut} must fail", v.name));
            assert!(
                offset <= cut,
                "{}: offset {offset} past the cut {cut}",
                v.name
            );
            assert!(
                matches!(
                    defect,
                    EntryDefect::Truncated { .. }
                        | EntryDefect::LengthTooLarge { .. }
                        | EntryDefect::CompactU16(_)
                ),
                "{}: cut {cut}: {defect:?}",
                v.name
            );
        }
        assert_eq!(both(&v.bytes), Ok(len));
    }
    // A cut inside the full config's values names them.
    let v = full_config();
    let keys = v.x["fields"]["account_keys"]
        .as_array()
        .expect("keys")
        .len();
    let config_at = 1 + 3 + 4 + 32 + 1 + 1 + 32 * keys;
    for cut in config_at..config_at + 20 {
        match both(&v.bytes[..cut]) {
            Err((_, EntryDefect::Truncated { what, .. })) => {
                assert_eq!(what, "v1 config values", "cut {cut}")
            }
            other => panic!("cut {cut}: {other:?}"),
        }
    }
}

#[test]
fn more_signatures_than_bytes_is_a_length_error() {
    let v = full_config();
    assert_eq!(v.bytes[1], 2, "two required signatures");
    let mut bytes = v.bytes.clone();
    bytes[1] = 3;
    assert_eq!(
        both(&bytes),
        Err((
            1,
            EntryDefect::LengthTooLarge {
                what: "v1 signature count",
                declared: 3,
                max: 2
            }
        ))
    );
    // 255 (the most a u8 can declare) against the same bytes: refused before reading.
    bytes[1] = 255;
    assert!(matches!(
        both(&bytes),
        Err((1, EntryDefect::LengthTooLarge { declared: 255, .. }))
    ));
}

#[test]
fn a_v1_message_after_a_signature_count_is_refused() {
    let v = full_config();
    let msg_len = v.bytes.len() - 2 * 64;
    let mut bytes = vec![2u8];
    bytes.extend_from_slice(&v.bytes[msg_len..]);
    bytes.extend_from_slice(&v.bytes[..msg_len]);
    assert_eq!(
        both(&bytes),
        Err((1 + 128, EntryDefect::UnsupportedMessageVersion(0x81)))
    );
}

/// The verdict letter the vectors use: `x` refused, `a` read whole, `s` read shorter.
fn verdict(bytes: &[u8]) -> (char, usize) {
    match both(bytes) {
        Err(_) => ('x', 0),
        Ok(used) if used == bytes.len() => ('a', used),
        Ok(used) => ('s', used),
    }
}

#[test]
fn single_byte_changes_and_cuts_match_agave() {
    for v in vectors() {
        let m = &v.x["mutations"];
        let mut verdicts = String::new();
        let mut short = Vec::new();
        for i in 0..v.bytes.len() {
            for (k, value) in [0x00, 0xff, v.bytes[i] ^ 1, 0x81].into_iter().enumerate() {
                let mut bytes = v.bytes.clone();
                bytes[i] = value;
                let (c, used) = verdict(&bytes);
                verdicts.push(c);
                if c == 's' {
                    short.push(serde_json::json!([i, k, used]));
                }
            }
        }
        let want = m["verdicts"].as_str().expect("verdicts");
        if let Some(at) = verdicts.chars().zip(want.chars()).position(|(a, b)| a != b) {
            panic!(
                "{}: byte {} set to value #{}: bstore {:?}, Agave {:?}",
                v.name,
                at / 4,
                at % 4,
                verdicts.chars().nth(at),
                want.chars().nth(at)
            );
        }
        assert_eq!(verdicts.len(), want.len());
        assert_eq!(&serde_json::Value::from(short), &m["short"], "{}", v.name);
        let cuts: String = (0..v.bytes.len())
            .map(|n| verdict(&v.bytes[..n]).0)
            .collect();
        assert_eq!(cuts, m["cuts"].as_str().expect("cuts"), "{}", v.name);
    }
}
