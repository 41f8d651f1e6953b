//! `bstore ledger purge` on a ledger Agave wrote with full history (`fixtures/agave-history`):
//! the purged slots' rows of the signature-keyed history columns (`transaction_status`,
//! `transaction_memos`, `address_signatures`) go with them, as Agave's exact purge deletes
//! them, and every other row of those columns stays byte for byte. (The interop suite
//! compares the result with Agave's own purge of the same ledger.)

use crate::common;

use std::collections::BTreeMap;

use common::{bstore, history_rows, json_lines};

/// The slot a history key names (signature ‖ slot, or address ‖ slot ‖ index ‖ signature).
fn slot_of(cf: &str, key: &[u8]) -> u64 {
    let at = if cf == "address_signatures" { 32 } else { 64 };
    u64::from_be_bytes(key[at..at + 8].try_into().expect("8 bytes"))
}

#[test]
fn purge_removes_the_purged_slots_history_rows_and_keeps_the_rest() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ledger =
        bstore_testkit::fixtures::unpack_ledger_into("agave-history", dir.path()).expect("fixture");
    let before = history_rows(&ledger);
    let doomed = |cf: &str, key: &[u8]| (101..=102).contains(&slot_of(cf, key));
    let purged = before.keys().filter(|(cf, k)| doomed(cf, k)).count();
    assert!(
        purged > 20,
        "slots 101 and 102 carry history rows ({purged})"
    );

    let out = json_lines(&bstore(&[
        "ledger",
        "purge",
        "--ledger",
        ledger.to_str().expect("utf-8"),
        "101",
        "102",
    ]))
    .remove(0);
    assert_eq!(out["history_unreadable_slots"], 0, "{out}");

    let after = history_rows(&ledger);
    let expected: BTreeMap<_, _> = before
        .into_iter()
        .filter(|((cf, k), _)| !doomed(cf, k))
        .collect();
    assert_eq!(
        after.len(),
        expected.len(),
        "only the purged slots' rows are gone"
    );
    assert!(after == expected, "every other row is unchanged");
}
