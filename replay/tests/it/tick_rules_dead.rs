//! Tick rules: a slot with too few ticks, too many, or the wrong hashes per tick is marked
//! dead with the rule it broke and where.

use crate::common;

use bstore_ledger::Slot;
use bstore_ledger::entry::{PohDefect, TickRules};
use bstore_replay::{
    Completion, CountingExecutor, MetricsSink, ReplayDriver, ReplayError, ReplayOptions,
};
use common::{GENESIS, SYNTH_HASHES_PER_TICK, dead, genesis_hash, synth_chain, temp_blockstore};

fn replay_with(rules: TickRules) -> (ReplayError, bool) {
    let chain = synth_chain(21, 1, 64);
    let (_dir, store) = temp_blockstore();
    store.insert_shreds(&chain[0].data_shreds).expect("insert");
    let options = ReplayOptions {
        tick_rules: rules,
        completion: Completion::Final,
        metrics: MetricsSink::Off,
        ..ReplayOptions::default()
    };
    let mut driver = ReplayDriver::new(store.clone(), options, CountingExecutor::new());
    driver.seed_blockhash(GENESIS, genesis_hash());
    let (_, error) = dead(driver.replay(Slot(1)).expect("store ok"));
    let is_dead = store.is_dead(Slot(1)).expect("flag");
    (error, is_dead)
}

fn first_tick(chain_entries: &[bstore_ledger::entry::Entry]) -> usize {
    chain_entries
        .iter()
        .position(|e| e.is_tick())
        .expect("a tick")
}

#[test]
fn too_few_ticks() {
    let chain = synth_chain(21, 1, 64);
    let (error, is_dead) = replay_with(TickRules {
        ticks_per_slot: 65,
        hashes_per_tick: Some(SYNTH_HASHES_PER_TICK),
    });
    assert!(is_dead);
    match error {
        ReplayError::Ticks {
            entry,
            defect: PohDefect::TickCount { expected, found },
            ..
        } => assert_eq!((entry, expected, found), (chain[0].entries.len(), 65, 64)),
        other => panic!("expected too few ticks, got {other}"),
    }
}

#[test]
fn too_many_ticks() {
    let chain = synth_chain(21, 1, 64);
    let (error, is_dead) = replay_with(TickRules {
        ticks_per_slot: 63,
        hashes_per_tick: Some(SYNTH_HASHES_PER_TICK),
    });
    assert!(is_dead);
    let last = chain[0].entries.len() - 1;
    match error {
        ReplayError::Ticks {
            entry,
            defect: PohDefect::TickCount { expected, found },
            ..
        } => assert_eq!((entry, expected, found), (last, 63, 64), "the 64th tick"),
        other => panic!("expected too many ticks, got {other}"),
    }
}

#[test]
fn wrong_hashes_per_tick() {
    let chain = synth_chain(21, 1, 64);
    let (error, is_dead) = replay_with(TickRules {
        ticks_per_slot: 64,
        hashes_per_tick: Some(SYNTH_HASHES_PER_TICK + 1),
    });
    assert!(is_dead);
    assert_eq!(error.kind(), "ticks");
    match error {
        ReplayError::Ticks {
            entry,
            defect: PohDefect::HashesPerTick { expected, found },
            ..
        } => assert_eq!(
            (entry, expected, found),
            (
                first_tick(&chain[0].entries),
                SYNTH_HASHES_PER_TICK + 1,
                SYNTH_HASHES_PER_TICK
            )
        ),
        other => panic!("expected wrong hashes per tick, got {other}"),
    }
}

/// Replays slot 2 built directly on genesis (slot 1 skipped) under `ticks_per_slot`.
fn replay_after_a_skip(ticks_per_slot: u64) -> Result<(), ReplayError> {
    let slots = common::synth_forks(23, &[(2, 0)], 64);
    let (_dir, store) = temp_blockstore();
    store
        .insert_shreds(&slots[&Slot(2)].data_shreds)
        .expect("insert");
    let options = ReplayOptions {
        tick_rules: TickRules {
            ticks_per_slot,
            hashes_per_tick: Some(SYNTH_HASHES_PER_TICK),
        },
        completion: Completion::Final,
        metrics: MetricsSink::Off,
        ..ReplayOptions::default()
    };
    let mut driver = ReplayDriver::new(store.clone(), options, CountingExecutor::new());
    driver.seed_blockhash(GENESIS, genesis_hash());
    let status = driver.replay(Slot(2)).expect("store ok");
    match status {
        bstore_replay::SlotStatus::Replayed { .. } => Ok(()),
        other => Err(dead(other).1),
    }
}

/// PoH runs on through a skipped slot: a block whose parent is two slots back holds the
/// ticks of both slots (Agave's tick height runs from the parent's end to the slot's end),
/// as a restarted leader's first block after its unfinished slot did beside a live
/// validator.
#[test]
fn a_block_after_a_skipped_slot_holds_the_skipped_slots_ticks() {
    // The generator gives slot 2 on genesis two slots of ticks: 128 at 64 per slot.
    assert!(replay_after_a_skip(64).is_ok());
    // Two slots of 65 want 130: 128 are too few.
    match replay_after_a_skip(65) {
        Err(ReplayError::Ticks {
            defect: PohDefect::TickCount { expected, found },
            ..
        }) => assert_eq!((expected, found), (130, 128)),
        other => panic!("expected too few ticks, got {other:?}"),
    }
}
