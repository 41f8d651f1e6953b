//! `bstore serve --ledger DIR` on a ledger Agave wrote (`fixtures/agave-history`): by
//! default it opens the ledger as a RocksDB secondary and never writes it (every file of
//! the database is byte-identical afterwards), serves the history methods, and stops
//! cleanly on SIGTERM.

use crate::common;

use std::collections::BTreeMap;
use std::io::{BufReader, Read};
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

/// Every file under `dir` with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(dir).expect("read dir") {
        let path = entry.expect("entry").path();
        if path.is_file() {
            let name = path
                .file_name()
                .expect("name")
                .to_string_lossy()
                .into_owned();
            out.insert(name, std::fs::read(&path).expect("read"));
        }
    }
    out
}

fn call(addr: &str, method: &str, params: Value) -> Value {
    common::rpc_call(addr, method, params)
}

#[test]
fn serve_follows_an_agave_ledger_as_a_secondary_and_never_writes_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ledger =
        bstore_testkit::fixtures::unpack_ledger_into("agave-history", dir.path()).expect("fixture");
    let db = ledger.join("rocksdb");
    let before = snapshot(&db);

    let mut child = Command::new(env!("CARGO_BIN_EXE_bstore"))
        .args(["serve", "--ledger"])
        .arg(&ledger)
        .args(["--rpc-addr", "127.0.0.1:0", "--catch-up-ms", "50"])
        .stderr(Stdio::piped())
        .spawn()
        .expect("serve starts");
    let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
    let addr = common::served_address(&mut stderr);

    // The highest root's transactions, their statuses and the payer's history.
    let block = call(
        &addr,
        "getBlock",
        json!([107, {"maxSupportedTransactionVersion": 0}]),
    );
    let txs = block["result"]["transactions"]
        .as_array()
        .expect("transactions");
    assert!(!txs.is_empty());
    for tx in txs {
        assert!(tx["meta"]["fee"].is_u64(), "{tx}");
        let sig = &tx["transaction"]["signatures"][0];
        let one = call(
            &addr,
            "getTransaction",
            json!([sig, {"maxSupportedTransactionVersion": 0}]),
        );
        assert_eq!(one["result"]["slot"], 107);
        assert_eq!(one["result"]["meta"], tx["meta"]);
    }
    let statuses = call(
        &addr,
        "getSignatureStatuses",
        json!([[txs[0]["transaction"]["signatures"][0]], {"searchTransactionHistory": true}]),
    );
    assert_eq!(
        statuses["result"]["value"][0]["confirmationStatus"],
        "finalized"
    );

    let pid = child.id().to_string();
    let killed = Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .expect("kill");
    assert!(killed.success());
    let exit = child.wait().expect("exits");
    assert!(exit.success(), "clean stop: {exit}");
    let mut rest = String::new();
    stderr.read_to_string(&mut rest).expect("stderr");
    assert!(rest.contains("stopped"), "{rest}");

    assert_eq!(snapshot(&db), before, "the ledger's database is unchanged");
    assert!(
        ledger.join("rpc-secondary").is_dir(),
        "the secondary keeps its own files"
    );
}
