//! The testnet slot with one flipped byte in an entry hash: replay fails PoH at exactly that
//! entry, marks the slot dead in the blockstore, and reports why.

use crate::common;

use bstore_ledger::Hash;
use bstore_ledger::entry::PohDefect;
use bstore_replay::ReplayError;
use common::{Testnet, data_byte, dead, temp_blockstore};

#[test]
fn flipped_entry_hash_marks_the_slot_dead_with_a_poh_reason() {
    let t = Testnet::load();
    // The first entry of the data set that starts at shred 64: its hash follows the set's
    // u64 entry count and the entry's u64 num_hashes.
    let batches = t.expected["deshred"]["batches"]
        .as_array()
        .expect("batches");
    let batch = batches
        .iter()
        .find(|b| b["start_index"] == 64)
        .expect("a data set starting at 64");
    let entry = batch["first_entry_index"].as_u64().expect("index") as usize;
    let original: Hash = t.expected["entries"][entry]["hash"]
        .as_str()
        .expect("hash")
        .parse()
        .expect("base58");

    let mut shreds = t.shreds.clone();
    let shred = shreds
        .iter_mut()
        .find(|s| u32::from_le_bytes(s[73..77].try_into().expect("4 bytes")) == 64)
        .expect("shred 64");
    shred[data_byte(8 + 8 + 5)] ^= 0x01;
    let mut flipped = original;
    flipped.0[5] ^= 0x01;

    let (_dir, store) = temp_blockstore();
    common::insert_tampered(&store, &shreds);
    let mut driver = t.final_driver(&store);
    let (stats, error) = dead(driver.replay(t.slot).expect("store ok"));
    match &error {
        ReplayError::Poh {
            slot,
            entry: at,
            defect: PohDefect::HashMismatch { expected, found },
        } => {
            assert_eq!((*slot, *at), (t.slot, entry));
            assert_eq!((*expected, *found), (original, flipped));
        }
        other => panic!("expected a PoH mismatch, got {other}"),
    }
    assert_eq!(error.kind(), "poh");
    assert!(
        error
            .to_string()
            .contains("PoH verification failed at entry")
    );
    assert!(store.is_dead(t.slot).expect("dead flag"), "marked dead");
    assert_eq!(stats.total_entries, 0, "nothing of the failed call counts");
    assert!(driver.blockhash(t.slot).is_none());
    // A dead slot is refused from then on.
    assert!(matches!(
        driver.replay(t.slot).expect("store ok"),
        bstore_replay::SlotStatus::Refused {
            error: ReplayError::AlreadyDead { .. }
        }
    ));
}
