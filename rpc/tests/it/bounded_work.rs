//! Bounded work behind the methods: the slot methods run on a bounded pool (a burst beyond
//! it is refused, -32005), the confirmed scans stay inside their window, and the response
//! memory budget holds under many concurrent batches of 100 full `getBlock`s.

use crate::common;

use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use bstore_ledger::store::{AccessMode, Blockstore};
use bstore_ledger::synth::{SlotGenerator, SlotSpec};
use bstore_ledger::{Hash, Slot};
use bstore_rpc::{Limits, RpcConfig, RpcServer};
use common::*;
use serde_json::{Value, json};

fn with_limits(limits: Limits) -> RpcConfig {
    RpcConfig {
        limits,
        ..RpcConfig::default()
    }
}

#[test]
fn a_burst_of_slot_methods_beyond_the_scan_pool_is_refused() {
    let t = TestServer::start(with_limits(Limits {
        max_concurrent_scans: 1,
        max_queued_scans: 0,
        ..Limits::default()
    }));
    let addr = t.addr();
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "getBlocks",
                      "params": [0, {"commitment": "confirmed"}]})
    .to_string();
    // Alone, it is answered; in a burst beyond the one scan thread, some are refused.
    let expected = t.result("getBlocks", json!([0, {"commitment": "confirmed"}]));
    assert_eq!(expected, json!(&AGAVE_SLOTS[1..]));
    let mut busy = 0;
    // Bounded: 16 simultaneous calls on one thread with no queue collide within a few rounds.
    for _ in 0..20 {
        for (status, text) in burst(addr, &body, 16) {
            assert_eq!(status, 200);
            let r: Value = serde_json::from_str(&text).expect("JSON");
            if r["error"]["code"] == -32005 {
                busy += 1;
            } else {
                assert_eq!(r["result"], expected, "{r}");
            }
        }
        if busy > 0 {
            break;
        }
    }
    assert!(
        busy > 0,
        "16 simultaneous getBlocks on one scan thread never collided"
    );
    assert_eq!(t.result("getSlot", json!([])), SYNTH_FIRST + 2);
}

#[test]
fn confirmed_scans_stay_inside_the_window() {
    let t = TestServer::start(with_limits(Limits {
        confirmed_window_slots: 16,
        ..Limits::default()
    }));
    let confirmed = json!([{"commitment": "confirmed"}]);
    assert_eq!(t.result("getSlot", confirmed.clone()), SYNTH_CONFIRMED);
    // Half of a slot far above: the highest stored slot moves up, the window with it, and
    // the confirmed slot falls out of it (never scanned, not served as confirmed).
    let far = Slot(SYNTH_FIRST + 100);
    let mut generator = SlotGenerator::new(9, 1516);
    let g = generator
        .generate(
            far,
            Slot(SYNTH_FIRST + 99),
            Hash([1; 32]),
            SlotSpec::default(),
        )
        .expect("generate");
    let half = g.data_shreds.len() / 2;
    t.ledger
        .store
        .insert_shreds(&g.data_shreds[..half])
        .expect("insert half a slot");
    assert_eq!(t.result("getSlot", confirmed.clone()), SYNTH_FIRST + 2);
    assert_eq!(
        t.result(
            "getBlocks",
            json!([SYNTH_FIRST, {"commitment": "confirmed"}])
        ),
        json!([SYNTH_FIRST, SYNTH_FIRST + 1, SYNTH_FIRST + 2])
    );
    let e = t.error(
        "getBlock",
        json!([SYNTH_CONFIRMED, {"commitment": "confirmed", "maxSupportedTransactionVersion": 0}]),
    );
    assert_eq!(e["code"], -32004, "{e}");
    assert_eq!(t.result("getMaxShredInsertSlot", json!([])), far.0);
}

/// The process's peak resident set (VmHWM), in bytes.
fn peak_rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM");
    kb * 1024
}

const FIRST_BIG: u64 = 1000;
const BIG_SLOTS: u64 = 3;

/// Two rooted slots of ~1,000 data shreds each (mainnet-sized blocks, ~3 MB as json).
fn big_ledger(dir: &std::path::Path) -> Blockstore {
    let store = Blockstore::open(dir, AccessMode::ReadWrite).expect("open ledger");
    let mut generator = SlotGenerator::new(11, 1);
    let mut parent = (Slot(FIRST_BIG - 1), Hash([5; 32]));
    for i in 0..BIG_SLOTS {
        let slot = Slot(FIRST_BIG + i);
        let g = generator
            .generate(slot, parent.0, parent.1, SlotSpec::default())
            .expect("generate");
        store.insert_shreds(&g.data_shreds).expect("insert");
        parent = (slot, g.blockhash);
    }
    store
        .set_roots((0..BIG_SLOTS).map(|i| Slot(FIRST_BIG + i)))
        .expect("roots");
    store
}

#[test]
fn concurrent_batches_of_full_blocks_stay_within_the_response_budget() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Arc::new(big_ledger(dir.path()));
    let budget = 16 << 20;
    let server = RpcServer::start(
        Arc::clone(&store),
        RpcConfig {
            addr: "127.0.0.1:0".parse().expect("addr"),
            limits: Limits {
                response_budget_bytes: budget,
                ..Limits::default()
            },
            ..RpcConfig::default()
        },
    )
    .expect("server");
    let addr = server.local_addr();
    let batch: Vec<Value> = (0..100)
        .map(|i| {
            json!({"jsonrpc": "2.0", "id": i, "method": "getBlock",
                   "params": [FIRST_BIG + 1 + i % (BIG_SLOTS - 1), {"maxSupportedTransactionVersion": 0}]})
        })
        .collect();
    let body = Value::Array(batch).to_string();
    let before = peak_rss();
    let clients = 8;
    let barrier = Arc::new(Barrier::new(clients));
    let handles: Vec<_> = (0..clients)
        .map(|_| {
            let (barrier, body) = (Arc::clone(&barrier), body.clone());
            std::thread::spawn(move || {
                barrier.wait();
                let (status, text) = post(addr, body.as_bytes());
                assert_eq!(status, 200);
                // Counted in the text: a JSON tree of megabytes of blocks would dwarf the
                // server's own memory in this process's peak RSS.
                assert!(
                    text.starts_with('[') && text.ends_with("]\n"),
                    "a batch response"
                );
                let ok = text.matches("\"blockhash\":").count();
                let busy = text.matches("\"code\":-32005").count();
                (ok, busy)
            })
        })
        .collect();
    let (mut ok, mut busy) = (0, 0);
    for h in handles {
        let (o, b) = h.join().expect("client");
        assert_eq!(o + b, 100, "every item is a block or busy");
        ok += o;
        busy += b;
    }
    let after = peak_rss();
    let stats = server.response_budget();
    eprintln!(
        "budget {} MiB: {ok} blocks served, {busy} refused -32005; peak held {:.1} MiB; \
         VmHWM {:.1} -> {:.1} MiB",
        budget >> 20,
        stats.peak as f64 / (1u64 << 20) as f64,
        before as f64 / (1u64 << 20) as f64,
        after as f64 / (1u64 << 20) as f64
    );
    assert!(ok > 0 && busy > 0, "ok {ok}, busy {busy}");
    assert!(stats.peak <= budget && stats.peak > 0, "{stats:?}");
    // 800 blocks of ~3 MB would be gigabytes; the budget keeps the growth to tens of MiB
    // (the budget itself, the clients' copies of what was served, allocator slack).
    let growth = after.saturating_sub(before);
    assert!(growth < 160 << 20, "peak RSS grew by {} MiB", growth >> 20);
    // Every reservation is released once the responses are sent.
    let deadline = Instant::now() + Duration::from_secs(10);
    while server.response_budget().held != 0 {
        assert!(Instant::now() < deadline, "{:?}", server.response_budget());
        std::thread::sleep(Duration::from_millis(10));
    }
    server.stop().expect("clean stop");
}
