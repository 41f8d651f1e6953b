//! The slot methods over the test ledger: which blocks exist at each commitment, the tips,
//! block time and height, first available block, max shred insert slot, health, version.

use crate::common;

use common::*;
use serde_json::json;

#[test]
fn slot_methods_follow_roots_and_full_slots() {
    let t = TestServer::start(Default::default());
    // Without an end slot the range is start..=start + 500,000 (Agave's limit).
    // The first root (10) is never available: its parent's blockhash is not in the ledger
    // (Agave's `get_first_available_block`).
    assert_eq!(t.result("getBlocks", json!([0])), json!([11, 12]));
    let rooted = json!([TESTNET_SLOT, SYNTH_FIRST, SYNTH_FIRST + 1, SYNTH_FIRST + 2]);
    assert_eq!(t.result("getBlocks", json!([TESTNET_SLOT - 5])), rooted);
    let cfg = json!({"commitment": "finalized"});
    assert_eq!(
        t.result("getBlocks", json!([TESTNET_SLOT, null, cfg])),
        rooted
    );
    assert_eq!(t.result("getBlocks", json!([11, 12])), json!([11, 12]));
    assert_eq!(
        t.result(
            "getBlocks",
            json!([TESTNET_SLOT, {"commitment": "confirmed"}])
        ),
        json!([
            TESTNET_SLOT,
            SYNTH_FIRST,
            SYNTH_FIRST + 1,
            SYNTH_FIRST + 2,
            SYNTH_CONFIRMED
        ])
    );
    assert_eq!(t.result("getBlocks", json!([20, 10])), json!([]));
    assert_eq!(
        t.result("getBlocksWithLimit", json!([0, 2])),
        json!([11, 12])
    );
    assert_eq!(
        t.result(
            "getBlocksWithLimit",
            json!([SYNTH_FIRST, 10, {"commitment": "confirmed"}])
        ),
        json!([
            SYNTH_FIRST,
            SYNTH_FIRST + 1,
            SYNTH_FIRST + 2,
            SYNTH_CONFIRMED
        ])
    );

    assert_eq!(t.result("getSlot", json!([])), SYNTH_FIRST + 2);
    assert_eq!(
        t.result("getSlot", json!([{"commitment": "confirmed"}])),
        SYNTH_CONFIRMED
    );
    assert_eq!(
        t.result("getSlot", json!([{"commitment": "processed"}])),
        SYNTH_CONFIRMED
    );
    let e = t.error("getSlot", json!([{"minContextSlot": SYNTH_FIRST + 50}]));
    assert_eq!(e["code"], -32016);

    assert_eq!(t.result("getFirstAvailableBlock", json!([])), 11);
    // The dead slot still has shreds: the highest slot anything was inserted for.
    assert_eq!(t.result("getMaxShredInsertSlot", json!([])), SYNTH_DEAD);

    assert_eq!(t.result("getBlockTime", json!([TESTNET_SLOT])), BLOCK_TIME);
    assert_eq!(
        t.result("getBlockTime", json!([SYNTH_CONFIRMED])),
        BLOCK_TIME + 3
    );
    assert_eq!(t.result("getBlockTime", json!([11])), json!(null));
    assert_eq!(t.error("getBlockTime", json!([10]))["code"], -32001);
    let e = t.error("getBlockTime", json!([SYNTH_DEAD]));
    assert_eq!(e["code"], -32004);

    // Height: the testnet slot has one; its descendants count up from it.
    assert_eq!(t.result("getBlockHeight", json!([])), 400_000_003);
    assert_eq!(
        t.result("getBlockHeight", json!([{"commitment": "confirmed"}])),
        400_000_004
    );

    assert_eq!(t.result("getHealth", json!([])), "ok");
    let v = t.result("getVersion", json!([]));
    assert!(v["solana-core"].is_string());
}
