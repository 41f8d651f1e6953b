//! Peak memory under concurrent batches of 100 full `getBlock`s (run by
//! `scripts/rpc-budget.sh`): builds mainnet-sized synthetic slots, serves them on
//! 127.0.0.1 with the given response budget, sends `--clients` batches at once, and prints
//! what was served or refused and the process's peak RSS (VmHWM) before and after.
//!
//! usage: rpc_budget [--budget-mib N] [--clients N] [--slots N]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use bstore_ledger::store::{AccessMode, Blockstore};
use bstore_ledger::synth::{SlotGenerator, SlotSpec};
use bstore_ledger::{Hash, Slot};
use bstore_rpc::{Limits, RpcConfig, RpcServer};
use serde_json::{Value, json};

const FIRST_SLOT: u64 = 1000;

fn arg(name: &str, default: u64) -> u64 {
    let argv: Vec<String> = std::env::args().collect();
    argv.iter()
        .position(|a| a == name)
        .and_then(|i| argv.get(i + 1))
        .map(|v| {
            v.parse().unwrap_or_else(|_| {
                eprintln!("usage: rpc_budget [--budget-mib N] [--clients N] [--slots N]");
                std::process::exit(2)
            })
        })
        .unwrap_or(default)
}

fn vm_hwm_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0.0);
    kb / 1024.0
}

fn post(addr: SocketAddr, body: &[u8]) -> String {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(600)))
        .expect("timeout");
    let head = format!(
        "POST / HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).expect("head");
    s.write_all(body).expect("body");
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    String::from_utf8_lossy(&raw).into_owned()
}

fn main() {
    let budget_mib = arg("--budget-mib", 256);
    let clients = arg("--clients", 8).max(1) as usize;
    let slots = arg("--slots", 2).max(1);
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Blockstore::open(dir.path(), AccessMode::ReadWrite).expect("open");
    let mut generator = SlotGenerator::new(11, 1);
    let mut parent = (Slot(FIRST_SLOT - 1), Hash([5; 32]));
    for i in 0..slots {
        let slot = Slot(FIRST_SLOT + i);
        let g = generator
            .generate(slot, parent.0, parent.1, SlotSpec::default())
            .expect("generate");
        store.insert_shreds(&g.data_shreds).expect("insert");
        parent = (slot, g.blockhash);
    }
    store
        .set_roots((0..slots).map(|i| Slot(FIRST_SLOT + i)))
        .expect("roots");
    let server = RpcServer::start(
        Arc::new(store),
        RpcConfig {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            limits: Limits {
                response_budget_bytes: usize::try_from(budget_mib << 20).unwrap_or(usize::MAX),
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
                   "params": [FIRST_SLOT + i % slots, {"maxSupportedTransactionVersion": 0}]})
        })
        .collect();
    let body = Value::Array(batch).to_string();
    let before = vm_hwm_mib();
    let start = Instant::now();
    let barrier = Arc::new(Barrier::new(clients));
    let handles: Vec<_> = (0..clients)
        .map(|_| {
            let (barrier, body) = (Arc::clone(&barrier), body.clone());
            std::thread::spawn(move || {
                barrier.wait();
                let text = post(addr, body.as_bytes());
                (
                    text.matches("\"blockhash\":").count(),
                    text.matches("\"code\":-32005").count(),
                    text.len(),
                )
            })
        })
        .collect();
    let (mut ok, mut busy, mut bytes) = (0, 0, 0);
    for h in handles {
        let (o, b, n) = h.join().expect("client");
        ok += o;
        busy += b;
        bytes += n;
    }
    let stats = server.response_budget();
    println!(
        "| {budget_mib} MiB | {clients} x 100 | {ok} | {busy} | {:.0} MB | {:.1} MiB | {:.0} -> {:.0} MiB | {:.1} s |",
        bytes as f64 / 1e6,
        stats.peak as f64 / f64::from(1 << 20),
        before,
        vm_hwm_mib(),
        start.elapsed().as_secs_f64()
    );
    server.stop().expect("stop");
}
