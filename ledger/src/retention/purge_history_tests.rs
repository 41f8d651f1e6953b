use super::*;
use crate::Hash;
use crate::store::Column;
use crate::store::MemEngine;
use crate::store::columns::{TransactionMemos, TransactionStatus, signature_slot_key};
use crate::store::kv::KvRead;
use crate::synth::history::{loaded_addresses, write_history};
use crate::synth::{GeneratedSlot, SlotGenerator, SlotSpec};

fn ledger() -> (Blockstore<MemEngine>, Vec<GeneratedSlot>) {
    let store = Blockstore::in_memory();
    let mut generator = SlotGenerator::new(5, 1);
    let mut parent = (Slot(9), Hash::default());
    let mut slots = Vec::new();
    for slot in 10..13 {
        let spec = SlotSpec {
            data_shreds: 64,
            ..SlotSpec::default()
        };
        let g = generator
            .generate(Slot(slot), parent.0, parent.1, spec)
            .expect("generate");
        store.insert_shreds(&g.data_shreds).expect("insert");
        write_history(&store, Slot(slot), &g.entries).expect("history");
        parent = (Slot(slot), g.blockhash);
        slots.push(g);
    }
    (store, slots)
}

/// Every history row of `g`'s transactions: (status, memo, address rows) present.
fn rows(store: &Blockstore<MemEngine>, g: &GeneratedSlot) -> (usize, usize, usize) {
    let (mut status, mut memo, mut address) = (0, 0, 0);
    for tx in g.entries.iter().flat_map(|e| &e.transactions) {
        let sig = &tx.signatures[0].0;
        status += usize::from(
            store
                .transaction_status_row(g.slot, sig)
                .expect("read")
                .is_some(),
        );
        memo += usize::from(
            store
                .transaction_memo_row(g.slot, sig)
                .expect("read")
                .is_some(),
        );
        let (w, r) = loaded_addresses(tx);
        let statics = tx.message.account_keys().iter().map(|k| k.0);
        for key in statics.chain(w).chain(r) {
            address += store
                .address_signatures_in_slot(&key, g.slot)
                .expect("scan")
                .iter()
                .filter(|e| &e.signature == sig)
                .count();
        }
    }
    (status, memo, address)
}

#[test]
fn a_purge_deletes_the_purged_slots_history_rows_and_only_those() {
    let (store, slots) = ledger();
    let before: Vec<_> = slots.iter().map(|g| rows(&store, g)).collect();
    for (g, r) in slots.iter().zip(&before) {
        assert!(r.0 > 0 && r.1 > 0 && r.2 > r.0, "slot {}: {r:?}", g.slot);
    }
    store.purge_slots(Slot(11), Slot(11)).expect("purge");
    assert_eq!(
        rows(&store, &slots[1]),
        (0, 0, 0),
        "the purged slot's rows are gone"
    );
    assert_eq!(rows(&store, &slots[0]), before[0]);
    assert_eq!(rows(&store, &slots[2]), before[2]);
    // Nothing of slot 11 is left in any history column.
    for cf in [TransactionStatus::NAME, TransactionMemos::NAME] {
        let left = slots[1]
            .entries
            .iter()
            .flat_map(|e| &e.transactions)
            .filter(|tx| {
                store
                    .kv()
                    .get_pinned(cf, &signature_slot_key(&tx.signatures[0].0, Slot(11)))
                    .expect("read")
                    .is_some()
            })
            .count();
        assert_eq!(left, 0, "{cf}");
    }
}
