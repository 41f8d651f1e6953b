//! Scenario (real 3-node Garage cluster, `scripts/archive-cluster.sh`): `bstore serve
//! --archive` answers, for slots the local ledger purged, exactly the JSON the ledger gave
//! before the purge — `getBlock` in json, jsonParsed and base64 with transaction meta, and
//! `getTransaction` — and `getBlocks` / `getFirstAvailableBlock` span the archive and the
//! ledger. With one Garage node down it still answers; a block in neither tier is -32009.

use crate::archive_support as support;
use crate::common;

use std::io::{BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

/// A running `bstore serve`, with its stderr kept open (a closed pipe would fail its
/// shutdown message).
struct Served {
    child: Child,
    stderr: BufReader<std::process::ChildStderr>,
}

/// `bstore serve` on `ledger` (plus `extra` flags); the process and its address.
fn serve(ledger: &Path, extra: &[&str]) -> (Served, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bstore"))
        .args(["serve", "--ledger"])
        .arg(ledger)
        .args(["--rpc-addr", "127.0.0.1:0"])
        .args(extra)
        .stderr(Stdio::piped())
        .spawn()
        .expect("serve starts");
    let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
    let addr = common::served_address(&mut stderr);
    (Served { child, stderr }, addr)
}

fn stop(mut served: Served) {
    let pid = served.child.id().to_string();
    let killed = Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .expect("kill");
    assert!(killed.success());
    let mut rest = String::new();
    served.stderr.read_to_string(&mut rest).expect("stderr");
    let status = served.child.wait().expect("exits");
    assert!(status.success(), "clean stop ({status}): {rest}");
}

/// The requests compared before and after the purge, for slots 2..=`last`.
fn requests(addr: &str, last: u64) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for slot in 2..=last {
        for encoding in ["json", "jsonParsed", "base64"] {
            out.push((
                "getBlock".to_string(),
                json!([slot, {"encoding": encoding, "maxSupportedTransactionVersion": 0}]),
            ));
        }
        let block = common::rpc_call(
            addr,
            "getBlock",
            json!([slot, {"transactionDetails": "signatures"}]),
        );
        for sig in block["result"]["signatures"]
            .as_array()
            .expect("signatures")
            .iter()
            .take(2)
        {
            out.push((
                "getTransaction".to_string(),
                json!([sig, {"encoding": "json", "maxSupportedTransactionVersion": 0}]),
            ));
        }
    }
    out
}

#[test]
#[ignore = "needs the Garage cluster: scripts/archive-cluster.sh"]
fn serve_answers_purged_slots_from_the_archive_with_the_same_json() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ledger = dir.path().join("ledger");
    let l = ledger.to_str().expect("utf-8");
    support::bstore_ok(&[
        "ledger",
        "generate",
        "--ledger",
        l,
        "--slots",
        "12",
        "--shreds-per-slot",
        "128",
        "--with-history",
    ]);
    let (local, addr) = serve(&ledger, &[]);
    let asked = requests(&addr, 12);
    let before: Vec<Value> = asked
        .iter()
        .map(|(m, p)| common::rpc_call(&addr, m, p.clone()))
        .collect();
    stop(local);
    for (r, (m, p)) in before.iter().zip(&asked) {
        assert!(r["result"].is_object(), "{m} {p} answered locally: {r}");
    }

    let url = support::fresh_url("serve");
    let summary = support::archive_cli(&ledger, &url, &["--range-slots", "4"]);
    assert_eq!(summary["uploaded"], 12, "{summary}");
    support::bstore_ok(&["ledger", "purge", "--ledger", l, "1", "8"]);

    let mut flags = vec!["--archive", url.as_str()];
    flags.extend_from_slice(&support::QUICK_FLAGS);
    let (served, addr) = serve(&ledger, &flags);
    let compare = |what: &str| {
        for ((m, p), want) in asked.iter().zip(&before) {
            let got = common::rpc_call(&addr, m, p.clone());
            assert_eq!(got["result"], want["result"], "{what}: {m} {p}");
        }
    };
    compare("archive and ledger");
    assert_eq!(
        common::rpc_call(&addr, "getFirstAvailableBlock", json!([]))["result"],
        1
    );
    assert_eq!(
        common::rpc_call(&addr, "getBlocks", json!([0, 12]))["result"],
        json!((1..=12).collect::<Vec<u64>>())
    );
    let beyond = common::rpc_call(&addr, "getBlock", json!([0]));
    assert_eq!(beyond["error"]["code"], -32009, "{beyond}");

    // One node of three down: replication factor 3 keeps every object readable.
    support::node("stop-node", 3);
    compare("one node down");
    support::node("start-node", 3);
    stop(served);
}
