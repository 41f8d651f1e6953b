//! Arbitrary and mutated bytes: owned decode and view parse never panic and always agree —
//! both succeed with the same entries (and every view accessor works), or both fail with the
//! same error.

use crate::common;

use bstore_formats::entry::{
    EntriesView, TransactionView, decode_entries, decode_transaction, encode_entries,
};
use proptest::prelude::*;

/// Runs both decoders on `bytes` and checks they agree; walks every accessor on success.
fn agree(bytes: &[u8]) -> Result<(), TestCaseError> {
    let owned = decode_entries(bytes);
    let view = EntriesView::parse(bytes);
    match (&owned, &view) {
        (Ok(entries), Ok(view)) => {
            prop_assert_eq!(&view.to_owned_entries().expect("view to owned"), entries);
            prop_assert_eq!(&encode_entries(entries)[..], view.bytes());
            for e in view.iter() {
                let _ = (e.num_hashes(), e.hash(), e.is_tick());
                for tx in e.transactions() {
                    exercise(&tx);
                }
            }
            prop_assert_eq!(view.transactions().count(), view.num_transactions());
        }
        (Err(a), Err(b)) => prop_assert_eq!(format!("{a:?}"), format!("{b:?}")),
        _ => prop_assert!(
            false,
            "owned {owned:?} vs view {:?}",
            view.as_ref().map(|v| v.len())
        ),
    }
    Ok(())
}

/// Touches every lazily parsed part of a transaction view.
fn exercise(tx: &TransactionView<'_>) {
    let _ = (tx.signatures().count(), tx.first_signature(), tx.version());
    let m = tx.message();
    let _ = (m.header(), m.recent_blockhash(), m.account_keys().count());
    let _ = (m.instructions().count(), m.program_ids().count());
    let _ = (m.address_table_lookups().count(), m.config());
    let _ = m.account_key(m.num_account_keys());
    let _ = (
        tx.message_offset(),
        tx.signatures_offset(),
        tx.message_bytes().len(),
    );
}

fn tx_agree(bytes: &[u8]) -> Result<(), TestCaseError> {
    match (decode_transaction(bytes), TransactionView::parse(bytes)) {
        (Ok((tx, n)), Ok((view, m))) => {
            prop_assert_eq!(n, m);
            prop_assert_eq!(view.to_owned_transaction().expect("view to owned"), tx);
            exercise(&view);
        }
        (Err(a), Err(b)) => prop_assert_eq!(format!("{a:?}"), format!("{b:?}")),
        (a, b) => prop_assert!(false, "owned {a:?} vs view {b:?}"),
    }
    Ok(())
}

fn real_batch() -> Vec<u8> {
    std::fs::read(common::path(
        "sig-testnet-417955322/batches/batch_00064_00095.bin",
    ))
    .expect("readable batch")
}

/// A data set of one entry holding every Agave 4 vector (legacy, v0, six v1).
fn agave4_batch() -> Vec<u8> {
    let txs: Vec<u8> = crate::entry_v1_agave::vectors()
        .into_iter()
        .flat_map(|v| v.bytes)
        .collect();
    let n = crate::entry_v1_agave::vectors().len() as u64;
    let mut bytes = 1u64.to_le_bytes().to_vec();
    bytes.extend_from_slice(&1u64.to_le_bytes());
    bytes.extend_from_slice(&[0; 32]);
    bytes.extend_from_slice(&n.to_le_bytes());
    bytes.extend_from_slice(&txs);
    bytes
}

fn real_tx() -> Vec<u8> {
    std::fs::read(common::path("firedancer/transactions/transaction2.bin")).expect("readable tx")
}

/// A mutation: at a position (scaled to the input), write a byte that often lands on a
/// boundary case (0x00, 0x7f, 0x80, 0x81, 0xff) or a random one.
fn edits() -> impl Strategy<Value = Vec<(prop::sample::Index, u8)>> {
    let byte = prop_oneof![
        Just(0x00u8),
        Just(0x7f),
        Just(0x80),
        Just(0x81),
        Just(0xff),
        any::<u8>()
    ];
    prop::collection::vec((any::<prop::sample::Index>(), byte), 1..4)
}

/// Applies `edits` to `bytes`, then cuts them at `cut` if given.
fn mutate(
    mut bytes: Vec<u8>,
    edits: &[(prop::sample::Index, u8)],
    cut: Option<prop::sample::Index>,
) -> Vec<u8> {
    for (at, b) in edits {
        let i = at.index(bytes.len());
        bytes[i] = *b;
    }
    if let Some(cut) = cut {
        bytes.truncate(cut.index(bytes.len()));
    }
    bytes
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        agree(&bytes)?;
        tx_agree(&bytes)?;
    }

    /// A small entry count in front, so the body is actually walked.
    #[test]
    fn arbitrary_body(count in 0u64..4, body in prop::collection::vec(any::<u8>(), 0..600)) {
        let mut bytes = count.to_le_bytes().to_vec();
        bytes.extend_from_slice(&body);
        agree(&bytes)?;
    }

    #[test]
    fn mutated_real_batch(edits in edits(), cut in any::<prop::sample::Index>(), truncate: bool) {
        agree(&mutate(real_batch(), &edits, truncate.then_some(cut)))?;
    }

    #[test]
    fn mutated_agave4_v1_batch(edits in edits(), cut in any::<prop::sample::Index>(), truncate: bool) {
        agree(&mutate(agave4_batch(), &edits, truncate.then_some(cut)))?;
    }

    #[test]
    fn mutated_real_v0_transaction(edits in edits(), cut in any::<prop::sample::Index>(), truncate: bool) {
        tx_agree(&mutate(real_tx(), &edits, truncate.then_some(cut)))?;
    }
}
