//! Invalid shreds in a call are rejected with typed errors and counted, duplicates are
//! counted, and the rest of the call is still stored.
//!
//! The shreds here are real ones with header fields rewritten, which also breaks their
//! Merkle proofs; these tests are about the meta rules, so they insert with
//! `MerkleCheck::Skip` (the root check has its own tests in `store_merkle_checks.rs`).
#![cfg(feature = "storage")]

use crate::store_support;

use bstore_ledger::shred::{ShredDefect, ShredRef};
use bstore_ledger::store::{
    CompletedDataSet, InsertDefect, InsertOptions, MerkleCheck, ShapeRules,
};
use bstore_ledger::{FormatError, LedgerError, ShredIndex, Slot};
use store_support::{SlotExpectation, open_rw, testnet};

const META_RULES_ONLY: InsertOptions = InsertOptions {
    leader: bstore_ledger::store::LeaderCheck::Skip,
    merkle: MerkleCheck::Skip,
    shape: ShapeRules::Legacy,
};

fn index_of(packet: &[u8]) -> u32 {
    ShredRef::parse(packet).expect("parse").index().0
}

fn with(packet: &[u8], offset: usize, bytes: &[u8]) -> Vec<u8> {
    let mut p = packet.to_vec();
    p[offset..offset + bytes.len()].copy_from_slice(bytes);
    p
}

#[test]
fn rejects_and_duplicates_are_counted_and_the_rest_is_stored() {
    let (packets, expected) = testnet();
    let want = SlotExpectation::from_json(&expected["shreds"]);
    let last = want.last_index.expect("testnet slot has a last shred") as u32;
    let held_back: Vec<&Vec<u8>> = packets
        .iter()
        .filter(|p| (100..=110).contains(&index_of(p)))
        .collect();
    let dir = tempfile::tempdir().expect("tempdir");
    let store = open_rw(dir.path());
    let first = store
        .insert_shreds(
            packets
                .iter()
                .filter(|p| !(100..=110).contains(&index_of(p))),
        )
        .expect("insert");
    assert_eq!(first.inserted, packets.len() - held_back.len());
    assert!(first.rejected.is_empty());

    let some = &packets[0];
    let s100 = held_back
        .iter()
        .find(|p| index_of(p) == 100)
        .expect("shred 100");
    let s101 = held_back
        .iter()
        .find(|p| index_of(p) == 101)
        .expect("shred 101");
    let mut call: Vec<Vec<u8>> = vec![
        some[..80].to_vec(),     // truncated in the header, after slot and index
        with(some, 64, &[0x20]), // invalid variant
        with(some, 73, &40_000u32.to_le_bytes()), // index past 32,768
        with(some, 73, &(last + 11).to_le_bytes()), // past last_index
        with(s100, 85, &[0xC0]), // a second last-in-slot
        with(s101, 83, &2u16.to_le_bytes()), // another parent
        packets
            .iter()
            .find(|p| index_of(p) == 5)
            .expect("shred 5")
            .clone(), // duplicate
    ];
    // Then the genuine held-back shreds, which complete the data set around them.
    call.extend(held_back.iter().map(|p| (*p).clone()));
    let out = store
        .insert_shreds_with(&call, META_RULES_ONLY)
        .expect("insert");

    assert_eq!(out.inserted, held_back.len());
    assert_eq!(out.duplicates, 1);
    let defects: Vec<String> = out
        .rejected
        .iter()
        .map(|r| format!("{:?}", r.error))
        .collect();
    assert_eq!(out.rejected.len(), 6, "{defects:#?}");
    let r = &out.rejected;
    assert!(matches!(
        r[0].error,
        LedgerError::Format(FormatError::InvalidShred {
            defect: ShredDefect::TooShort { .. },
            ..
        })
    ));
    assert_eq!(
        (r[0].slot, r[0].index),
        (Some(want.slot), Some(ShredIndex(0)))
    );
    assert!(matches!(
        r[1].error,
        LedgerError::Format(FormatError::InvalidShred {
            defect: ShredDefect::InvalidVariant(0x20),
            ..
        })
    ));
    assert!(matches!(
        r[2].error,
        LedgerError::Format(FormatError::InvalidShred {
            defect: ShredDefect::IndexTooLarge(40_000),
            ..
        })
    ));
    assert_eq!(r[2].index, Some(ShredIndex(40_000)));
    let last_index = u64::from(last);
    assert!(matches!(
        r[3].error,
        LedgerError::ShredRejected { defect: InsertDefect::PastLastIndex { last_index: l }, .. } if l == last_index
    ));
    assert_eq!(
        (r[3].slot, r[3].index),
        (Some(want.slot), Some(ShredIndex(last + 11)))
    );
    assert!(matches!(
        r[4].error,
        LedgerError::ShredRejected { defect: InsertDefect::SecondLastInSlot { last_index: l }, .. } if l == last_index
    ));
    let found = Slot(want.slot.0 - 2);
    assert!(matches!(
        r[5].error,
        LedgerError::ShredRejected { defect: InsertDefect::ParentMismatch { expected, found: f }, .. }
            if expected == want.parent && f == found
    ));

    // The genuine shreds went in: the slot is full and the data set holding 100..=110
    // completed in this call.
    let meta = store.meta(want.slot).expect("read").expect("meta");
    want.check_meta(&meta, "after rejects");
    assert_eq!(out.slots_full, vec![want.slot]);
    let set = want
        .complete_sets
        .iter()
        .find(|(s, e)| (*s..*e).contains(&100))
        .expect("a set holds 100");
    assert_eq!(
        out.completed_data_sets,
        vec![CompletedDataSet {
            slot: want.slot,
            start: set.0,
            end: set.1
        }]
    );
    assert!(
        out.completed_data_sets
            .iter()
            .all(|s| (s.start..s.end).contains(&110)),
        "100..=110 lie in one data set"
    );
    // The rejected bytes were not stored: shred 100 is the genuine one.
    assert_eq!(
        store
            .data_shred(want.slot, ShredIndex(100))
            .expect("read")
            .as_deref(),
        Some(&s100[..1203])
    );
}

#[test]
fn last_in_slot_below_received_is_rejected() {
    let (packets, _) = testnet();
    let other = Slot(7_000_000);
    let retag = |p: &Vec<u8>| with(p, 65, &other.0.to_le_bytes());
    let s50 = packets
        .iter()
        .find(|p| index_of(p) == 50)
        .expect("shred 50");
    let s40 = packets
        .iter()
        .find(|p| index_of(p) == 40)
        .expect("shred 40");
    let dir = tempfile::tempdir().expect("tempdir");
    let store = open_rw(dir.path());
    let out = store
        .insert_shreds_with(
            [retag(s50), with(&retag(s40), 85, &[0xC0])],
            META_RULES_ONLY,
        )
        .expect("insert");
    assert_eq!(out.inserted, 1);
    assert!(matches!(
        out.rejected[0].error,
        LedgerError::ShredRejected {
            defect: InsertDefect::LastInSlotBelowReceived { received: 51 },
            ..
        }
    ));
    let meta = store.meta(other).expect("read").expect("meta");
    assert_eq!((meta.received, meta.last_index), (51, None));
}
