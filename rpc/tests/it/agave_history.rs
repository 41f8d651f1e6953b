//! bstore answers Agave's history exactly: the ledger in `fixtures/agave-history/` was
//! written by Agave's own Blockstore (`agave-interop history`, seed 0; see the README
//! there), and `expected.json.gz` holds Agave's own answers to 816 requests (`getBlock` in
//! every encoding, detail level, rewards and version option for every slot;
//! `getTransaction`; `getSignaturesForAddress` with paging; `getSignatureStatuses`). A
//! bstore server over that ledger must give the same `result`, or the same error code and
//! message, for every one of them. The interop suite runs the same check on a fresh ledger
//! from the tool.

use crate::common;

use crate::agave_diff;

#[test]
fn every_history_answer_equals_agaves() {
    let (_dir, ledger) = bstore_testkit::fixtures::unpack_ledger("agave-history").expect("fixture");
    let expected: agave_diff::Recording =
        common::fixtures::gzipped_json("agave-history", "expected.json.gz");
    let server = agave_diff::serve_read_only(&ledger);
    let addr = server.local_addr();
    agave_diff::assert_all_equal(&expected, |method, params| {
        common::call(addr, method, params)
    });
    server.stop().expect("clean stop");
}
