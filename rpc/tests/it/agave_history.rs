//! bstore answers Agave's history exactly: the ledger in `fixtures/agave-history/` was
//! written by Agave's own Blockstore (`agave-interop history`, seed 0; see the README
//! there), and `expected.json.gz` holds Agave's own answers to 816 requests (`getBlock` in
//! every encoding, detail level, rewards and version option for every slot;
//! `getTransaction`; `getSignaturesForAddress` with paging; `getSignatureStatuses`). A
//! bstore server over that ledger must give the same `result`, or the same error code and
//! message, for every one of them. The interop suite runs the same check on a fresh ledger
//! from the tool.

use crate::common;

use std::net::SocketAddr;
use std::path::Path;
use std::process::Command;
use std::sync::Arc;

use bstore_ledger::store::{AccessMode, Blockstore};
use bstore_rpc::{RpcConfig, RpcServer};
use serde_json::json;

use crate::agave_diff;

fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/agave-history")
        .join(name)
}

/// Runs `program args`, failing the test with its stderr.
fn run(program: &str, args: &[&str]) -> Vec<u8> {
    let out = Command::new(program).args(args).output().expect("runs");
    assert!(
        out.status.success(),
        "{program} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn every_history_answer_equals_agaves() {
    let dir = tempfile::tempdir().expect("tempdir");
    let tar = fixture("ledger.tar.gz");
    run(
        "tar",
        &[
            "-xzf",
            tar.to_str().expect("path"),
            "-C",
            dir.path().to_str().expect("path"),
        ],
    );
    let expected_gz = fixture("expected.json.gz");
    let expected: agave_diff::Recording =
        serde_json::from_slice(&run("gzip", &["-dc", expected_gz.to_str().expect("path")]))
            .expect("expected.json as the tool wrote it");

    let store = Blockstore::open(&dir.path().join("ledger"), AccessMode::ReadOnly).expect("opens");
    let config = RpcConfig {
        addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        ..RpcConfig::default()
    };
    let server = RpcServer::start(Arc::new(store), config).expect("server starts");
    let addr = server.local_addr();
    agave_diff::assert_all_equal(&expected, |method, params| {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
        let (status, text) = common::post(addr, body.to_string().as_bytes());
        assert_eq!(status, 200, "{method}: {text}");
        serde_json::from_str(&text).expect("response is JSON")
    });
    server.stop().expect("clean stop");
}
