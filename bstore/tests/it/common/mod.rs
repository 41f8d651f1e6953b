//! Helpers for the CLI tests: run the real `bstore` binary, find the shared test data.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// The shared real-data folder (`BSTORE_TESTDATA` overrides).
pub(crate) fn testdata() -> PathBuf {
    std::env::var_os("BSTORE_TESTDATA").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/testdata"),
        PathBuf::from,
    )
}

/// Runs `bstore ARGS`, asserts success, and returns stdout.
pub(crate) fn bstore(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_bstore"))
        .args(args)
        .output()
        .expect("runs bstore");
    assert!(
        out.status.success(),
        "bstore {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

/// Runs `bstore ARGS` like [`bstore`], killing it and failing if it runs longer than
/// `budget`; returns stdout and the wall time.
pub(crate) fn bstore_within(args: &[&str], budget: Duration) -> (String, Duration) {
    let (out, elapsed) = bstore_output_within(args, budget);
    assert!(
        out.status.success(),
        "bstore {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8(out.stdout).expect("utf-8 output"),
        elapsed,
    )
}

/// Runs `bstore ARGS`, killing it and failing if it runs longer than `budget`; returns its
/// whole output, whatever its exit status, and the wall time.
pub(crate) fn bstore_output_within(
    args: &[&str],
    budget: Duration,
) -> (std::process::Output, Duration) {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_bstore"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs bstore");
    while child.try_wait().expect("wait").is_none() {
        if started.elapsed() > budget {
            let _ = child.kill();
            panic!("bstore {args:?} ran longer than {budget:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let elapsed = started.elapsed();
    (child.wait_with_output().expect("output"), elapsed)
}

/// The address `bstore serve` announces on standard error (`... http://ADDR ...`): lines
/// before it (log lines) are skipped; panics when the stream ends without one.
pub(crate) fn served_address(stderr: &mut impl std::io::BufRead) -> String {
    let mut seen = String::new();
    loop {
        let mut line = String::new();
        let read = stderr.read_line(&mut line).expect("serve's standard error");
        assert!(read > 0, "serve announced no address: {seen:?}");
        if let Some(rest) = line.split("http://").nth(1) {
            let addr = rest.split_whitespace().next().unwrap_or_default();
            return addr.to_string();
        }
        seen.push_str(&line);
    }
}

/// Each stdout line as JSON.
pub(crate) fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect()
}

/// Reads an expected.json below the test data folder.
pub(crate) fn expected(rel: &str) -> Value {
    let text = std::fs::read_to_string(testdata().join(rel)).expect("expected.json");
    serde_json::from_str(&text).expect("valid json")
}

/// The real testnet slot 417955322 as a stream file `dir/NAME`, with the first entry's
/// `num_hashes` (data bytes 8..16 of shred 0, after the data set's u64 entry count; data
/// shreds have 88 bytes of headers) set to `u64::MAX` when `tamper` is set.
pub(crate) fn testnet_stream_file(dir: &Path, name: &str, tamper: bool) -> PathBuf {
    let mut shreds = bstore_ledger::stream::read_stream_file(
        &testdata().join("sig-testnet-417955322/shreds.bin"),
    )
    .expect("testnet shreds");
    if tamper {
        let shred = shreds
            .iter_mut()
            .find(|s| u32::from_le_bytes(s[73..77].try_into().expect("4 bytes")) == 0)
            .expect("shred 0");
        shred[88 + 8..88 + 16].copy_from_slice(&u64::MAX.to_le_bytes());
    }
    let mut bytes = Vec::new();
    for s in &shreds {
        bstore_ledger::stream::write_record(&mut bytes, s);
    }
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write");
    path
}

/// One JSON-RPC call to a `bstore serve` at `addr` over a fresh HTTP/1.1 connection; the
/// whole response object.
pub(crate) fn rpc_call(addr: &str, method: &str, params: Value) -> Value {
    use std::io::{Read, Write};
    let body = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
        .to_string();
    let mut stream = std::net::TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .expect("timeout");
    write!(
        stream,
        "POST / HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("write");
    let mut text = String::new();
    stream.read_to_string(&mut text).expect("read");
    let body = text.split("\r\n\r\n").nth(1).expect("a body");
    serde_json::from_str(body).expect("JSON")
}

/// Every row of the signature-keyed history columns of a ledger (opened read-only):
/// (column, key) → value.
pub(crate) fn history_rows(
    ledger: &Path,
) -> std::collections::BTreeMap<(String, Vec<u8>), Vec<u8>> {
    use bstore_ledger::store::{AccessMode, Blockstore};
    let store = Blockstore::open(ledger, AccessMode::ReadOnly).expect("opens");
    let mut rows = std::collections::BTreeMap::new();
    for cf in [
        "transaction_status",
        "transaction_memos",
        "address_signatures",
    ] {
        store
            .for_each_family_row(cf, |k, v| {
                rows.insert((cf.to_string(), k.to_vec()), v.to_vec());
                std::ops::ControlFlow::Continue(())
            })
            .expect("rows");
    }
    rows
}
