//! Loopback load generator for the JSON-RPC server (run by `scripts/rpc-load.sh`).
//!
//! Builds a ledger of mainnet-sized synthetic slots (deterministic seed) with synthetic
//! history (every transaction has a meta; `synth::history`), then:
//! 1. in-process, no HTTP: the fetch alone (one multi-get + deshred + view decode, plus the
//!    parent's last data set) and the encoding alone (views → JSON text), per block;
//! 2. over HTTP on 127.0.0.1: `getBlock` requests/s and p50/p99 latency with 1, 4 and 16
//!    concurrent keep-alive clients, for json (full), base64 (full) and detail none.
//!
//! Bounded in count and time: each run stops at `--requests` requests or `--seconds`.
//! usage: rpc_load [--slots N] [--shreds N] [--requests N] [--seconds S] [--workers N]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bstore_ledger::fetch::FetchBuffer;
use bstore_ledger::store::{AccessMode, Blockstore};
use bstore_ledger::synth::{SlotGenerator, SlotSpec};
use bstore_ledger::{Hash, Slot};
use bstore_rpc::params::BlockConfig;
use bstore_rpc::{FetchedBlock, Limits, RpcConfig, RpcServer};
use bstore_testkit::http::KeepAlive;
use serde_json::{Value, json};

struct Args {
    slots: u64,
    shreds: u32,
    requests: u64,
    seconds: u64,
    workers: usize,
    /// Connections opened at once for the overload row (0: no overload row).
    burst: u64,
}

fn args() -> Args {
    let mut a = Args {
        slots: 8,
        shreds: 1200,
        requests: 400,
        seconds: 15,
        workers: 2,
        burst: 0,
    };
    let argv: Vec<String> = std::env::args().skip(1).collect();
    for pair in argv.chunks(2) {
        let v = pair.get(1).and_then(|v| v.parse::<u64>().ok()).unwrap_or_else(|| {
            eprintln!("usage: rpc_load [--slots N] [--shreds N] [--requests N] [--seconds S] [--workers N] [--burst N]");
            std::process::exit(2)
        });
        match pair[0].as_str() {
            "--slots" => a.slots = v.max(2),
            "--shreds" => a.shreds = v as u32,
            "--requests" => a.requests = v.max(1),
            "--seconds" => a.seconds = v.max(1),
            "--workers" => a.workers = v.max(1) as usize,
            "--burst" => a.burst = v,
            other => {
                eprintln!("unknown option {other}");
                std::process::exit(2)
            }
        }
    }
    a
}

const FIRST_SLOT: u64 = 1000;

fn build_ledger(dir: &std::path::Path, a: &Args) -> (Blockstore, u64, u64) {
    let store = Blockstore::open(dir, AccessMode::ReadWrite).expect("open ledger");
    let mut generator = SlotGenerator::new(7, 1);
    let mut parent = (Slot(FIRST_SLOT - 1), Hash([3; 32]));
    let (mut txs, mut shreds) = (0, 0);
    for i in 0..a.slots {
        let slot = Slot(FIRST_SLOT + i);
        let spec = SlotSpec {
            data_shreds: a.shreds,
            ..SlotSpec::default()
        };
        let g = generator
            .generate(slot, parent.0, parent.1, spec)
            .expect("generate");
        txs += g.transactions;
        shreds += g.data_shreds.len() as u64;
        store.insert_shreds(&g.data_shreds).expect("insert");
        // What a validator writes after executing the slot: every transaction has a meta.
        bstore_ledger::synth::history::write_history(&store, slot, &g.entries).expect("history");
        parent = (slot, g.blockhash);
    }
    store
        .set_roots((0..a.slots).map(|i| Slot(FIRST_SLOT + i)))
        .expect("roots");
    (store, txs / a.slots, shreds / a.slots)
}

fn config(v: Value) -> BlockConfig {
    BlockConfig::from_param(Some(&v)).expect("valid config")
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// Fetch alone and encode alone, per block, in this process.
fn in_process(store: &Blockstore, a: &Args, configs: &[(&str, Value)]) {
    let rounds = 5;
    let mut buf = FetchBuffer::new();
    let mut fetch = Vec::new();
    let mut encode: Vec<Vec<Duration>> = vec![Vec::new(); configs.len()];
    let mut out_bytes = vec![0usize; configs.len()];
    let mut baseline = Vec::new();
    for _ in 0..rounds {
        // The first root is never served (its parent's blockhash is not in the ledger).
        for i in 1..a.slots {
            let slot = Slot(FIRST_SLOT + i);
            let t = Instant::now();
            let block = FetchedBlock::fetch(store, slot, &mut buf).expect("fetch");
            fetch.push(t.elapsed());
            // Baseline for the encoder's base58: the `bs58` crate on the same signatures.
            let t = Instant::now();
            let mut n = 0usize;
            for tx in block.sets().iter().flat_map(|s| s.entries.transactions()) {
                n += bs58::encode(tx.first_signature().unwrap_or(&[0; 64]))
                    .into_string()
                    .len();
            }
            baseline.push(t.elapsed());
            std::hint::black_box(n);
            for (k, (_, c)) in configs.iter().enumerate() {
                let t = Instant::now();
                let text = block.encode(&config(c.clone())).expect("encode");
                encode[k].push(t.elapsed());
                out_bytes[k] = text.len();
            }
        }
    }
    println!(
        "## in-process, per block (median of {} blocks)",
        fetch.len()
    );
    println!("| step | time | output |");
    println!("|---|---|---|");
    println!(
        "| fetch (parent's last set + multi-get + deshred + view decode) | {:.2} ms | |",
        ms(median(fetch))
    );
    for (k, (name, _)) in configs.iter().enumerate() {
        println!(
            "| encode {name} | {:.2} ms | {:.2} MB |",
            ms(median(encode[k].clone())),
            out_bytes[k] as f64 / 1e6
        );
    }
    println!(
        "| baseline: the `bs58` crate on the same first signatures | {:.2} ms | |",
        ms(median(baseline))
    );
    println!();
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

struct LoadResult {
    requests: u64,
    errors: u64,
    elapsed: Duration,
    p50: Duration,
    p99: Duration,
    bytes: u64,
}

fn load(addr: SocketAddr, a: &Args, clients: usize, cfg: &Value) -> LoadResult {
    let next = Arc::new(AtomicU64::new(0));
    let errors = Arc::new(AtomicU64::new(0));
    let bytes = Arc::new(AtomicU64::new(0));
    let deadline = Instant::now() + Duration::from_secs(a.seconds);
    let start = Instant::now();
    let handles: Vec<_> = (0..clients)
        .map(|_| {
            let (next, errors, bytes, cfg) = (next.clone(), errors.clone(), bytes.clone(), cfg.clone());
            let (total, slots) = (a.requests, a.slots);
            std::thread::spawn(move || {
                let mut conn = KeepAlive::connect(addr).expect("connect");
                let mut sink = Vec::new();
                let mut lat = Vec::new();
                loop {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    if n >= total || Instant::now() >= deadline {
                        break;
                    }
                    let slot = FIRST_SLOT + 1 + n % (slots - 1);
                    let body = json!({"jsonrpc": "2.0", "id": n, "method": "getBlock", "params": [slot, cfg]}).to_string();
                    let t = Instant::now();
                    conn.post_into(&body, &mut sink).expect("answer");
                    lat.push(t.elapsed());
                    bytes.fetch_add(sink.len() as u64, Ordering::Relaxed);
                    let head_of_body = &sink[..sink.len().min(40)];
                    let is_err = head_of_body.windows(8).any(|w| w == b"\"error\":");
                    if is_err {
                        errors.fetch_add(1, Ordering::Relaxed);
                    }
                }
                lat
            })
        })
        .collect();
    let mut lat: Vec<Duration> = handles
        .into_iter()
        .flat_map(|h| h.join().expect("client"))
        .collect();
    let elapsed = start.elapsed();
    lat.sort();
    let pick = |q: f64| lat[((lat.len() as f64 * q) as usize).min(lat.len() - 1)];
    LoadResult {
        requests: lat.len() as u64,
        errors: errors.load(Ordering::Relaxed),
        elapsed,
        p50: pick(0.50),
        p99: pick(0.99),
        bytes: bytes.load(Ordering::Relaxed),
    }
}

/// What a burst of connections got.
#[derive(Default)]
struct BurstResult {
    /// HTTP 200 with the block.
    served: u64,
    /// HTTP 200 with a JSON-RPC error (-32005: the fetch queue is full).
    busy: u64,
    /// HTTP 503 (-32005): beyond the connection cap.
    refused: u64,
    /// Closed with no HTTP answer at all.
    unanswered: u64,
    elapsed: Duration,
}

/// What one burst connection got.
enum Outcome {
    Served,
    Busy,
    Refused,
    Unanswered,
}

/// Opens `n` connections, waits until all are connected, then has each send one `getBlock`
/// at the same instant (with `Connection: close`) and read until the server closes.
fn burst(addr: SocketAddr, n: u64, slots: u64, cfg: &Value) -> BurstResult {
    let barrier = Arc::new(std::sync::Barrier::new(n as usize + 1));
    let handles: Vec<_> = (0..n)
        .map(|i| {
            let (cfg, barrier) = (cfg.clone(), Arc::clone(&barrier));
            std::thread::spawn(move || -> Outcome {
                let connected = TcpStream::connect(addr);
                barrier.wait();
                let Ok(mut s) = connected else {
                    return Outcome::Unanswered;
                };
                let slot = FIRST_SLOT + 1 + i % (slots - 1);
                let body = json!({"jsonrpc": "2.0", "id": i, "method": "getBlock", "params": [slot, cfg]}).to_string();
                let head = format!(
                    "POST / HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
                    body.len()
                );
                let _ = s.write_all(head.as_bytes());
                let _ = s.write_all(body.as_bytes());
                let mut got = Vec::new();
                let _ = s.read_to_end(&mut got);
                let is_error = got.windows(8).any(|w| w == b"\"error\":");
                match got.get(9..12) {
                    Some(b"200") if is_error => Outcome::Busy,
                    Some(b"200") => Outcome::Served,
                    Some(b"503") => Outcome::Refused,
                    _ => Outcome::Unanswered,
                }
            })
        })
        .collect();
    barrier.wait();
    let start = Instant::now();
    let mut r = BurstResult::default();
    for h in handles {
        match h.join().expect("client") {
            Outcome::Served => r.served += 1,
            Outcome::Busy => r.busy += 1,
            Outcome::Refused => r.refused += 1,
            Outcome::Unanswered => r.unanswered += 1,
        }
    }
    r.elapsed = start.elapsed();
    r
}

fn main() {
    let a = args();
    let dir = tempfile::tempdir().expect("tempdir");
    let t = Instant::now();
    let (store, txs, shreds) = build_ledger(dir.path(), &a);
    println!(
        "# rpc_load: {} slots × {} data shreds, {} transactions per slot (built in {:.1} s); {} fetch workers\n",
        a.slots,
        shreds,
        txs,
        t.elapsed().as_secs_f64(),
        a.workers
    );
    let configs = [
        (
            "json full",
            json!({"encoding": "json", "maxSupportedTransactionVersion": 0}),
        ),
        (
            "base64 full",
            json!({"encoding": "base64", "maxSupportedTransactionVersion": 0}),
        ),
        (
            "jsonParsed full",
            json!({"encoding": "jsonParsed", "maxSupportedTransactionVersion": 0}),
        ),
        ("signatures", json!({"transactionDetails": "signatures"})),
        (
            "none",
            json!({"transactionDetails": "none", "rewards": false}),
        ),
    ];
    in_process(&store, &a, &configs);

    let limits = Limits {
        max_concurrent_fetches: a.workers,
        max_queued_fetches: 64,
        ..Limits::default()
    };
    let server = RpcServer::start(
        Arc::new(store),
        RpcConfig {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            limits,
            ..RpcConfig::default()
        },
    )
    .expect("server");
    let addr = server.local_addr();
    println!(
        "## HTTP getBlock over loopback (at most {} requests or {} s per row)",
        a.requests, a.seconds
    );
    println!("| detail | clients | requests | req/s | p50 | p99 | MB/s out | errors |");
    println!("|---|---|---|---|---|---|---|---|");
    for (name, cfg) in configs.iter().filter(|(n, _)| *n != "signatures") {
        for clients in [1, 4, 16] {
            let r = load(addr, &a, clients, cfg);
            let secs = r.elapsed.as_secs_f64();
            println!(
                "| {name} | {clients} | {} | {:.0} | {:.2} ms | {:.2} ms | {:.0} | {} |",
                r.requests,
                r.requests as f64 / secs,
                ms(r.p50),
                ms(r.p99),
                r.bytes as f64 / 1e6 / secs,
                r.errors
            );
        }
    }
    if a.burst > 0 {
        let cfg = &configs[0].1;
        let r = burst(addr, a.burst, a.slots, cfg);
        let secs = r.elapsed.as_secs_f64();
        println!(
            "\n## Overload: {} connections at once, one json full getBlock each (cap {})\n",
            a.burst,
            bstore_rpc::ConnLimits::default().max_connections
        );
        println!(
            "| served (200) | busy (200, -32005) | refused (503, -32005) | no answer | wall | served/s | answered/s |"
        );
        println!("|---|---|---|---|---|---|---|");
        println!(
            "| {} | {} | {} | {} | {:.2} s | {:.0} | {:.0} |",
            r.served,
            r.busy,
            r.refused,
            r.unanswered,
            secs,
            r.served as f64 / secs,
            (r.served + r.busy + r.refused) as f64 / secs
        );
    }
    server.stop().expect("stop");
}
