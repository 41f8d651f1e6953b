//! Scenario: random sequences of insert / corrupt insert / fetch / mark dead / set root on a
//! small forked ledger of real-format shreds (our shredder, signed, chained, resigned) agree
//! with a reference model after every step — on the in-memory engine and on RocksDB, each
//! also under a `FaultEngine` whose failures the sequence schedules (a failed step changes
//! nothing). The coverage-guided fuzz target `store_model` runs the same model.

use std::path::Path;

use crate::model;

use bstore_ledger::store::{Blockstore, FaultEngine, FaultPoint, KvEngine, MemEngine};
use proptest::prelude::*;

fn faulty<E: KvEngine>(engine: E, path: &Path) -> Blockstore<FaultEngine<E>> {
    Blockstore::with_engine(FaultEngine::new(engine), path)
}

fn ledger() -> &'static model::GenLedger {
    static LEDGER: std::sync::OnceLock<model::GenLedger> = std::sync::OnceLock::new();
    LEDGER.get_or_init(|| model::GenLedger::new(0x5eed))
}

/// Inserting every shred of every slot (in order) makes every slot full and connected; the
/// model's own checks then pass, so the model is not vacuous.
#[test]
fn whole_ledger_in_order_is_full_connected_and_matches() {
    let mut ops = Vec::new();
    for s in 0..5u8 {
        for chunk in 0..3u8 {
            ops.extend([0, s, 31]);
            ops.extend((0..32).map(|i| chunk * 32 + i));
        }
    }
    for s in 0..5u8 {
        ops.extend([3, s, 0]);
    }
    let store = Blockstore::in_memory();
    model::run(&store, ledger(), &ops).expect("model agrees");
    for g in &ledger().slots {
        let meta = store.meta(g.slot).expect("meta").expect("present");
        assert!(meta.is_full() && meta.is_connected(), "slot {}", g.slot);
    }
}

/// A byte flipped inside the signed part of a shred is never stored.
#[test]
fn corrupted_shreds_are_rejected() {
    let store = Blockstore::in_memory();
    for pos in [0u8, 64, 70, 90, 200] {
        // corrupt op: tag 2, slot 2, shred 3, position (hi, lo), xor
        model::run(&store, ledger(), &[2, 2, 3, 0, pos, 0x40]).expect("rejected");
    }
}

/// Every data shred of slot 2 in one call (tag 6, slot 2, no rotation).
const INSERT_SLOT_TWO: [u8; 3] = [6, 2, 0];

/// A failed insert (its write, or its first read) stores nothing and the model agrees; the
/// same insert afterwards stores the whole slot.
#[test]
fn a_failed_insert_changes_nothing_and_the_same_insert_then_works() {
    for (point, ordinal) in [
        (FaultPoint::Write, 0u8),
        (FaultPoint::Read, 1),
        (FaultPoint::Read, 0),
    ] {
        let store = faulty(MemEngine::new(), Path::new(""));
        // Fault op: tag 7, point byte (0 write, 1 read, 2 cursor step), ordinal byte (n - 1).
        let point_byte = match point {
            FaultPoint::Write => 0,
            _ => 1,
        };
        let mut ops = vec![7, point_byte, ordinal];
        ops.extend(INSERT_SLOT_TWO);
        model::run_with_faults(&store, ledger(), &ops).expect("model agrees");
        assert_eq!(store.faults().fired(point), 1, "{point:?} #{ordinal}");
        assert!(
            store
                .data_shred(bstore_ledger::Slot(2), bstore_ledger::ShredIndex(0))
                .expect("read")
                .is_none()
        );
        model::run_with_faults(&store, ledger(), &INSERT_SLOT_TWO).expect("model agrees");
        let meta = store
            .meta(bstore_ledger::Slot(2))
            .expect("meta")
            .expect("slot 2");
        assert!(meta.is_full(), "{meta:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    #[test]
    fn in_memory_store_agrees_with_the_model(ops in proptest::collection::vec(any::<u8>(), 0..600)) {
        let store = Blockstore::in_memory();
        if let Err(e) = model::run(&store, ledger(), &ops) {
            prop_assert!(false, "{e}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    #[test]
    fn in_memory_store_under_faults_agrees_with_the_model(
        ops in proptest::collection::vec(any::<u8>(), 0..600),
    ) {
        let store = faulty(MemEngine::new(), Path::new(""));
        if let Err(e) = model::run_with_faults(&store, ledger(), &ops) {
            prop_assert!(false, "{e}");
        }
    }
}

#[cfg(feature = "storage")]
proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn rocksdb_store_agrees_with_the_model(ops in proptest::collection::vec(any::<u8>(), 0..600)) {
        use bstore_ledger::store::AccessMode;
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Blockstore::open(dir.path(), AccessMode::ReadWrite).expect("open");
        if let Err(e) = model::run(&store, ledger(), &ops) {
            prop_assert!(false, "{e}");
        }
    }
}

#[cfg(feature = "storage")]
proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn rocksdb_store_under_faults_agrees_with_the_model(
        ops in proptest::collection::vec(any::<u8>(), 0..600),
    ) {
        use bstore_ledger::store::{AccessMode, RocksEngine};
        let dir = tempfile::tempdir().expect("tempdir");
        let engine = RocksEngine::open(dir.path(), AccessMode::ReadWrite).expect("open");
        let store = faulty(engine, dir.path());
        if let Err(e) = model::run_with_faults(&store, ledger(), &ops) {
            prop_assert!(false, "{e}");
        }
    }
}
