//! Scenario: a leader signs two versions of one slot. Insert keeps the first shred of every
//! position and set, stores one duplicate-slot proof per slot in Agave's `duplicate_slots`
//! layout (the stored shred first) and reports the slot once, for each way two versions
//! collide: the same position, one FEC set with two roots, one set with two shapes, and a
//! set chaining to another root than the set before it. Real fixtures whose copies differ
//! only in the retransmitter signature are not duplicates.

use crate::common;

use bstore_ledger::entry::{Entry, encode_entries};
use bstore_ledger::shred::{BatchOptions, LastInSlot, Resign, ShredRef, Shredder};
use bstore_ledger::store::{
    Blockstore, DuplicateKind, DuplicateSlotProof, InsertDefect, InsertOptions, MerkleCheck,
};
use bstore_ledger::{Hash, LedgerError, Slot};
use ed25519_dalek::SigningKey;

const SLOT: Slot = Slot(9);

/// One version of slot 9: `sets` FEC sets of 32:32, entries seeded by `seed`.
fn version(seed: u8, sets: usize) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let key = SigningKey::from_bytes(&[5u8; 32]);
    let mut shredder = Shredder::new(SLOT, Slot(8), 1, key).expect("shape");
    let (mut data, mut code) = (Vec::new(), Vec::new());
    for i in 0..sets {
        let entries = vec![Entry {
            num_hashes: u64::from(seed) * 100 + i as u64,
            hash: Hash([seed; 32]),
            transactions: Vec::new(),
        }];
        let last = i + 1 == sets;
        let opts = BatchOptions {
            last_in_slot: if last {
                LastInSlot::Yes
            } else {
                LastInSlot::No
            },
            reference_tick: 0,
            resign_last: Resign::No,
        };
        let batch = shredder
            .shred_batch_with_code(&encode_entries(&entries), opts)
            .expect("shreds");
        data.extend(batch.data);
        code.extend(batch.code);
    }
    (data, code)
}

/// Position of the first data shred of the second FEC set.
fn second_set(data: &[Vec<u8>]) -> usize {
    data.iter()
        .position(|p| ShredRef::parse(p).is_ok_and(|s| s.fec_set_index() != 0))
        .expect("a second set")
}

fn store() -> Blockstore<bstore_ledger::store::MemEngine> {
    Blockstore::in_memory()
}

fn proof_of(store: &Blockstore<bstore_ledger::store::MemEngine>) -> Option<DuplicateSlotProof> {
    store.duplicate_slot_proof(SLOT).expect("proof decodes")
}

#[test]
fn same_position_keeps_the_first_and_stores_a_proof() {
    let (a, _) = version(1, 1);
    let (b, _) = version(2, 1);
    let store = store();
    store.insert_shreds(&a).expect("insert a");
    let out = store.insert_shreds([&b[3]]).expect("insert b");
    assert_eq!(out.duplicates, 1);
    assert_eq!(out.duplicate_slots.len(), 1);
    assert_eq!(out.duplicate_slots[0].kind, DuplicateKind::SamePosition);
    assert_eq!(
        store
            .data_shred(SLOT, ShredRef::parse(&a[3]).expect("p").index())
            .expect("read"),
        Some(a[3].clone()),
        "the first shred stays"
    );
    let proof = proof_of(&store).expect("proof stored");
    assert_eq!((proof.shred1, proof.shred2), (a[3].clone(), b[3].clone()));

    // One proof per slot: a second conflict is not reported again, the proof is unchanged.
    let again = store.insert_shreds([&b[4]]).expect("insert");
    assert!(again.duplicate_slots.is_empty());
    assert_eq!(proof_of(&store).expect("proof").shred2, b[3]);
    // The same shred again is no conflict.
    let same = store.insert_shreds([&a[5]]).expect("insert");
    assert_eq!((same.duplicates, same.duplicate_slots.len()), (1, 0));
}

#[test]
fn two_roots_in_one_set_refuse_the_second_and_store_a_proof() {
    let (a, _) = version(1, 1);
    let (b, _) = version(2, 1);
    let store = store();
    store.insert_shreds(&a[..10]).expect("insert a");
    let out = store.insert_shreds([&b[20]]).expect("insert b");
    assert_eq!(out.inserted, 0);
    assert!(matches!(
        out.rejected[0].error,
        LedgerError::ShredRejected {
            defect: InsertDefect::MerkleRootMismatch { .. },
            ..
        }
    ));
    assert_eq!(
        out.duplicate_slots[0].kind,
        DuplicateKind::MerkleRootConflict
    );
    let proof = proof_of(&store).expect("proof");
    // Against the set's first stored shred (its merkle_root_meta).
    assert_eq!((proof.shred1, proof.shred2), (a[0].clone(), b[20].clone()));
}

#[test]
fn two_shapes_in_one_set_refuse_the_second_and_store_a_proof() {
    // A second coding shred of set 0 claiming 31 coding shreds instead of 32. Roots are not
    // compared here (MerkleCheck::Skip), as for legacy sets, which have none: the shape is
    // what conflicts. Agave 4.x's shape rules would drop a 32:31 shred before this check
    // (`store_agave4_rules.rs`): it concerns ledgers of older validators.
    let (_, a) = version(1, 1);
    let mut b = a[1].clone();
    b[85..87].copy_from_slice(&31u16.to_le_bytes());
    let skip = InsertOptions {
        merkle: MerkleCheck::Skip,
        shape: bstore_ledger::store::ShapeRules::Legacy,
        ..InsertOptions::default()
    };
    let store = store();
    store.insert_shreds_with([&a[0]], skip).expect("insert a");
    let out = store.insert_shreds_with([&b], skip).expect("insert b");
    assert_eq!(out.inserted, 0);
    assert!(matches!(
        out.rejected[0].error,
        LedgerError::ShredRejected {
            defect: InsertDefect::ErasureConfigConflict {
                num_data: 32,
                num_coding: 32,
                ..
            },
            ..
        }
    ));
    assert_eq!(
        out.duplicate_slots[0].kind,
        DuplicateKind::ErasureConfigConflict
    );
    let proof = proof_of(&store).expect("proof");
    assert_eq!((proof.shred1, proof.shred2), (a[0].clone(), b));
}

/// Version a's first set (with a coding shred: its erasure_meta tells where the next set
/// starts) and version b's second set, which chains to b's first root, not a's.
fn chained_conflict(
    options: InsertOptions,
) -> (
    Blockstore<bstore_ledger::store::MemEngine>,
    bstore_ledger::store::InsertOutcome,
    Vec<u8>,
    Vec<u8>,
) {
    let (a_data, a_code) = version(1, 2);
    let (b_data, _) = version(2, 2);
    let second = second_set(&b_data);
    let store = store();
    let mut first: Vec<&Vec<u8>> = a_data[..second].iter().collect();
    first.push(&a_code[0]);
    store.insert_shreds_with(first, options).expect("insert a");
    let out = store
        .insert_shreds_with([&b_data[second]], options)
        .expect("insert b");
    (store, out, a_code[0].clone(), b_data[second].clone())
}

#[test]
fn a_set_chained_to_another_root_marks_the_slot_dead_but_stays_stored() {
    let (store, out, _, _) = chained_conflict(InsertOptions::default());
    assert_eq!(
        out.inserted, 1,
        "chaining conflicts do not refuse the shred (as Agave)"
    );
    // Agave 4.x: no proof for a chained-root conflict; the slot is marked dead.
    assert!(out.duplicate_slots.is_empty(), "{:?}", out.duplicate_slots);
    assert_eq!(out.slots_marked_dead, vec![SLOT]);
    assert!(store.is_dead(SLOT).expect("dead flag"));
    assert!(proof_of(&store).is_none());
}

#[test]
fn a_set_chained_to_another_root_is_a_duplicate_under_legacy_rules() {
    let (store, out, a_code, b_shred) = chained_conflict(common::legacy_shapes());
    assert_eq!(out.inserted, 1);
    assert_eq!(
        out.duplicate_slots[0].kind,
        DuplicateKind::ChainedMerkleRootConflict
    );
    assert!(out.slots_marked_dead.is_empty());
    let proof = proof_of(&store).expect("proof");
    assert_eq!((proof.shred1, proof.shred2), (a_code, b_shred));
}

#[test]
fn a_next_set_stored_first_is_checked_forward() {
    let (a_data, a_code) = version(1, 2);
    let (b_data, _) = version(2, 2);
    let second = second_set(&b_data);
    for options in [InsertOptions::default(), common::legacy_shapes()] {
        let store = store();
        store
            .insert_shreds_with([&b_data[second]], options)
            .expect("insert b's second set");
        let out = store
            .insert_shreds_with([&a_data[0], &a_code[0]], options)
            .expect("insert a");
        if options.shape == bstore_ledger::store::ShapeRules::Legacy {
            assert_eq!(
                out.duplicate_slots[0].kind,
                DuplicateKind::ChainedMerkleRootConflict
            );
        } else {
            assert_eq!(out.slots_marked_dead, vec![SLOT]);
        }
    }
}

#[test]
fn a_conflict_in_a_slot_not_full_marks_it_dead_one_in_a_full_slot_does_not() {
    let (a_data, _) = version(1, 1);
    let (b_data, b_code) = version(2, 1);
    // Half of a's set, then b's shred at a free position of the same set: a root conflict.
    let partial = store();
    partial.insert_shreds(&a_data[..8]).expect("insert a");
    let out = partial.insert_shreds([&b_data[9]]).expect("insert b");
    assert_eq!(out.rejected.len(), 1);
    assert_eq!(out.slots_marked_dead, vec![SLOT], "Agave 4.x marks it dead");
    assert!(partial.is_dead(SLOT).expect("dead flag"));
    // Every data shred of a (the slot full), then b's coding shred (a free position of the
    // same set, another root): no dead mark.
    let full = store();
    let mut all: Vec<&Vec<u8>> = a_data.iter().collect();
    all.push(&b_code[0]);
    let out = full.insert_shreds(all).expect("insert");
    assert_eq!(out.rejected.len(), 1);
    assert!(out.slots_marked_dead.is_empty(), "full before the conflict");
    assert!(!full.is_dead(SLOT).expect("dead flag"));
    // Under the legacy rules a conflict never marks a slot dead.
    let legacy = store();
    legacy
        .insert_shreds_with(&a_data[..8], common::legacy_shapes())
        .expect("insert a");
    let out = legacy
        .insert_shreds_with([&b_data[9]], common::legacy_shapes())
        .expect("insert b");
    assert!(out.slots_marked_dead.is_empty());
}

#[test]
fn genuine_versions_make_no_proof_in_any_order() {
    let (data, code) = version(1, 3);
    let store = store();
    let mut all: Vec<&Vec<u8>> = data.iter().chain(&code).collect();
    all.reverse();
    for chunk in all.chunks(7) {
        let out = store.insert_shreds(chunk.iter().copied()).expect("insert");
        assert!(out.duplicate_slots.is_empty(), "{:?}", out.duplicate_slots);
    }
    assert!(proof_of(&store).is_none());
}

#[test]
fn real_copies_differing_in_the_retransmitter_signature_are_not_duplicates() {
    // Firedancer's chained resigned fixture holds copies of shreds that differ only there.
    let rel =
        "firedancer/fec-sets/chained_resigned-FT9QgTVo375TgDAQusTgpsfXqTosCJLfrBpoVdcbnhtS.ar";
    let packets = common::read_ar(rel);
    let store = store();
    let out = store
        .insert_shreds_with(&packets, common::insert_options(rel))
        .expect("insert");
    assert!(out.duplicates > 0, "the fixture holds copies");
    assert!(out.duplicate_slots.is_empty(), "{:?}", out.duplicate_slots);
}
