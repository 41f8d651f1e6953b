//! Scenario: insert drops what Agave 4.x's shred filter drops (fixed 32:32 sets,
//! DATA_COMPLETE only at a set's end, LAST_IN_SLOT only after a full set, chained Merkle
//! only), names the rule, stores nothing of such a shred, and with `ShapeRules::Legacy`
//! still imports the slots older validators wrote.

use bstore_ledger::shred::{BatchOptions, LastInSlot, Resign, ShredRef, Shredder};
use bstore_ledger::store::{Blockstore, InsertDefect, InsertOptions, ShapeRules};
use bstore_ledger::{LedgerError, Slot};
use ed25519_dalek::SigningKey;

use crate::common;

const FLAGS: usize = 85;

fn one_set(slot: u64) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let key = SigningKey::from_bytes(&[6u8; 32]);
    let mut shredder = Shredder::new(Slot(slot), Slot(slot - 1), 1, key).expect("shape");
    let opts = BatchOptions {
        last_in_slot: LastInSlot::Yes,
        reference_tick: 0,
        resign_last: Resign::No,
    };
    let b = shredder
        .shred_batch_with_code(&[9u8; 500], opts)
        .expect("shreds");
    (b.data, b.code)
}

fn defects(out: &bstore_ledger::store::InsertOutcome) -> Vec<InsertDefect> {
    out.rejected
        .iter()
        .filter_map(|r| match &r.error {
            LedgerError::ShredRejected { defect, .. } => Some(*defect),
            _ => None,
        })
        .collect()
}

#[test]
fn data_complete_inside_a_set_is_dropped_and_nothing_is_stored() {
    let (data, _) = one_set(20);
    let mut bad = data[3].clone();
    bad[FLAGS] |= 0x40;
    let store = Blockstore::in_memory();
    let out = store.insert_shreds([&bad]).expect("insert");
    assert_eq!(out.inserted, 0);
    assert_eq!(
        defects(&out),
        vec![InsertDefect::DataCompleteInsideSet { fec_set_index: 0 }]
    );
    assert_eq!(store.meta(Slot(20)).expect("read"), None, "no meta written");
    // The genuine shred at that index still goes in afterwards.
    let out = store.insert_shreds(&data).expect("insert");
    assert_eq!(out.inserted, 32);
    assert!(store.meta(Slot(20)).expect("read").expect("meta").is_full());
}

#[test]
fn last_in_slot_before_a_full_set_is_dropped_not_taken_as_duplicate_evidence() {
    let (data, _) = one_set(21);
    let store = Blockstore::in_memory();
    store.insert_shreds(&data[..10]).expect("insert");
    let mut early_end = data[12].clone();
    early_end[FLAGS] |= 0xC0;
    let out = store.insert_shreds([&early_end]).expect("insert");
    assert_eq!(defects(&out), vec![InsertDefect::LastInSlotInsideSet]);
    assert!(
        out.duplicate_slots.is_empty(),
        "Agave drops it before the blockstore"
    );
    assert_eq!(store.duplicate_slot_proof(Slot(21)).expect("read"), None);
}

#[test]
fn a_legacy_mainnet_slot_needs_the_legacy_option() {
    let mut packets = common::read_records("radiance-mainnet-102815960/data_shreds.bin");
    packets.extend(common::read_records(
        "radiance-mainnet-102815960/code_shreds.bin",
    ));
    let store = Blockstore::in_memory();
    let out = store.insert_shreds(&packets).expect("insert");
    assert_eq!(out.inserted, 0);
    let found = defects(&out);
    assert_eq!(found.len(), packets.len(), "every legacy shred is dropped");
    for (packet, defect) in packets.iter().zip(&found) {
        let variant = ShredRef::parse(packet).expect("parse").variant().to_byte();
        assert_eq!(*defect, InsertDefect::VariantRetired { variant });
    }
    assert_eq!(store.meta(Slot(102_815_960)).expect("read"), None);
    let options = InsertOptions {
        shape: ShapeRules::Legacy,
        ..InsertOptions::default()
    };
    // The data shreds (its 2021 coding shreds have their own story: `recovery_real.rs`).
    let data = common::read_records("radiance-mainnet-102815960/data_shreds.bin");
    let out = store.insert_shreds_with(&data, options).expect("insert");
    assert!(out.rejected.is_empty(), "{:?}", out.rejected.first());
    assert_eq!(out.inserted, data.len());
    let meta = store.meta(Slot(102_815_960)).expect("read").expect("meta");
    assert!(meta.is_full());
}

#[test]
fn a_real_4x_shaped_slot_passes_the_default_rules() {
    // The testnet slot: ten chained 32-shred sets, DATA_COMPLETE only at set ends.
    let packets = common::read_records("sig-testnet-417955322/shreds.bin");
    let store = Blockstore::in_memory();
    let out = store.insert_shreds(&packets).expect("insert");
    assert!(out.rejected.is_empty(), "{:?}", out.rejected.first());
    assert_eq!(out.inserted, packets.len());
    let meta = store.meta(Slot(417_955_322)).expect("read").expect("meta");
    assert!(meta.is_full());
}
