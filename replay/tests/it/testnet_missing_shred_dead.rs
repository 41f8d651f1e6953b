//! The testnet slot with one shred missing, replayed as a finished ledger: replay gets as far
//! as the hole, then marks the slot dead naming the missing shred.

use crate::common;

use bstore_ledger::ShredIndex;
use bstore_replay::ReplayError;
use common::{Testnet, dead, temp_blockstore};

#[test]
fn missing_shred_marks_the_slot_dead_naming_the_shred() {
    let t = Testnet::load();
    let missing = 200u32;
    let shreds: Vec<&Vec<u8>> = t
        .shreds
        .iter()
        .filter(|s| u32::from_le_bytes(s[73..77].try_into().expect("4 bytes")) != missing)
        .collect();
    assert_eq!(shreds.len() as u64, t.shred_count() - 1);

    let (_dir, store) = temp_blockstore();
    store.insert_shreds(shreds).expect("insert");
    let mut driver = t.final_driver(&store);
    let (stats, error) = dead(driver.replay(t.slot).expect("store ok"));
    let last = t.shred_count() - 1;
    match &error {
        ReplayError::Incomplete {
            slot,
            missing: m,
            last_index,
        } => assert_eq!(
            (*slot, *m, *last_index),
            (t.slot, ShredIndex(missing), Some(last))
        ),
        other => panic!("expected an incomplete slot, got {other}"),
    }
    assert_eq!(error.kind(), "incomplete");
    assert!(
        error.to_string().contains("shred 200 is missing"),
        "{error}"
    );
    // Replayed up to the data set before the hole (it ends at shred 191).
    let before_hole = t
        .data_complete()
        .into_iter()
        .filter(|&c| c < u64::from(missing))
        .max()
        .expect("a boundary");
    assert_eq!(stats.total_shreds, before_hole + 1);
    assert!(store.is_dead(t.slot).expect("dead flag"));
}
