//! The Python `solana` client (AsyncClient, responses parsed by `solders` into typed
//! objects) against the server: every encoding and detail level, the error cases, and the
//! slot methods.

use crate::common;

use common::clients::*;
use common::*;

#[test]
fn python_solana_client_reads_every_block() {
    let t = TestServer::start(Default::default());
    let cases = cases(&t.ledger);
    let script = clients_dir().join("get_block.py");
    let url = t.url();
    let out = run_script(
        "python3",
        &[&script.to_string_lossy(), &url, &plan(&t.ledger, &cases)],
    );
    let got = out["cases"].as_array().expect("cases");
    assert_eq!(got.len(), cases.len());
    for (case, got) in cases.iter().zip(got) {
        check_case("python", &t.ledger, case, got);
    }
    check_slots("python", &out["slots"]);
    check_history("python", &t.ledger, &out["history"]);
    t.server.stop().expect("clean stop");
}
