//! `getSignatureStatuses` without `searchTransactionHistory` answers for the slots Agave's
//! status cache holds: its newest 300 roots, counted as roots (skipped slots take no
//! place), so a status stays while fewer than 301 roots lie at or above its slot. Found
//! live beside Agave 4.4.0: bstore counted 300 slots instead, and kept answering for the
//! slot the validator's cache had just dropped.

use bstore_ledger::Slot;
use bstore_rpc::RpcConfig;
use serde_json::{Value, json};

use crate::common::{SYNTH_DEAD, SYNTH_FIRST, TestServer};

/// The status of `signature` (`null` or an object), with and without the history search.
fn statuses(t: &TestServer, signature: &str) -> [Value; 2] {
    [true, false].map(|search| {
        let value = t.result(
            "getSignatureStatuses",
            json!([[signature], {"searchTransactionHistory": search}]),
        )["value"]
            .clone();
        value[0].clone()
    })
}

#[test]
fn the_newest_300_roots_count_not_300_slots() {
    let t = TestServer::start(RpcConfig::default());
    let (s1, s2) = (SYNTH_FIRST + 1, SYNTH_FIRST + 2);
    let in_s1 = t.ledger.block(s1).signatures[0].clone();
    let in_s2 = t.ledger.block(s2).signatures[0].clone();
    // Rooted: S0, S1, S2; then none of S3 (confirmed only) and S4 (dead); roots from S4 + 1
    // up to `top` are added below, so the roots at or above S1 are 2 + (top - S4).
    let mut top = SYNTH_DEAD;
    let mut root_up_to = |to: u64| {
        t.ledger
            .store
            .set_roots((top + 1..=to).map(Slot))
            .expect("roots");
        top = to;
    };
    for (to, held) in [
        (s1 + 299, true),  // 300 slots from S1 to the top: held by either count
        (s1 + 300, true),  // 301 slots, 299 roots
        (s1 + 301, true),  // 302 slots, 300 roots: the oldest root the cache holds
        (s1 + 302, false), // 301 roots: S1 dropped
    ] {
        root_up_to(to);
        let [searched, cached] = statuses(&t, &in_s1);
        assert_eq!(searched["slot"], json!(s1), "top {to}");
        assert_eq!(searched["confirmationStatus"], json!("finalized"));
        match held {
            true => assert_eq!(cached, searched, "top {to}: held"),
            false => assert_eq!(cached, Value::Null, "top {to}: dropped"),
        }
    }
    // S2, one root later, is still held (300 roots at or above it), then dropped.
    let [searched, cached] = statuses(&t, &in_s2);
    assert_eq!(cached, searched);
    assert_eq!(searched["slot"], json!(s2));
    root_up_to(s1 + 303);
    assert_eq!(statuses(&t, &in_s2)[1], Value::Null);
}
