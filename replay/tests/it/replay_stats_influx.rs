//! Against a real InfluxDB: one `replay-slot-stats` point per replayed slot with the right
//! totals, and one `replay-slot-dead` point (reason tag) for the slot marked dead.
//! Needs `influxd` (see common/influx.rs); a missing server fails the test.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use bstore_ledger::Slot;
use bstore_metrics::MetricsAgent;
use bstore_metrics::writer::{HttpOptions, HttpWriter};
use bstore_replay::{Completion, MetricsSink, REPLAY_SLOT_DEAD, REPLAY_SLOT_STATS, SlotStatus};
use common::influx::{Influx, options};
use common::{data_byte, synth_chain, synth_driver, temp_blockstore};

fn sum(influx: &Influx, db: &str, field: &str) -> i64 {
    let series = influx
        .client(db)
        .query(&format!(
            "SELECT sum(\"{field}\") FROM \"{REPLAY_SLOT_STATS}\""
        ))
        .expect("sum query");
    series
        .first()
        .and_then(|s| s.get(0, "sum"))
        .and_then(serde_json::Value::as_i64)
        .unwrap_or(0)
}

#[test]
fn one_stats_point_per_replayed_slot_with_the_right_totals() {
    let influx = Influx::start("replay");
    let chain = synth_chain(41, 5, 96);
    let (_dir, store) = temp_blockstore();
    for slot in &chain[..4] {
        store.insert_shreds(&slot.data_shreds).expect("insert");
    }
    let mut bad = chain[4].data_shreds.clone();
    bad[0][data_byte(16)] ^= 0x01;
    common::insert_tampered(&store, &bad);

    let writer = HttpWriter::new(influx.config("replay"), HttpOptions::default());
    let agent = Arc::new(
        MetricsAgent::new(writer, options("replay-test", Duration::from_secs(3600)))
            .expect("agent"),
    );
    let mut driver = synth_driver(&store, Completion::Final, MetricsSink::Agent(agent.clone()));
    for slot in &chain {
        let status = driver.replay(slot.slot).expect("store ok");
        let replayed = matches!(status, SlotStatus::Replayed { .. });
        assert_eq!(
            replayed,
            slot.slot != Slot(5),
            "slot {}: {status:?}",
            slot.slot
        );
    }
    agent.flush().expect("flush to influxdb");

    let good = &chain[..4];
    assert_eq!(
        influx.count("replay", REPLAY_SLOT_STATS, "slot"),
        good.len() as i64,
        "one point per replayed slot, none for the dead one"
    );
    let txs: u64 = good.iter().map(|s| s.transactions).sum();
    let entries: usize = good.iter().map(|s| s.entries.len()).sum();
    let shreds: usize = good.iter().map(|s| s.data_shreds.len()).sum();
    let slots: u64 = good.iter().map(|s| s.slot.0).sum();
    assert_eq!(sum(&influx, "replay", "total_transactions"), txs as i64);
    assert_eq!(sum(&influx, "replay", "total_entries"), entries as i64);
    assert_eq!(sum(&influx, "replay", "total_shreds"), shreds as i64);
    assert_eq!(sum(&influx, "replay", "slot"), slots as i64);
    assert!(sum(&influx, "replay", "fetch_entries_time") > 0);

    let dead = influx
        .client("replay")
        .query(&format!(
            "SELECT \"slot\", \"error\" FROM \"{REPLAY_SLOT_DEAD}\" WHERE \"reason\" = 'poh'"
        ))
        .expect("dead query");
    let series = dead.first().expect("a replay-slot-dead point");
    assert_eq!(series.values.len(), 1);
    assert_eq!(
        series.get(0, "slot").and_then(serde_json::Value::as_i64),
        Some(5)
    );
    let error = series.get(0, "error").and_then(serde_json::Value::as_str);
    assert!(error.is_some_and(|e| e.contains("PoH")), "{error:?}");
}
