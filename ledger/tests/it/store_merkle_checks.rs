//! Scenario: insert checks every Merkle shred against its FEC set's root, on the real
//! testnet slot. A shred whose data was changed (so its proof leads to another root) is
//! rejected as `merkle_root_mismatch` once a genuine shred of its set is stored — in the
//! same call, in an earlier call, or after the writer's cache was lost (a reopened store
//! reads the root back from a stored shred). With the leader's key, it is rejected in any
//! order, as `invalid_signature`, and the genuine shreds still go in.

use crate::common;

use bstore_ledger::fetch::{AllowDead, EntryFetch};
use bstore_ledger::shred::ShredRef;
use bstore_ledger::store::{Blockstore, InsertDefect, InsertOptions, LeaderCheck};
use bstore_ledger::{LedgerError, Pubkey, Slot};

const LEADER: &str = "4Nh8T1d4YBZHEuQNRmFbLXPT5HbWicqPxGeKZ5SdAr4i";

fn shreds() -> Vec<Vec<u8>> {
    common::read_records("sig-testnet-417955322/shreds.bin")
}

/// Shred `i` with one data byte flipped: it still parses, but its leaf and root change.
fn forged(shreds: &[Vec<u8>], i: usize) -> Vec<u8> {
    let mut bad = shreds[i].clone();
    bad[100] ^= 0x01;
    assert!(ShredRef::parse(&bad).is_ok(), "the forgery parses");
    bad
}

fn index_of(packet: &[u8]) -> u32 {
    ShredRef::parse(packet).expect("parse").index().0
}

#[test]
fn forged_shred_after_a_genuine_one_of_its_set_is_a_root_mismatch() {
    let shreds = shreds();
    let (genuine, bad) = (&shreds[1], forged(&shreds, 2));
    let store = Blockstore::in_memory();
    let out = store.insert_shreds([genuine, &bad]).expect("insert");
    assert_eq!(out.inserted, 1);
    let err = &out.rejected.first().expect("forgery rejected").error;
    assert!(
        matches!(
            err,
            LedgerError::ShredRejected {
                slot: Slot(417_955_322),
                defect: InsertDefect::MerkleRootMismatch {
                    fec_set_index: 0,
                    ..
                },
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(err.cause_kind(), "merkle_root_mismatch");
    // A later call, and a call after the writer's cache is gone, reject it too.
    let again = store.insert_shreds([&bad]).expect("insert");
    assert_eq!((again.inserted, again.rejected.len()), (0, 1));
    let data = store.data_shred(Slot(417_955_322), bstore_ledger::ShredIndex(1));
    assert_eq!(data.expect("read").as_deref(), Some(&genuine[..]));
}

#[cfg(feature = "storage")]
#[test]
fn the_set_root_is_read_back_from_a_stored_shred_after_reopening() {
    use bstore_ledger::store::AccessMode;
    let shreds = shreds();
    let dir = tempfile::tempdir().expect("tempdir");
    {
        let store = Blockstore::open(dir.path(), AccessMode::ReadWrite).expect("open");
        assert_eq!(
            store.insert_shreds([&shreds[5]]).expect("insert").inserted,
            1
        );
    }
    let store = Blockstore::open(dir.path(), AccessMode::ReadWrite).expect("reopen");
    let out = store.insert_shreds([forged(&shreds, 6)]).expect("insert");
    assert_eq!(out.inserted, 0);
    assert_eq!(out.rejected[0].error.cause_kind(), "merkle_root_mismatch");
}

#[test]
fn with_the_leader_key_a_forgery_is_refused_in_any_order() {
    let shreds = shreds();
    let leader: Pubkey = LEADER.parse().expect("pubkey");
    let options = InsertOptions {
        leader: LeaderCheck::Verify(leader),
        ..InsertOptions::default()
    };
    let store = Blockstore::in_memory();
    let bad = forged(&shreds, 3);
    let mut input = vec![bad.clone()];
    input.extend(shreds.iter().cloned());
    let out = store.insert_shreds_with(&input, options).expect("insert");
    assert_eq!(out.inserted, 320, "every genuine shred goes in");
    assert_eq!(out.rejected.len(), 1);
    assert_eq!(out.rejected[0].error.cause_kind(), "invalid_signature");
    assert_eq!(index_of(&bad), 3);
    let got = store
        .get_slot_entries_with_shred_info(Slot(417_955_322), 0, AllowDead::No)
        .expect("fetch");
    assert!(got.is_full);
    assert_eq!(got.entries.len(), 103);
}

#[test]
fn without_the_leader_key_the_first_shred_of_a_set_defines_its_root() {
    // Documented limit: with no key and nothing stored, a forgery that arrives first is
    // taken, and the genuine shreds of its set are then the ones refused.
    let shreds = shreds();
    let store = Blockstore::in_memory();
    let out = store
        .insert_shreds([forged(&shreds, 4), shreds[0].clone()])
        .expect("insert");
    assert_eq!(out.inserted, 1);
    assert_eq!(out.rejected[0].error.cause_kind(), "merkle_root_mismatch");
}

/// Firedancer's early `0x85` localnet shreds (root stored in the payload) cannot be checked
/// against one root per set: by default the first one of the set is taken and the rest are
/// refused, as Agave's insert would; `MerkleCheck::Skip` imports them whole. (Agave 4.x's
/// shape rules drop every unchained Merkle shred first: off here, this is the root check.)
#[test]
fn early_merkle_layout_is_refused_by_default() {
    use bstore_ledger::store::MerkleCheck;
    let packets = common::read_ar("firedancer/localnet-shreds/localnet-slot0-shreds.ar");
    let store = Blockstore::in_memory();
    let out = store
        .insert_shreds_with(&packets, common::legacy_shapes())
        .expect("insert");
    assert_eq!((out.inserted, out.rejected.len()), (1, 3));
    assert!(
        out.rejected
            .iter()
            .all(|r| r.error.cause_kind() == "merkle_root_mismatch")
    );
    let store = Blockstore::in_memory();
    let options = InsertOptions {
        merkle: MerkleCheck::Skip,
        ..common::legacy_shapes()
    };
    let out = store.insert_shreds_with(&packets, options).expect("insert");
    assert_eq!((out.inserted, out.completed_data_sets.len()), (4, 1));
}

/// A forgery refused for another reason never defines its set's root: a shred of set 0
/// claiming another parent is refused (`parent_mismatch`), and the genuine shred 0 that
/// follows in the same call still goes in.
#[test]
fn a_forgery_refused_by_the_meta_rules_does_not_claim_its_set() {
    let shreds = shreds();
    let store = Blockstore::in_memory();
    let last = shreds
        .iter()
        .find(|p| index_of(p) == 319)
        .expect("shred 319");
    assert_eq!(store.insert_shreds([last]).expect("insert").inserted, 1);
    let first = shreds.iter().find(|p| index_of(p) == 0).expect("shred 0");
    let mut bad = shreds.iter().find(|p| index_of(p) == 5).expect("5").clone();
    bad[83..85].copy_from_slice(&2u16.to_le_bytes()); // parent_offset: another parent
    let out = store.insert_shreds([&bad, first]).expect("insert");
    assert_eq!(out.rejected.len(), 1, "{:?}", out.rejected);
    assert_eq!(out.rejected[0].error.cause_kind(), "parent_mismatch");
    assert_eq!(out.inserted, 1, "the genuine shred 0 is stored");
}
