//! Bounded fetch concurrency under a burst (refusals are -32005 and the server stays up),
//! and a server on a RocksDB secondary that follows a live writer.

use crate::common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use bstore_ledger::Slot;
use bstore_ledger::store::{AccessMode, Blockstore, CatchUpPacing};
use bstore_rpc::{CatchUp, Limits, RpcConfig, RpcServer};
use common::*;
use serde_json::{Value, json};

#[test]
fn a_burst_beyond_the_workers_is_refused_not_queued() {
    let limits = Limits {
        max_concurrent_fetches: 1,
        max_queued_fetches: 0,
        ..Limits::default()
    };
    let t = TestServer::start(RpcConfig {
        limits,
        ..RpcConfig::default()
    });
    let addr = t.addr();
    let expected = t.ledger.block(TESTNET_SLOT).blockhash.clone();
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "getBlock",
                      "params": [TESTNET_SLOT, {"encoding": "base58"}]})
    .to_string();
    let mut busy = 0;
    // Bounded: a burst of 16 on one worker with no queue collides within a few rounds.
    for _ in 0..20 {
        for (status, text) in burst(addr, &body, 16) {
            assert_eq!(status, 200);
            let r: Value = serde_json::from_str(&text).expect("JSON");
            if r["error"]["code"] == -32005 {
                assert!(
                    r["error"]["message"]
                        .as_str()
                        .expect("message")
                        .starts_with("Node is busy")
                );
                busy += 1;
            } else {
                assert_eq!(r["result"]["blockhash"], expected.as_str(), "{r}");
            }
        }
        if busy > 0 {
            break;
        }
    }
    assert!(
        busy > 0,
        "16 simultaneous getBlock calls on one worker never collided"
    );
    assert_eq!(t.result("getHealth", json!([])), "ok");
    let block = t.result(
        "getBlock",
        json!([TESTNET_SLOT, {"transactionDetails": "none"}]),
    );
    assert_eq!(block["blockhash"], expected.as_str());
}

/// Point-read methods answer on the I/O threads: with one scan worker and no queue, a
/// burst of them is never refused, while the same burst of a block-reading method is.
#[test]
fn point_reads_never_wait_for_the_scan_workers() {
    let limits = Limits {
        max_concurrent_scans: 1,
        max_queued_scans: 0,
        ..Limits::default()
    };
    let t = TestServer::start(RpcConfig {
        limits,
        ..RpcConfig::default()
    });
    let addr = t.addr();
    let address = bs58::encode([7u8; 32]).into_string();
    let signature = bs58::encode([9u8; 64]).into_string();
    let point_reads = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "getSignaturesForAddress",
               "params": [address, {"limit": 10}]}),
        json!({"jsonrpc": "2.0", "id": 1, "method": "getSignatureStatuses",
               "params": [[signature], {"searchTransactionHistory": true}]}),
        json!({"jsonrpc": "2.0", "id": 1, "method": "getSlot", "params": []}),
    ];
    let refused = |body: &Value, addr: std::net::SocketAddr| -> usize {
        let mut busy = 0;
        for (status, text) in burst(addr, &body.to_string(), 16) {
            assert_eq!(status, 200);
            let r: Value = serde_json::from_str(&text).expect("JSON");
            if r["error"]["code"] == -32005 {
                busy += 1;
            } else {
                assert!(r.get("result").is_some(), "{r}");
            }
        }
        busy
    };
    for _ in 0..10 {
        for body in &point_reads {
            assert_eq!(
                refused(body, addr),
                0,
                "a point read waited for a scan worker: {body}"
            );
        }
    }
    // getTransaction reads a whole block: it stays on the one scan worker, so a burst of
    // it collides within a few rounds.
    let tx = json!({"jsonrpc": "2.0", "id": 1, "method": "getTransaction",
                    "params": [signature, {"maxSupportedTransactionVersion": 0}]});
    assert!(
        (0..40).any(|_| refused(&tx, addr) > 0),
        "16 simultaneous getTransaction calls on one scan worker never collided"
    );
    // With `inline_point_reads` off, the same point reads queue for the one worker too.
    let pooled = TestServer::start(RpcConfig {
        limits,
        inline_point_reads: false,
        ..RpcConfig::default()
    });
    assert!(
        (0..40).any(|_| refused(&point_reads[0], pooled.addr()) > 0),
        "16 simultaneous pooled getSignaturesForAddress calls on one worker never collided"
    );
}

#[test]
fn a_secondary_server_sees_what_the_writer_adds() {
    secondary_follows_the_writer(CatchUpPacing::Poll(Duration::from_millis(20)));
}

/// With the file watch and an idle catch-up of a minute, only the watch can make the new
/// root visible within the test's ten seconds.
#[test]
fn a_watching_secondary_catches_up_at_the_writers_change() {
    secondary_follows_the_writer(CatchUpPacing::OnChange {
        min_gap: Duration::from_millis(10),
        idle: Duration::from_secs(60),
    });
}

/// A server over a secondary of `ledger` (its files in `dir`), following the writer as
/// `config` says.
fn secondary_server(ledger: &TestLedger, dir: &tempfile::TempDir, config: RpcConfig) -> RpcServer {
    let secondary = Blockstore::open(
        ledger.dir.path(),
        AccessMode::Secondary {
            secondary_path: dir.path().to_path_buf(),
        },
    )
    .expect("open secondary");
    let config = RpcConfig {
        addr: "127.0.0.1:0".parse().expect("addr"),
        ..config
    };
    RpcServer::start(Arc::new(secondary), config).expect("server")
}

fn secondary_follows_the_writer(pacing: CatchUpPacing) {
    let ledger = build_ledger();
    let secondary_dir = tempfile::tempdir().expect("tempdir");
    let config = RpcConfig {
        catch_up: CatchUp::Paced(pacing),
        ..RpcConfig::default()
    };
    let server = secondary_server(&ledger, &secondary_dir, config);
    let addr = server.local_addr();
    let call = |method: &str, params: Value| -> Value { common::call(addr, method, params) };
    assert_eq!(call("getSlot", json!([]))["result"], SYNTH_FIRST + 2);
    // Past the catch-up thread's first (immediate) catch-up, so only a later one can show
    // the new root.
    std::thread::sleep(Duration::from_millis(200));
    // The writer (the test's read-write store) roots the confirmed slot.
    ledger
        .store
        .set_roots([Slot(SYNTH_CONFIRMED)])
        .expect("root");
    let deadline = Instant::now() + Duration::from_secs(10);
    while call("getSlot", json!([]))["result"] != SYNTH_CONFIRMED {
        assert!(Instant::now() < deadline, "the secondary never caught up");
        std::thread::sleep(Duration::from_millis(20));
    }
    let block = call(
        "getBlock",
        json!([SYNTH_CONFIRMED, {"maxSupportedTransactionVersion": 0}]),
    );
    assert_eq!(
        block["result"]["blockhash"],
        ledger.block(SYNTH_CONFIRMED).blockhash.as_str()
    );
    server.stop().expect("clean stop");
}

/// A secondary whose catch-ups fail (the writer's files gone from where it reads them)
/// says so once the limit has passed, as Agave's RPC says it cannot tell where the
/// cluster is, and is healthy again at its next successful catch-up.
#[test]
fn a_secondary_that_cannot_catch_up_says_it_is_unhealthy() {
    let ledger = build_ledger();
    let secondary_dir = tempfile::tempdir().expect("tempdir");
    let config = RpcConfig {
        catch_up: CatchUp::Paced(CatchUpPacing::Poll(Duration::from_millis(20))),
        unhealthy_after: Duration::from_millis(300),
        ..RpcConfig::default()
    };
    let server = secondary_server(&ledger, &secondary_dir, config);
    let addr = server.local_addr();
    let health = || {
        let answer = common::call(addr, "getHealth", json!([]));
        let (_, _, text) = request(addr, "GET", "/health", b"");
        (answer, text)
    };
    let ok = (
        json!({"jsonrpc": "2.0", "result": "ok", "id": 1}),
        "ok".to_string(),
    );
    let unhealthy = (
        json!({"jsonrpc": "2.0", "error": {"code": -32005, "message": "Node is unhealthy",
               "data": {"numSlotsBehind": null}}, "id": 1}),
        "unknown".to_string(),
    );
    let wait_for = |expected: &(Value, String), what: &str| {
        let deadline = Instant::now() + Duration::from_secs(10);
        while health() != *expected {
            assert!(Instant::now() < deadline, "never {what}: {:?}", health());
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    // Well past the limit, every catch-up having succeeded.
    std::thread::sleep(Duration::from_millis(600));
    assert_eq!(health(), ok);
    let db = ledger.dir.path().join("rocksdb");
    let away = ledger.dir.path().join("rocksdb-away");
    std::fs::rename(&db, &away).expect("move the writer's files away");
    wait_for(&unhealthy, "unhealthy");
    // The other methods still answer from the view the server has.
    assert_eq!(
        common::call(addr, "getSlot", json!([]))["result"],
        SYNTH_FIRST + 2
    );
    std::fs::rename(&away, &db).expect("move them back");
    wait_for(&ok, "healthy again");
    server.stop().expect("clean stop");
}
