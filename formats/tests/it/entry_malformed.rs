//! Malformed fields inside a real data set: non-canonical, overlong, overflowing and cut-short
//! compact-u16 lengths, message version prefixes other than legacy / v0 after a signature
//! count (0x81, 0xff), and transaction first bytes that are neither a one-byte signature
//! count nor the v1 prefix. Owned decode and view parse both reject each one with the same
//! defect at the field's byte offset.

use crate::common;

use bstore_formats::FormatError;
use bstore_formats::entry::{
    EntriesView, EntryDefect, TransactionView, decode_entries, decode_transaction,
};

/// Testnet data set 32..63 and the offset of its first transaction.
fn batch_and_first_tx() -> (Vec<u8>, usize) {
    let bytes = std::fs::read(common::path(
        "sig-testnet-417955322/batches/batch_00032_00063.bin",
    ))
    .expect("readable batch");
    let view = EntriesView::parse(&bytes).expect("valid batch");
    let tx = view.transactions().next().expect("a transaction");
    let at = tx.bytes().as_ptr() as usize - bytes.as_ptr() as usize;
    assert_eq!(tx.bytes()[0], 1, "one signature, a 1-byte compact-u16");
    (bytes, at)
}

/// Both decoders fail with the same error; returns it.
fn both_fail(bytes: &[u8]) -> (usize, EntryDefect) {
    let owned = decode_entries(bytes).map(|_| ());
    let view = EntriesView::parse(bytes).map(|_| ());
    assert_eq!(
        format!("{owned:?}"),
        format!("{view:?}"),
        "owned and view agree"
    );
    match owned {
        Err(FormatError::InvalidEntries { offset, defect }) => (offset, defect),
        other => panic!("expected InvalidEntries, got {other:?}"),
    }
}

/// The batch with the first transaction's account key count (one byte, after the one
/// signature and the legacy header) replaced by `form`; returns the bytes, the offset of
/// the transaction and that of the count.
fn with_count(form: &[u8]) -> (Vec<u8>, usize, usize) {
    let (bytes, at) = batch_and_first_tx();
    let count = at + 1 + 64 + 3;
    assert!(bytes[at + 1 + 64] & 0x80 == 0, "a legacy message");
    assert!(bytes[count] < 0x80, "a one-byte key count");
    let mut out = bytes[..count].to_vec();
    out.extend_from_slice(form);
    out.extend_from_slice(&bytes[count + 1..]);
    (out, at, count)
}

#[test]
fn bad_compact_u16_forms() {
    let cases: [(&[u8], &str); 4] = [
        (&[0x81, 0x00], "non-canonical"),
        (&[0x81, 0x80, 0x00], "non-canonical"),
        (&[0x81, 0x80, 0x80], "continuation bit on the third byte"),
        (&[0xff, 0xff, 0x04], "above 65535"),
    ];
    for (form, why) in cases {
        let (bytes, _, count) = with_count(form);
        let (offset, defect) = both_fail(&bytes);
        assert_eq!(offset, count, "{form:02x?}");
        match defect {
            EntryDefect::CompactU16(reason) => {
                assert!(reason.contains(why), "{form:02x?}: {reason}")
            }
            other => panic!("{form:02x?}: expected a compact-u16 defect, got {other:?}"),
        }
    }
    // The original 1-byte form still decodes.
    let (original, _) = batch_and_first_tx();
    let (bytes, _, count) = with_count(&[original[at_count(&original)]]);
    assert_eq!(bytes, original);
    decode_entries(&bytes).expect("canonical form decodes");

    // A transaction cut inside a multi-byte length. (Cutting the whole data set there
    // fails earlier: its entry count no longer fits the remaining bytes.)
    let (bytes, at, _) = with_count(&[0x81, 0x80, 0x01]);
    for cut in [count + 1, count + 2] {
        let tx = &bytes[at..cut];
        let owned = decode_transaction(tx).map(|_| ());
        let view = TransactionView::parse(tx).map(|_| ());
        assert_eq!(format!("{owned:?}"), format!("{view:?}"));
        assert!(
            matches!(
                owned,
                Err(FormatError::InvalidEntries { offset, defect: EntryDefect::CompactU16(r) })
                    if r.contains("cut short") && offset == count - at
            ),
            "cut at {cut}: {owned:?}"
        );
    }
}

fn at_count(bytes: &[u8]) -> usize {
    let view = EntriesView::parse(bytes).expect("valid batch");
    let tx = view.transactions().next().expect("a transaction");
    tx.bytes().as_ptr() as usize - bytes.as_ptr() as usize + 1 + 64 + 3
}

/// Agave 4 reads a transaction's first byte as the whole signature count when it is below
/// 0x80 and as a v1 message when it is 0x81; any other byte (a multi-byte compact-u16
/// signature count among them) is refused there and here.
#[test]
fn transaction_first_bytes() {
    let (bytes, at) = batch_and_first_tx();
    for first in [0x80u8, 0x82, 0xc0, 0xff] {
        let mut bad = bytes.clone();
        bad[at] = first;
        let (offset, defect) = both_fail(&bad);
        assert_eq!(offset, at);
        assert_eq!(defect, EntryDefect::TransactionPrefix(first));
    }
    // 0x81 starts a v1 message: the legacy bytes that follow are read as one and fail
    // somewhere inside it, never as a signature count.
    let mut v1 = bytes.clone();
    v1[at] = 0x81;
    let (offset, defect) = both_fail(&v1);
    assert!(offset > at, "{offset} {defect:?}");
    assert!(!matches!(defect, EntryDefect::CompactU16(_)), "{defect:?}");
}

#[test]
fn unsupported_message_versions() {
    let (bytes, at) = batch_and_first_tx();
    let message = at + 1 + 64;
    for prefix in [0x81u8, 0xff] {
        let mut bad = bytes.clone();
        bad[message] = prefix;
        let (offset, defect) = both_fail(&bad);
        assert_eq!(offset, message);
        assert_eq!(defect, EntryDefect::UnsupportedMessageVersion(prefix));
    }
}
