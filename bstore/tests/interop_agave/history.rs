//! The history differential check on a fresh run of the tool: `agave-interop history` writes
//! a ledger with Agave's own Blockstore (statuses, memos, rewards, time and height beside
//! the shreds) and records Agave's own answers to 816 requests; a bstore server over that
//! ledger must give the same `result`, or the same error, for each
//! (`rpc/tests/it/common/agave_diff.rs`; CI runs it on the committed copy in
//! `fixtures/agave-history`).

use bstore_interop_protocol::{HistorySummary, Purged};

use super::{agave, s};

#[path = "../../../rpc/tests/it/common/agave_diff.rs"]
mod agave_diff;

#[test]
#[ignore = "needs the agave-interop tool: scripts/interop-agave.sh"]
fn history_answers_equal_agaves_on_a_fresh_agave_ledger() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ledger = dir.path().join("ledger");
    let out = dir.path().join("expected.json");
    let summary: HistorySummary = agave(&["history", "--ledger", s(&ledger), "--out", s(&out)]);
    assert!(summary.get_block.requests > 0, "{summary:?}");
    let expected: agave_diff::Recording =
        serde_json::from_slice(&std::fs::read(&out).expect("expected.json"))
            .expect("the answers as the tool writes them");

    let server = agave_diff::serve_read_only(&ledger);
    let addr = server.local_addr().to_string();
    agave_diff::assert_all_equal(&expected, |method, params| {
        super::common::rpc_call(&addr, method, params)
    });
    server.stop().expect("clean stop");
}

/// Agave's exact purge and bstore's purge of the same slots of the same Agave-written
/// ledger leave the same rows in the signature-keyed history columns.
#[test]
#[ignore = "needs the agave-interop tool: scripts/interop-agave.sh"]
fn purging_history_leaves_the_rows_agaves_purge_leaves() {
    let dir = tempfile::tempdir().expect("tempdir");
    let agave_side = dir.path().join("agave");
    let out = dir.path().join("expected.json");
    let _: HistorySummary = agave(&["history", "--ledger", s(&agave_side), "--out", s(&out)]);
    let bstore_side = dir.path().join("bstore");
    let copied = std::process::Command::new("cp")
        .arg("-r")
        .arg(&agave_side)
        .arg(&bstore_side)
        .status()
        .expect("cp");
    assert!(copied.success());
    let before = super::common::history_rows(&agave_side);

    let purged: Purged = agave(&["purge", "--ledger", s(&agave_side), "101", "102"]);
    assert_eq!((purged.start, purged.end), (101, 102), "{purged:?}");
    super::common::bstore(&["ledger", "purge", "--ledger", s(&bstore_side), "101", "102"]);

    let by_agave = super::common::history_rows(&agave_side);
    let by_bstore = super::common::history_rows(&bstore_side);
    assert!(
        by_agave.len() < before.len(),
        "Agave's purge removed history rows"
    );
    assert_eq!(by_bstore.len(), by_agave.len());
    assert!(by_bstore == by_agave, "the same rows remain");
}
