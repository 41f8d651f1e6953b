//! The real testnet slot with its first entry's `num_hashes` set to `u64::MAX`.
//! Replay must refuse it before hashing (without the limit it would hash until killed) and mark
//! it dead: by the tick rule when hashes per tick are known, else with a `hash_limit`
//! reason; and leave the flag alone when told to only report.

use crate::common;

use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use bstore_ledger::entry::{HashLimits, PohDefect, TickRules};
use bstore_replay::{
    Completion, CountingExecutor, DeadSlots, MetricsSink, ReplayDriver, ReplayError, ReplayOptions,
    SlotStatus, dead_slot_datapoint,
};
use common::{Testnet, data_byte, dead, replayed, temp_blockstore};

/// More than enough for a refusal; hashing `u64::MAX` times would take millennia.
const BUDGET: Duration = Duration::from_secs(10);

/// The testnet shreds with data bytes 8..16 of shred 0 (the first entry's `num_hashes`,
/// after the set's u64 entry count) replaced by `num_hashes`. Insertion checks neither
/// the Merkle root nor the signature, so the tampered shred is stored as is.
fn with_first_num_hashes(t: &Testnet, num_hashes: u64) -> Vec<Vec<u8>> {
    let mut shreds = t.shreds.clone();
    let shred = shreds
        .iter_mut()
        .find(|s| u32::from_le_bytes(s[73..77].try_into().expect("4 bytes")) == 0)
        .expect("shred 0");
    shred[data_byte(8)..data_byte(16)].copy_from_slice(&num_hashes.to_le_bytes());
    shreds
}

/// Replays the slot from `shreds` in a fresh store on another thread; panics if that takes
/// longer than [`BUDGET`]. Returns the status and whether the dead flag is set.
fn replay_within_budget(
    shreds: Vec<Vec<u8>>,
    rules: TickRules,
    limits: HashLimits,
    dead_slots: DeadSlots,
) -> (SlotStatus, bool) {
    let t = Testnet::load();
    let (tx, rx) = mpsc::channel();
    let replaying = std::thread::spawn(move || {
        let (_dir, store) = temp_blockstore();
        common::insert_tampered(&store, &shreds);
        let options = ReplayOptions {
            tick_rules: rules,
            hash_limits: limits,
            dead_slots,
            completion: Completion::Final,
            metrics: MetricsSink::Off,
            ..ReplayOptions::default()
        };
        let mut driver = ReplayDriver::new(Arc::clone(&store), options, CountingExecutor::new());
        driver.seed_blockhash(t.parent, t.parent_blockhash);
        let status = driver.replay(t.slot).expect("store ok");
        let flagged = store.is_dead(t.slot).expect("dead flag");
        // The receiver may have given up already; nothing to do then.
        let _ = tx.send((status, flagged));
    });
    let answer = rx
        .recv_timeout(BUDGET)
        .expect("replay of the tampered slot did not finish within the budget");
    // The thread still closes its RocksDB after answering: wait for it, or the test process
    // may exit while RocksDB is closing (an abort: "pthread lock: Invalid argument").
    replaying.join().expect("replay thread");
    answer
}

fn unchecked_rules() -> TickRules {
    TickRules {
        hashes_per_tick: None,
        ..TickRules::default()
    }
}

fn assert_tick_hash_limit(error: &ReplayError, t: &Testnet, limit: u64) {
    match error {
        ReplayError::Ticks {
            slot,
            entry: 0,
            defect: PohDefect::TickHashLimit { limit: l, found },
        } => {
            assert_eq!(*slot, t.slot);
            assert_eq!((*l, *found), (limit, u64::MAX));
        }
        other => panic!("expected a hash limit at entry 0, got {other}"),
    }
    assert_eq!(error.kind(), "hash_limit");
    let point = dead_slot_datapoint(error, DeadSlots::Mark);
    let tag = |name: &str| {
        point
            .tags
            .iter()
            .find(|(n, _)| n.as_ref() == name)
            .map(|(_, v)| v.clone())
    };
    assert_eq!(tag("reason").as_deref(), Some("hash_limit"));
    assert_eq!(tag("marked").as_deref(), Some("true"));
}

#[test]
fn huge_num_hashes_with_known_hashes_per_tick_is_dead_before_hashing() {
    let t = Testnet::load();
    let shreds = with_first_num_hashes(&t, u64::MAX);
    let (status, flagged) =
        replay_within_budget(shreds, t.rules, HashLimits::default(), DeadSlots::Mark);
    let (stats, error) = dead(status);
    assert!(flagged, "marked dead in the blockstore");
    let per_tick = t.rules.hashes_per_tick.expect("testnet hashes per tick");
    // The tick rule itself, as Agave's tick hash count check before PoH.
    match &error {
        ReplayError::Ticks {
            slot,
            entry: 0,
            defect: PohDefect::HashesPerTick { expected, found },
        } => assert_eq!((*slot, *expected, *found), (t.slot, per_tick, u64::MAX)),
        other => panic!("expected wrong hashes per tick at entry 0, got {other}"),
    }
    assert_eq!(error.kind(), "ticks");
    assert_eq!(stats.total_entries, 0);
}

#[test]
fn huge_num_hashes_without_hashes_per_tick_hits_the_default_limit() {
    let t = Testnet::load();
    let shreds = with_first_num_hashes(&t, u64::MAX);
    let (status, flagged) = replay_within_budget(
        shreds,
        unchecked_rules(),
        HashLimits::default(),
        DeadSlots::Mark,
    );
    let (_, error) = dead(status);
    assert!(flagged);
    assert_tick_hash_limit(&error, &t, HashLimits::DEFAULT_MAX_HASHES_PER_TICK);
}

#[test]
fn report_only_leaves_the_dead_flag_unset() {
    let t = Testnet::load();
    let shreds = with_first_num_hashes(&t, u64::MAX);
    let (status, flagged) = replay_within_budget(
        shreds,
        unchecked_rules(),
        HashLimits::default(),
        DeadSlots::Report,
    );
    let (_, error) = dead(status);
    assert_eq!(error.kind(), "hash_limit");
    assert!(!flagged, "DeadSlots::Report must not touch the blockstore");
}

#[test]
fn a_wrong_hashes_per_tick_with_report_only_keeps_a_good_slot_replayable() {
    let t = Testnet::load();
    let wrong = TickRules {
        hashes_per_tick: t.rules.hashes_per_tick.map(|h| h + 1),
        ..t.rules
    };
    let (status, flagged) = replay_within_budget(
        t.shreds.clone(),
        wrong,
        HashLimits::default(),
        DeadSlots::Report,
    );
    dead(status);
    assert!(!flagged);
    // Under the right rules the untouched slot still replays to its blockhash.
    let (status, _) = replay_within_budget(
        t.shreds.clone(),
        t.rules,
        HashLimits::default(),
        DeadSlots::Mark,
    );
    assert_eq!(replayed(status).1, t.blockhash);
}

#[test]
fn the_slot_limit_refuses_a_slot_before_its_hashes_add_up() {
    let t = Testnet::load();
    let total = t.total("num_hashes");
    let limits = HashLimits {
        max_slot_hashes: total - 1,
        ..HashLimits::default()
    };
    let (status, flagged) =
        replay_within_budget(t.shreds.clone(), unchecked_rules(), limits, DeadSlots::Mark);
    let (_, error) = dead(status);
    assert!(flagged);
    assert_eq!(error.kind(), "hash_limit");
    match error {
        ReplayError::Ticks {
            defect: PohDefect::SlotHashLimit { limit, found },
            ..
        } => {
            assert_eq!(limit, total - 1);
            assert!(found > limit);
        }
        other => panic!("expected the slot hash limit, got {other}"),
    }
    // The real slot is within the default limits.
    let (status, _) = replay_within_budget(
        t.shreds.clone(),
        unchecked_rules(),
        HashLimits::default(),
        DeadSlots::Mark,
    );
    assert_eq!(replayed(status).1, t.blockhash);
}
