//! `@solana/web3.js` 1.x `Connection` against the server: `getBlock` at every detail level
//! (its response validation must accept each answer, and the transactions it rebuilds must
//! re-serialize to the stored bytes), the error cases, and the slot methods.

use crate::common;

use common::clients::*;
use common::*;

#[test]
fn web3js_connection_reads_every_block() {
    let t = TestServer::start(Default::default());
    if !clients_dir().join("node_modules/@solana/web3.js").is_dir() {
        missing("node_modules/@solana/web3.js is not installed");
    }
    // web3.js's Connection.getBlock always asks for json: only those cases apply.
    // Its signatures level is getBlockSignatures, which always sends rewards: false.
    let cases: Vec<Case> = cases(&t.ledger)
        .into_iter()
        .filter(|c| c.encoding == "json")
        .map(|c| match c.details {
            "signatures" => Case {
                rewards: Some(false),
                ..c
            },
            _ => c,
        })
        .collect();
    let script = clients_dir().join("get_block.js");
    let url = t.url();
    let out = run_script(
        "node",
        &[&script.to_string_lossy(), &url, &plan(&t.ledger, &cases)],
    );
    let got = out["cases"].as_array().expect("cases");
    assert_eq!(got.len(), cases.len());
    for (case, got) in cases.iter().zip(got) {
        check_case("web3.js", &t.ledger, case, got);
    }
    check_slots("web3.js", &out["slots"]);
    check_history("web3.js", &t.ledger, &out["history"]);
    t.server.stop().expect("clean stop");
}
