//! Malformed fields inside a real data set: non-canonical, overlong, overflowing and cut-short
//! compact-u16 lengths, and message version prefixes other than legacy / v0 (0x81, 0xff).
//! Owned decode and view parse both reject each one with the same defect at the field's
//! byte offset.

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

/// The batch with the first transaction's signature count replaced by `form`.
fn with_count(form: &[u8]) -> (Vec<u8>, usize) {
    let (bytes, at) = batch_and_first_tx();
    let mut out = bytes[..at].to_vec();
    out.extend_from_slice(form);
    out.extend_from_slice(&bytes[at + 1..]);
    (out, at)
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
        let (bytes, at) = with_count(form);
        let (offset, defect) = both_fail(&bytes);
        assert_eq!(offset, at, "{form:02x?}");
        match defect {
            EntryDefect::CompactU16(reason) => {
                assert!(reason.contains(why), "{form:02x?}: {reason}")
            }
            other => panic!("{form:02x?}: expected a compact-u16 defect, got {other:?}"),
        }
    }
    // The canonical 2-byte form of 1 does not exist; the canonical 1-byte form still decodes.
    let (bytes, _) = with_count(&[0x01]);
    decode_entries(&bytes).expect("canonical form decodes");

    // A transaction cut inside a multi-byte length. (Cutting the whole data set there
    // fails earlier: its entry count no longer fits the remaining bytes.)
    let (bytes, at) = with_count(&[0x81, 0x80, 0x01]);
    for cut in [at + 1, at + 2] {
        let tx = &bytes[at..cut];
        let owned = decode_transaction(tx).map(|_| ());
        let view = TransactionView::parse(tx).map(|_| ());
        assert_eq!(format!("{owned:?}"), format!("{view:?}"));
        assert!(
            matches!(
                owned,
                Err(FormatError::InvalidEntries { offset: 0, defect: EntryDefect::CompactU16(r) })
                    if r.contains("cut short")
            ),
            "cut at {cut}: {owned:?}"
        );
    }
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
