//! Scenario: `confirmed` read from the validator's `optimistic_slots` rows
//! (`methods/chain/confirmed.rs`). The test ledger's roots end at S2, S3 is full on top
//! of it, and a second full slot F on another fork also hangs from S2. Without any row,
//! every full slot above the root counts (a ledger whose writer records no votes). Once
//! the writer records S3, only S3 and its ancestors count: F is a minority fork, never
//! confirmed, as in Agave (its RPC serves `confirmed` from the optimistically confirmed
//! bank and that bank's ancestors); `processed` still follows the highest full slot.

use crate::common;

use bstore_ledger::{Hash, Slot};
use common::*;
use serde_json::json;

/// F: a full slot on another fork, parent S2 (the highest root), above S3.
const FORK: u64 = SYNTH_FIRST + 10;

fn confirmed() -> serde_json::Value {
    json!({"commitment": "confirmed"})
}

#[test]
fn confirmed_follows_the_recorded_votes_and_their_ancestors() {
    let t = TestServer::start(Default::default());
    let store = &t.ledger.store;
    let s2 = t.ledger.block(SYNTH_FIRST + 2);
    let parent_hash: Hash = s2.blockhash.parse().expect("hash");
    let fork = write_synthetic_slot(store.as_ref(), 7, FORK, SYNTH_FIRST + 2, parent_hash);
    let fork_tx = bs58::encode(fork.entries[0].transactions[0].signatures[0].0).into_string();
    let s3_tx = t.ledger.block(SYNTH_CONFIRMED).signatures[0].clone();
    let block_cfg = json!({"commitment": "confirmed", "transactionDetails": "none",
        "rewards": false, "maxSupportedTransactionVersion": 0});
    let tx_cfg = json!({"commitment": "confirmed", "maxSupportedTransactionVersion": 0});

    // No row: every full slot above the root is confirmed, the fork's too.
    assert_eq!(t.result("getSlot", json!([confirmed()])), FORK);
    assert!(t.result("getBlock", json!([FORK, block_cfg])).is_object());
    assert!(
        t.result("getTransaction", json!([fork_tx, tx_cfg]))
            .is_object()
    );

    // The writer records S3: only S3 and its ancestors count.
    store
        .set_optimistic_slot(Slot(SYNTH_CONFIRMED), &Hash([3; 32]), 1_700_000_000_000)
        .expect("optimistic row");
    assert_eq!(t.result("getSlot", json!([confirmed()])), SYNTH_CONFIRMED);
    assert_eq!(
        t.result("getSlot", json!([{"commitment": "processed"}])),
        FORK,
        "processed is the highest full slot"
    );
    assert_eq!(
        t.result("getBlockHeight", json!([confirmed()])),
        400_000_004
    );
    let e = t.error("getBlock", json!([FORK, block_cfg]));
    assert_eq!(
        e["code"], -32004,
        "a minority fork's block is not confirmed: {e}"
    );
    assert!(
        t.result("getBlock", json!([SYNTH_CONFIRMED, block_cfg]))
            .is_object()
    );
    assert_eq!(
        t.result("getBlocks", json!([SYNTH_FIRST, confirmed()])),
        json!([
            SYNTH_FIRST,
            SYNTH_FIRST + 1,
            SYNTH_FIRST + 2,
            SYNTH_CONFIRMED
        ])
    );
    assert_eq!(
        t.result(
            "getBlocksWithLimit",
            json!([SYNTH_FIRST + 2, 5, confirmed()])
        ),
        json!([SYNTH_FIRST + 2, SYNTH_CONFIRMED])
    );
    assert!(
        t.result("getTransaction", json!([fork_tx, tx_cfg]))
            .is_null()
    );
    assert!(
        t.result("getTransaction", json!([s3_tx, tx_cfg]))
            .is_object()
    );

    // A recorded slot whose block is not full yet (votes seen before the block was
    // replayed) is not the tip; the highest recorded slot that is, is.
    store
        .set_optimistic_slot(Slot(FORK + 5), &Hash([5; 32]), 1_700_000_000_400)
        .expect("optimistic row");
    assert_eq!(t.result("getSlot", json!([confirmed()])), SYNTH_CONFIRMED);
    // The votes move to the fork: now F counts and S3 does not.
    store
        .set_optimistic_slot(Slot(FORK), &Hash([4; 32]), 1_700_000_000_800)
        .expect("optimistic row");
    assert_eq!(t.result("getSlot", json!([confirmed()])), FORK);
    assert!(t.result("getBlock", json!([FORK, block_cfg])).is_object());
    let e = t.error("getBlock", json!([SYNTH_CONFIRMED, block_cfg]));
    assert_eq!(e["code"], -32004, "{e}");
    assert_eq!(
        t.result("getBlocks", json!([SYNTH_FIRST + 2, confirmed()])),
        json!([SYNTH_FIRST + 2, FORK])
    );
}
