//! A real data set cut at every offset: decode and view parse return the same error (never
//! a panic) for every cut inside the encoded vector, and succeed for every cut inside the
//! trailing padding. Same for single transactions (legacy and v0 with lookups).

use crate::common;

use bstore_formats::FormatError;
use bstore_formats::entry::{EntriesView, TransactionView, decode_entries, decode_transaction};

fn offset_of(e: &FormatError) -> usize {
    match e {
        FormatError::InvalidEntries { offset, .. } => *offset,
        other => panic!("expected InvalidEntries, got {other:?}"),
    }
}

#[test]
fn real_batch_cut_at_every_offset() {
    // Data set 32..63 of the testnet slot: 16 entries, 28 transactions, 10,632 bytes.
    let bytes = std::fs::read(common::path(
        "sig-testnet-417955322/batches/batch_00032_00063.bin",
    ))
    .expect("readable batch");
    let encoded = EntriesView::parse(&bytes).expect("valid").encoded_len();
    assert_eq!(encoded, bytes.len(), "this batch has no padding");
    let mut padded = bytes.clone();
    padded.resize(bytes.len() + 64, 0);
    for cut in 0..padded.len() {
        let part = &padded[..cut];
        let owned = decode_entries(part);
        let view = EntriesView::parse(part);
        if cut < encoded {
            let (Err(a), Err(b)) = (&owned, &view) else {
                panic!("cut at {cut} must fail both ways");
            };
            assert_eq!(
                format!("{a:?}"),
                format!("{b:?}"),
                "cut at {cut}: same error"
            );
            assert!(
                offset_of(a) <= cut,
                "cut at {cut}: error offset inside the bytes"
            );
        } else {
            assert_eq!(owned.expect("complete vector").len(), 16, "cut at {cut}");
            assert_eq!(view.expect("complete vector").encoded_len(), encoded);
        }
    }
}

#[test]
fn transactions_cut_at_every_offset() {
    for name in [
        "transaction1.bin",
        "transaction2.bin",
        "transaction3.bin",
        "txn1.bin",
    ] {
        let bytes = std::fs::read(common::path(&format!("firedancer/transactions/{name}")))
            .expect("readable transaction");
        for cut in 0..bytes.len() {
            let owned = decode_transaction(&bytes[..cut]);
            let view = TransactionView::parse(&bytes[..cut]);
            let (Err(a), Err(b)) = (&owned, &view) else {
                panic!("{name}: cut at {cut} must fail both ways");
            };
            assert_eq!(format!("{a:?}"), format!("{b:?}"), "{name}: cut at {cut}");
            assert!(offset_of(a) <= cut);
        }
        assert_eq!(decode_transaction(&bytes).expect("whole").1, bytes.len());
    }
}
