//! Scenario: random sequences of insert / corrupt insert / fetch / mark dead / set root on a
//! small forked ledger of real-format shreds (our shredder, signed, chained, resigned) agree
//! with a reference model after every step — on the in-memory engine and on RocksDB. The
//! coverage-guided fuzz target `store_model` runs the same model.

use crate::model;

use bstore_ledger::store::Blockstore;
use proptest::prelude::*;

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
