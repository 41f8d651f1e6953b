//! The real testnet slot 417955322, replayed from its parent blockhash with mainnet tick
//! rules: PoH holds, the totals are those of expected.json, and the blockhash is the last
//! entry hash. Inserted FEC set by FEC set, replay gets exactly the newly completed data
//! sets on each call.

use crate::common;

use bstore_replay::SlotStatus;
use common::{Testnet, replayed, temp_blockstore};

#[test]
fn whole_slot_replays_with_poh_ok_and_expected_totals() {
    let t = Testnet::load();
    let (_dir, store) = temp_blockstore();
    let outcome = store.insert_shreds(&t.shreds).expect("insert");
    assert!(outcome.rejected.is_empty(), "{:?}", outcome.rejected);

    let mut driver = t.final_driver(&store);
    let (stats, blockhash) = replayed(driver.replay(t.slot).expect("store ok"));
    assert_eq!(blockhash, t.blockhash);
    assert_eq!(stats.slot, t.slot.0);
    assert_eq!(stats.total_entries, t.total("entries"));
    assert_eq!(stats.total_transactions, t.total("txs"));
    assert_eq!(stats.total_shreds, t.shred_count());
    assert_eq!(
        stats.num_execute_batches, 1,
        "everything complete: one call"
    );
    assert_eq!(driver.blockhash(t.slot), Some(t.blockhash));
    assert!(!store.is_dead(t.slot).expect("dead flag"));
    let totals = driver.executor().totals();
    assert_eq!(totals.transactions, t.total("txs"));
    assert_eq!(totals.signatures, t.total("signatures"));
}

#[test]
fn fec_set_by_fec_set_replay_fetches_only_new_data_sets() {
    let t = Testnet::load();
    let (_dir, store) = temp_blockstore();
    let mut driver = t.final_driver(&store);
    // Streaming: a slot that stops short waits instead of dying.
    let mut driver_streaming = {
        let options = bstore_replay::ReplayOptions {
            tick_rules: t.rules,
            metrics: bstore_replay::MetricsSink::Off,
            ..Default::default()
        };
        let mut d = bstore_replay::ReplayDriver::new(
            store.clone(),
            options,
            bstore_replay::CountingExecutor::new(),
        );
        d.seed_blockhash(t.parent, t.parent_blockhash);
        d
    };
    let complete = t.data_complete();
    let mut final_status = None;
    for fec_set in t.shreds.chunks(32) {
        store.insert_shreds(fec_set).expect("insert");
        match driver_streaming.replay(t.slot).expect("store ok") {
            SlotStatus::InProgress { shreds } => {
                // The running count sits on the last data-complete boundary inserted.
                let boundary = complete
                    .iter()
                    .map(|c| c + 1)
                    .filter(|&e| e <= shreds)
                    .max();
                assert_eq!(boundary.unwrap_or(0), shreds);
            }
            done => final_status = Some(done),
        }
    }
    let (stats, blockhash) = replayed(final_status.expect("slot finished"));
    assert_eq!(blockhash, t.blockhash);
    assert_eq!(stats.total_entries, t.total("entries"));
    assert_eq!(stats.total_transactions, t.total("txs"));
    assert_eq!(stats.total_shreds, t.shred_count());
    // One data set spans two FEC sets, so 10 inserts complete the 9 data sets in 9 calls.
    assert_eq!(stats.num_execute_batches, complete.len() as u64);
    assert_eq!(stats.fetch_calls_us.len(), complete.len());
    assert!(stats.confirmation_time_us >= stats.fetch_entries_time);
    assert!(stats.replay_total_elapsed >= stats.confirmation_time_us);

    // The same ledger replayed again from scratch by a final driver: one call does it all.
    let (again, _) = replayed(driver.replay(t.slot).expect("store ok"));
    assert_eq!(again.num_execute_batches, 1);
}
