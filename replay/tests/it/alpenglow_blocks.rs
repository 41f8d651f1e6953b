//! Alpenglow blocks (`docs/block-components.md#replay`), built with bstore's encoders
//! (byte-exact with Agave, `formats/tests/it/block_agave_vectors.rs`) and shredder: a
//! valid block replays (one hash per entry, one final tick, the chain checked); the same
//! block in a TowerBFT slot, an entry of two hashes, a missing header or footer, a second
//! tick, and an aborted block are dead with Agave's reason (a header naming another parent
//! and an UpdateParent outside a leader window's first slot are refused by insert, which
//! marks the slot dead); an UpdateParent moves the chain to the new parent's blockhash,
//! replay starting at the UpdateParent's FEC set as Agave 4.4 does.

use crate::common;

use std::sync::Arc;

use bstore_ledger::block::{ABORTED_BLOCK_DATA_SET, BlockMarker, UpdateParent};
use bstore_ledger::entry::{PohDefect, VersionedTransaction};
use bstore_ledger::store::{Blockstore, InsertDefect, ParentInfoDefect};
use bstore_ledger::synth::alpenglow::{
    Part, chained_entries, encode_parts, shred_data_sets, standard_block,
};
use bstore_ledger::synth::{SlotGenerator, vote};
use bstore_ledger::{Hash, LedgerError, Slot};
use bstore_replay::{
    Alpenglow, Completion, ComponentViolation, CountingExecutor, MetricsSink, ReplayDriver,
    ReplayError, ReplayOptions,
};
use common::{dead, replayed, temp_blockstore};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

const PARENT: Slot = Slot(7);
const SLOT: Slot = Slot(8);

fn parent_hash() -> Hash {
    Hash([0x70; 32])
}

fn txs(seed: u64, per_entry: &[usize]) -> Vec<Vec<VersionedTransaction>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    per_entry
        .iter()
        .map(|&n| (0..n).map(|_| vote(&mut rng, Hash([3; 32]))).collect())
        .collect()
}

fn store_parts(store: &Blockstore, slot: Slot, parent: Slot, parts: &[Part]) {
    let rejected = insert_parts(store, slot, parent, parts);
    assert!(rejected.is_empty(), "{rejected:?}");
}

/// Inserts the parts' shreds; returns why insert refused any.
fn insert_parts(store: &Blockstore, slot: Slot, parent: Slot, parts: &[Part]) -> Vec<InsertDefect> {
    let sets = encode_parts(parts).expect("encode");
    let leader = SlotGenerator::new(9, 1);
    let mut defects = Vec::new();
    for shreds in shred_data_sets(slot, parent, 1, leader.leader(), &sets).expect("shred") {
        let out = store.insert_shreds(&shreds).expect("insert");
        for r in out.rejected {
            match r.error {
                LedgerError::ShredRejected { defect, .. } => defects.push(defect),
                other => panic!("{other}"),
            }
        }
    }
    defects
}

fn driver(store: &Arc<Blockstore>, alpenglow: Alpenglow) -> ReplayDriver {
    let options = ReplayOptions {
        completion: Completion::Final,
        metrics: MetricsSink::Off,
        alpenglow,
        ..ReplayOptions::default()
    };
    let mut driver = ReplayDriver::new(Arc::clone(store), options, CountingExecutor::new());
    driver.seed_blockhash(PARENT, parent_hash());
    driver
}

fn block() -> (Vec<Part>, Hash) {
    standard_block(
        PARENT,
        parent_hash(),
        vec![txs(1, &[2, 1]), txs(2, &[3])],
        1_000,
    )
}

fn dead_with(parts: &[Part], alpenglow: Alpenglow) -> (ReplayError, bool) {
    let (_dir, store) = temp_blockstore();
    store_parts(&store, SLOT, PARENT, parts);
    let (_, error) = dead(driver(&store, alpenglow).replay(SLOT).expect("store ok"));
    (error, store.is_dead(SLOT).expect("flag"))
}

fn component(error: &ReplayError) -> ComponentViolation {
    match error {
        ReplayError::Component { violation, .. } => *violation,
        other => panic!("expected a component violation, got {other}"),
    }
}

#[test]
fn a_valid_block_replays() {
    let (parts, blockhash) = block();
    let (_dir, store) = temp_blockstore();
    store_parts(&store, SLOT, PARENT, &parts);
    let (stats, hash) = replayed(
        driver(&store, Alpenglow::After(Slot(0)))
            .replay(SLOT)
            .expect("ok"),
    );
    assert_eq!(hash, blockhash);
    assert_eq!(
        stats.total_entries, 4,
        "three transaction entries and the final tick"
    );
    assert_eq!(stats.total_transactions, 6);
}

#[test]
fn markers_in_a_tower_slot_kill_it() {
    let (parts, _) = block();
    let (error, marked) = dead_with(&parts, Alpenglow::Off);
    assert!(marked);
    assert_eq!(
        component(&error),
        ComponentViolation::BlockComponentPreMigration
    );
    assert_eq!(error.kind(), "block_component_pre_migration");
    assert_eq!(
        error.to_string(),
        "slot 8: BlockComponent detected pre-migration"
    );
    // Alpenglow from slot 8 on (After(8)) leaves slot 8 itself a TowerBFT slot.
    let (error, _) = dead_with(&parts, Alpenglow::After(SLOT));
    assert_eq!(
        component(&error),
        ComponentViolation::BlockComponentPreMigration
    );
}

#[test]
fn an_entry_of_two_hashes_is_invalid_tick_hash_count() {
    let (mut parts, _) = block();
    let Part::Entries(entries) = &mut parts[1] else {
        panic!("batch")
    };
    entries[1].num_hashes = 2;
    let (error, marked) = dead_with(&parts, Alpenglow::After(Slot(0)));
    assert!(marked);
    match error {
        ReplayError::Ticks {
            entry: 1,
            defect:
                PohDefect::HashesPerTick {
                    expected: 1,
                    found: 2,
                },
            ..
        } => {}
        other => panic!("{other}"),
    }
}

#[test]
fn a_broken_chain_is_poh() {
    let (mut parts, _) = block();
    let Part::Entries(entries) = &mut parts[2] else {
        panic!("batch")
    };
    entries[0].hash = Hash([0xee; 32]);
    let (error, _) = dead_with(&parts, Alpenglow::After(Slot(0)));
    assert!(
        matches!(error, ReplayError::Poh { entry: 2, .. }),
        "{error}"
    );
}

#[test]
fn order_rules_give_agaves_reasons() {
    let on = Alpenglow::After(Slot(0));
    let (parts, _) = block();
    // No header.
    let (error, _) = dead_with(&parts[1..], on);
    assert_eq!(component(&error), ComponentViolation::MissingParentMarker);
    // No footer: the final tick comes while entries are still expected.
    let mut no_footer = parts.clone();
    no_footer.remove(3);
    let (error, _) = dead_with(&no_footer, on);
    assert_eq!(
        component(&error),
        ComponentViolation::InvalidAlpentickPosition
    );
    // Two headers.
    let mut two = parts.clone();
    two.insert(1, parts[0].clone());
    let (error, _) = dead_with(&two, on);
    assert_eq!(component(&error), ComponentViolation::MultipleBlockHeaders);
    // The header names another parent.
    let mut wrong = parts.clone();
    wrong[0] = Part::Marker(BlockMarker::Header(bstore_ledger::block::BlockHeader {
        parent_slot: Slot(6),
        parent_block_id: Hash::default(),
    }));
    // Insert already refuses it and marks the slot dead, as Agave 4.4's insert does.
    let (_dir, store) = temp_blockstore();
    assert_eq!(
        insert_parts(&store, SLOT, PARENT, &wrong),
        vec![InsertDefect::ParentInfo(
            ParentInfoDefect::BlockHeaderParentMismatch {
                header: Slot(6),
                shred: PARENT
            }
        )]
    );
    assert!(store.is_dead(SLOT).expect("flag"));
}

#[test]
fn a_second_tick_is_too_many_ticks() {
    let (mut parts, _) = block();
    // A tick inside the first batch: the final tick is then the second.
    let mut prev = parent_hash();
    let mut batch = txs(1, &[2, 1]);
    batch.insert(1, Vec::new());
    parts[1] = Part::Entries(chained_entries(&mut prev, batch));
    let rest = chained_entries(&mut prev, txs(2, &[3]));
    parts[2] = Part::Entries(rest);
    parts[4] = Part::Entries(chained_entries(&mut prev, vec![Vec::new()]));
    let (error, _) = dead_with(&parts, Alpenglow::After(Slot(0)));
    match error {
        ReplayError::Ticks {
            defect:
                PohDefect::TickCount {
                    expected: 1,
                    found: 2,
                },
            ..
        } => {}
        other => panic!("{other}"),
    }
}

#[test]
fn aborted_block_is_dead_as_block_aborted() {
    let (parts, _) = block();
    let aborted = vec![
        parts[0].clone(),
        parts[1].clone(),
        Part::Raw(ABORTED_BLOCK_DATA_SET.to_vec()),
    ];
    let (error, marked) = dead_with(&aborted, Alpenglow::After(Slot(0)));
    assert!(marked);
    assert_eq!(error.kind(), "block_aborted");
    assert!(matches!(
        error,
        ReplayError::InvalidData {
            source: LedgerError::BlockAborted { slot: SLOT, .. },
            ..
        }
    ));
}

/// Slot 8 opens a leader window: its UpdateParent (new parent 6) abandons the prefix built
/// on 7, and the entries after it chain from slot 6's blockhash.
#[test]
fn update_parent_moves_the_chain_to_the_new_parent() {
    let new_parent = Slot(6);
    let new_parent_hash = Hash([0x60; 32]);
    let (head, _) = block();
    let mut prev = new_parent_hash;
    let mut parts = vec![head[0].clone(), head[1].clone()];
    parts.push(Part::Marker(BlockMarker::UpdateParent(UpdateParent {
        new_parent_slot: new_parent,
        new_parent_block_id: Hash([0x61; 32]),
    })));
    parts.push(Part::Entries(chained_entries(&mut prev, txs(5, &[1, 2]))));
    parts.push(head[3].clone());
    parts.push(Part::Entries(chained_entries(&mut prev, vec![Vec::new()])));
    let (_dir, store) = temp_blockstore();
    store_parts(&store, SLOT, PARENT, &parts);
    let mut d = driver(&store, Alpenglow::After(Slot(0)));
    d.seed_blockhash(new_parent, new_parent_hash);
    let (_, hash) = replayed(d.replay(SLOT).expect("ok"));
    assert_eq!(hash, prev);

    // Without the new parent's blockhash the slot is refused, not marked.
    let (_dir, store) = temp_blockstore();
    store_parts(&store, SLOT, PARENT, &parts);
    let status = driver(&store, Alpenglow::After(Slot(0)))
        .replay(SLOT)
        .expect("ok");
    assert!(
        matches!(
            status,
            bstore_replay::SlotStatus::Refused {
                error: ReplayError::ParentUnknown {
                    parent: Slot(6),
                    ..
                }
            }
        ),
        "{status:?}"
    );
    assert!(!store.is_dead(SLOT).expect("flag"));

    // Slot 9 is not the first of its leader window.
    let (_dir, store) = temp_blockstore();
    let mut header = parts.clone();
    header[0] = Part::Marker(BlockMarker::Header(bstore_ledger::block::BlockHeader {
        parent_slot: SLOT,
        parent_block_id: Hash::default(),
    }));
    // Insert refuses the UpdateParent and marks the slot dead, as Agave 4.4's insert does.
    assert_eq!(
        insert_parts(&store, Slot(9), SLOT, &header),
        vec![InsertDefect::ParentInfo(
            ParentInfoDefect::UpdateParentNotFirstInLeaderWindow
        )]
    );
    assert!(store.is_dead(Slot(9)).expect("flag"));
}
