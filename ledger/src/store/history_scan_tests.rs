use std::ops::ControlFlow;

use super::*;
use crate::store::MemEngine;
use crate::store::columns::{AddressSignatures, TransactionStatus};
use crate::store::kv::{KvBatch, KvWrite};

fn address_key(address: u8, slot: u64, index: u32, sig: u8) -> Vec<u8> {
    let mut k = vec![address; 32];
    k.extend_from_slice(&slot.to_be_bytes());
    k.extend_from_slice(&index.to_be_bytes());
    k.extend_from_slice(&[sig; 64]);
    k
}

fn store() -> Blockstore<MemEngine> {
    let store = Blockstore::in_memory();
    let mut batch = store.kv().batch().expect("writable");
    for (addr, slot, index, sig) in [
        (1, 5, 0, 10),
        (1, 5, 2, 11),
        (1, 7, 1, 12),
        (1, 9, 0, 13),
        (2, 7, 0, 14),
        (0, 9, 0, 15),
    ] {
        batch
            .put(
                AddressSignatures::NAME,
                &address_key(addr, slot, index, sig),
                &[0],
            )
            .expect("put");
    }
    for slot in [3u64, 8, 20] {
        batch
            .put(
                TransactionStatus::NAME,
                &signature_slot_key(&[0xff; 64], Slot(slot)),
                b"s",
            )
            .expect("put");
        batch
            .put(
                TransactionStatus::NAME,
                &signature_slot_key(&[0xfe; 64], Slot(slot + 1)),
                b"s",
            )
            .expect("put");
    }
    store.kv().write(batch).expect("writes");
    store
}

/// The slots a lookup of `sig` from `from` looks at, in order (none accepted).
fn status_slots(store: &Blockstore<MemEngine>, sig: &[u8; 64], from: Slot) -> Vec<Slot> {
    let mut seen = Vec::new();
    let found = store.status_lookup().first_accepted(sig, from, |slot| {
        seen.push(slot);
        Ok::<bool, LedgerError>(false)
    });
    assert_eq!(found.expect("scan"), None);
    seen
}

#[test]
fn status_slots_of_one_signature_from_a_slot() {
    let store = store();
    assert_eq!(
        status_slots(&store, &[0xff; 64], Slot(0)),
        [Slot(3), Slot(8), Slot(20)]
    );
    assert_eq!(
        status_slots(&store, &[0xff; 64], Slot(8)),
        [Slot(8), Slot(20)]
    );
    assert_eq!(
        status_slots(&store, &[0xfe; 64], Slot(0)),
        [Slot(4), Slot(9), Slot(21)]
    );
    assert!(status_slots(&store, &[1; 64], Slot(0)).is_empty());
}

#[test]
fn address_entries_by_slot_and_newest_first() {
    let store = store();
    let in5: Vec<u8> = store
        .address_signatures_in_slot(&[1; 32], Slot(5))
        .expect("scan")
        .iter()
        .map(|s| s.signature[0])
        .collect();
    assert_eq!(in5, [10, 11]);
    assert!(
        store
            .address_signatures_in_slot(&[1; 32], Slot(6))
            .expect("scan")
            .is_empty()
    );
    let mut seen = Vec::new();
    store
        .address_signatures_rev(&[1; 32], Slot(8), Slot(0), |s| {
            seen.push((s.slot.0, s.signature[0]));
            ControlFlow::Continue(())
        })
        .expect("scan");
    assert_eq!(
        seen,
        [(7, 12), (5, 11), (5, 10)],
        "slots above `through` are excluded; other addresses never"
    );
    let mut through_nine = Vec::new();
    store
        .address_signatures_rev(&[1; 32], Slot(9), Slot(7), |s| {
            through_nine.push((s.slot.0, s.signature[0]));
            ControlFlow::Continue(())
        })
        .expect("scan");
    assert_eq!(through_nine, [(9, 13), (7, 12)], "both ends inclusive");
    let mut first = Vec::new();
    store
        .address_signatures_rev(&[1; 32], Slot(u64::MAX), Slot(6), |s| {
            first.push(s.slot.0);
            ControlFlow::Break(())
        })
        .expect("scan");
    assert_eq!(first, [9]);
}

#[test]
fn a_short_key_is_a_corrupt_key_error() {
    let store = store();
    let mut batch = store.kv().batch().expect("writable");
    let mut short = address_key(3, 1, 0, 1);
    short.pop();
    batch
        .put(AddressSignatures::NAME, &short, &[0])
        .expect("put");
    store.kv().write(batch).expect("writes");
    let e = store
        .address_signatures_in_slot(&[3; 32], Slot(1))
        .expect_err("short key");
    assert_eq!(e.kind(), "corrupt_key");
}

#[test]
fn one_status_lookup_finds_the_first_accepted_slot_of_many_signatures() {
    let store = store();
    let mut lookup = store.status_lookup();
    let accept_all = |_: Slot| Ok::<bool, LedgerError>(true);
    // 0xfe's slots are 4, 9, 21; 0xff's are 3, 8, 20: each lookup stays inside its own
    // signature's keys, whichever order the lookups come in.
    assert_eq!(
        lookup
            .first_accepted(&[0xff; 64], Slot(0), accept_all)
            .expect("lookup"),
        Some((Slot(3), b"s".to_vec()))
    );
    assert_eq!(
        lookup
            .first_accepted(&[0xfe; 64], Slot(5), accept_all)
            .expect("lookup"),
        Some((Slot(9), b"s".to_vec()))
    );
    assert_eq!(
        lookup
            .first_accepted(&[0xff; 64], Slot(21), accept_all)
            .expect("lookup"),
        None,
        "past the signature's last slot: the next signature's keys are not its"
    );
    assert_eq!(
        lookup
            .first_accepted(&[0xfe; 64], Slot(22), accept_all)
            .expect("lookup"),
        None,
        "past the column's end"
    );
    // Unaccepted slots are passed over in ascending order; the first accepted one wins.
    let mut asked = Vec::new();
    let found = lookup.first_accepted(&[0xff; 64], Slot(0), |slot| {
        asked.push(slot);
        Ok::<bool, LedgerError>(slot >= Slot(8))
    });
    assert_eq!(found.expect("lookup"), Some((Slot(8), b"s".to_vec())));
    assert_eq!(asked, [Slot(3), Slot(8)]);
    assert_eq!(
        lookup
            .first_accepted(&[0xff; 64], Slot(0), |_| Ok::<bool, LedgerError>(false))
            .expect("lookup"),
        None
    );
    assert_eq!(
        lookup
            .first_accepted(&[0x01; 64], Slot(0), accept_all)
            .expect("lookup"),
        None,
        "a signature without statuses"
    );
    // An error of `accept` ends the lookup with it.
    let failed = lookup.first_accepted(&[0xff; 64], Slot(0), |slot| {
        Err::<bool, LedgerError>(LedgerError::CorruptKey {
            column: "test",
            key: slot.to_string(),
            reason: "refused by the test".into(),
        })
    });
    assert!(failed.is_err());
}

#[test]
fn a_status_lookup_sees_the_ledger_as_it_was_when_made() {
    let store = store();
    let mut lookup = store.status_lookup();
    let mut batch = store.kv().batch().expect("writable");
    batch
        .put(
            TransactionStatus::NAME,
            &signature_slot_key(&[0x02; 64], Slot(1)),
            b"later",
        )
        .expect("put");
    store.kv().write(batch).expect("write");
    let accept_all = |_: Slot| Ok::<bool, LedgerError>(true);
    assert_eq!(
        lookup
            .first_accepted(&[0x02; 64], Slot(0), accept_all)
            .expect("lookup"),
        None
    );
    assert_eq!(
        store
            .status_lookup()
            .first_accepted(&[0x02; 64], Slot(0), accept_all)
            .expect("lookup"),
        Some((Slot(1), b"later".to_vec()))
    );
}
