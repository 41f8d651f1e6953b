//! With feature `fetch-pool`, replay through a bounded pool gives the same result as the
//! serial fetch on the real testnet slot: same blockhash, same totals.
#![cfg(feature = "fetch-pool")]

use crate::common;

use std::num::NonZeroUsize;
use std::sync::Arc;

use bstore_ledger::fetch::FetchPool;
use bstore_replay::{
    Completion, CountingExecutor, FetchMode, MetricsSink, ReplayDriver, ReplayOptions,
};
use common::{Testnet, replayed, temp_blockstore};

#[test]
fn pooled_replay_matches_the_serial_one() {
    let t = Testnet::load();
    let (_dir, store) = temp_blockstore();
    store.insert_shreds(&t.shreds).expect("insert");
    let pool = FetchPool::new(NonZeroUsize::new(2).expect("2"), "test-pool").expect("pool");
    let options = ReplayOptions {
        tick_rules: t.rules,
        completion: Completion::Final,
        fetch: FetchMode::pooled(Arc::new(pool)),
        metrics: MetricsSink::Off,
        ..ReplayOptions::default()
    };
    let mut pooled = ReplayDriver::new(store.clone(), options, CountingExecutor::new());
    pooled.seed_blockhash(t.parent, t.parent_blockhash);
    let (p, p_hash) = replayed(pooled.replay(t.slot).expect("store ok"));
    let (s, s_hash) = replayed(t.final_driver(&store).replay(t.slot).expect("store ok"));
    assert_eq!((p_hash, s_hash), (t.blockhash, t.blockhash));
    assert_eq!(
        (p.total_entries, p.total_transactions, p.total_shreds),
        (s.total_entries, s.total_transactions, s.total_shreds)
    );
    assert_eq!(p.total_transactions, t.total("txs"));
}
