//! `bstore bench rpc-load` against `bstore serve` on a ledger Agave wrote
//! (`fixtures/agave-history`): every request of the budget is sent and counted per method,
//! an unknown method's answers count as errors and the rest do not, and a fixed rate paces
//! the clients.

use crate::common;

use std::io::BufReader;
use std::path::Path;
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

/// Stops the server when the test ends, passed or not.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn load(addr: &str, requests: &Path, extra: &[&str]) -> Value {
    let url = format!("http://{addr}");
    let requests = requests.to_str().expect("a UTF-8 path");
    let mut args = vec!["bench", "rpc-load", "--url", &url, "--requests", requests];
    args.extend_from_slice(extra);
    serde_json::from_str(&common::bstore(&args)).expect("one JSON object")
}

#[test]
fn rpc_load_counts_every_request_per_method_and_paces_a_fixed_rate() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ledger =
        bstore_testkit::fixtures::unpack_ledger_into("agave-history", dir.path()).expect("fixture");
    let mut child = Command::new(env!("CARGO_BIN_EXE_bstore"))
        .args(["serve", "--ledger"])
        .arg(&ledger)
        .args(["--rpc-addr", "127.0.0.1:0"])
        .stderr(Stdio::piped())
        .spawn()
        .expect("serve starts");
    let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
    let server = Server(child);
    let addr = common::served_address(&mut stderr);

    let block = common::rpc_call(
        &addr,
        "getBlock",
        json!([107, {"maxSupportedTransactionVersion": 0}]),
    );
    let signature = block["result"]["transactions"][0]["transaction"]["signatures"][0].clone();
    let payer =
        block["result"]["transactions"][0]["transaction"]["message"]["accountKeys"][0].clone();
    let list = json!([
        ["getBlock", [107, {"maxSupportedTransactionVersion": 0}]],
        ["getTransaction", [signature, {"maxSupportedTransactionVersion": 0}]],
        ["getSignaturesForAddress", [payer, {"limit": 10}]],
        ["noSuchMethod", []],
    ]);
    let requests = dir.path().join("requests.json");
    std::fs::write(&requests, list.to_string()).expect("write list");

    let out = load(
        &addr,
        &requests,
        &["--clients", "2", "--max-requests", "200"],
    );
    assert_eq!(out["requests"], 200, "{out}");
    for method in ["getBlock", "getTransaction", "getSignaturesForAddress"] {
        assert_eq!(out[method]["count"], 50, "{method}: {out}");
        assert_eq!(out[method]["errors"], 0, "{method}: {out}");
        assert!(out[method]["p50_ms"].as_f64().expect("p50") > 0.0, "{out}");
        assert!(
            out[method]["mean_bytes"].as_u64().expect("bytes") > 100,
            "{out}"
        );
    }
    assert_eq!(out["noSuchMethod"]["errors"], 50, "{out}");
    assert!(out["client_cpu_percent"].is_number(), "{out}");

    // 40 requests at 200 a second take at least 0.19 s (the last is due at 0.195 s).
    let paced = load(
        &addr,
        &requests,
        &["--clients", "2", "--max-requests", "40", "--rate", "200"],
    );
    assert_eq!(paced["requests"], 40, "{paced}");
    assert!(
        paced["seconds"].as_f64().expect("seconds") >= 0.1,
        "{paced}"
    );
    assert!(paced["per_s"].as_f64().expect("rate") <= 215.0, "{paced}");
    drop(server);
}
