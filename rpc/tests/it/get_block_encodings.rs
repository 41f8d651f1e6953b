//! getBlock over HTTP for every stored kind of block (real testnet, Agave-generated,
//! synthetic with v0 transactions) in each encoding and detail level, checked against the
//! test data: blockhash, previousBlockhash, parentSlot, signatures, transaction bytes.

use crate::common;

use base64::Engine;
use common::*;
use serde_json::{Value, json};

fn decode_b64(s: &str) -> Vec<u8> {
    base64::engine::general_purpose::STANDARD
        .decode(s)
        .expect("base64")
}

fn check_header(block: &Value, e: &ExpectedBlock) {
    assert_eq!(block["blockhash"], e.blockhash.as_str(), "slot {}", e.slot);
    assert_eq!(
        block["previousBlockhash"],
        e.previous_blockhash.as_str(),
        "slot {}",
        e.slot
    );
    assert_eq!(block["parentSlot"], e.parent_slot, "slot {}", e.slot);
    assert_eq!(block["blockTime"], json!(e.block_time), "slot {}", e.slot);
    assert_eq!(
        block["blockHeight"],
        json!(e.block_height),
        "slot {}",
        e.slot
    );
}

fn config(encoding: &str, details: &str, e: &ExpectedBlock) -> Value {
    let mut c = json!({"encoding": encoding, "transactionDetails": details});
    if e.has_v0 {
        c["maxSupportedTransactionVersion"] = json!(0);
    }
    c
}

#[test]
fn every_encoding_and_detail_level_matches_the_test_data() {
    let t = TestServer::start(Default::default());
    let slots = [
        AGAVE_SLOTS[1],
        AGAVE_SLOTS[2],
        TESTNET_SLOT,
        SYNTH_FIRST,
        SYNTH_FIRST + 1,
    ];
    for slot in slots {
        let e = t.ledger.block(slot).clone();

        // full, base64 and base58: the exact transaction bytes.
        for encoding in ["base64", "base58"] {
            let block = t.result("getBlock", json!([slot, config(encoding, "full", &e)]));
            check_header(&block, &e);
            // The synthetic slots carry two slot rewards (`synth::history`).
            let rewards = if e.statuses.is_some() { 2 } else { 0 };
            assert_eq!(block["rewards"].as_array().expect("rewards").len(), rewards);
            let txs = block["transactions"].as_array().expect("transactions");
            assert_eq!(txs.len(), e.signatures.len(), "slot {slot}");
            for (i, tx) in txs.iter().enumerate() {
                check_meta(&tx["meta"], &e, i, &format!("slot {slot} {encoding}"));
                assert_eq!(tx["transaction"][1], encoding);
                let blob = tx["transaction"][0].as_str().expect("blob");
                let bytes = if encoding == "base64" {
                    decode_b64(blob)
                } else {
                    bs58::decode(blob).into_vec().expect("base58")
                };
                if let Some(expected) = e.transactions.get(i) {
                    assert_eq!(bytes, *expected, "slot {slot} tx {i} ({encoding})");
                }
                // Every transaction's first signature sits right after its count byte(s).
                let sig = bs58::encode(&bytes[1..65]).into_string();
                assert_eq!(sig, e.signatures[i], "slot {slot} tx {i}");
                if e.has_v0 {
                    assert!(tx["version"] == json!("legacy") || tx["version"] == json!(0));
                } else {
                    assert!(tx.get("version").is_none(), "no version unless asked");
                }
            }
        }

        // full, json: signatures and message parts.
        let block = t.result("getBlock", json!([slot, config("json", "full", &e)]));
        check_header(&block, &e);
        for (i, tx) in block["transactions"]
            .as_array()
            .expect("txs")
            .iter()
            .enumerate()
        {
            let sigs = tx["transaction"]["signatures"]
                .as_array()
                .expect("signatures");
            assert_eq!(sigs[0], e.signatures[i].as_str());
            let message = &tx["transaction"]["message"];
            assert!(
                message["header"]["numRequiredSignatures"]
                    .as_u64()
                    .expect("header")
                    >= 1
            );
            assert!(message["recentBlockhash"].is_string());
            for ix in message["instructions"].as_array().expect("instructions") {
                assert!(ix["programIdIndex"].is_u64());
                assert!(
                    bs58::decode(ix["data"].as_str().expect("data"))
                        .into_vec()
                        .is_ok()
                );
                assert_eq!(ix["stackHeight"], 1);
            }
            let is_v0 = tx["version"] == json!(0);
            assert_eq!(message.get("addressTableLookups").is_some(), is_v0);
            check_meta(&tx["meta"], &e, i, &format!("slot {slot} json"));
        }

        // signatures: the first signature of every transaction, nothing else.
        let block = t.result("getBlock", json!([slot, config("json", "signatures", &e)]));
        check_header(&block, &e);
        assert!(block.get("transactions").is_none());
        let sigs: Vec<&str> = block["signatures"]
            .as_array()
            .expect("signatures")
            .iter()
            .map(|s| s.as_str().expect("string"))
            .collect();
        assert_eq!(
            sigs,
            e.signatures.iter().map(String::as_str).collect::<Vec<_>>()
        );

        // none: the header only; rewards off removes the member.
        let mut c = config("json", "none", &e);
        c["rewards"] = json!(false);
        let block = t.result("getBlock", json!([slot, c]));
        check_header(&block, &e);
        assert!(block.get("transactions").is_none() && block.get("signatures").is_none());
        assert!(block.get("rewards").is_none());

        // accounts: signatures and annotated static keys; the payer signs and writes.
        let block = t.result("getBlock", json!([slot, config("json", "accounts", &e)]));
        check_header(&block, &e);
        for (i, tx) in block["transactions"]
            .as_array()
            .expect("txs")
            .iter()
            .enumerate()
        {
            assert_eq!(tx["transaction"]["signatures"][0], e.signatures[i].as_str());
            let keys = tx["transaction"]["accountKeys"].as_array().expect("keys");
            assert_eq!(keys[0]["signer"], true);
            assert_eq!(keys[0]["writable"], true);
            // Keys loaded from lookup tables follow the static ones (with history only).
            let loaded = e.statuses.as_ref().map_or(0, |s| {
                let m = bstore_ledger::history::StatusMeta::decode(&s[i]).expect("status");
                m.loaded_writable.len() + m.loaded_readonly.len()
            });
            let (statics, from_tables) = keys.split_at(keys.len() - loaded);
            assert!(statics.iter().all(|k| k["source"] == "transaction"));
            assert!(from_tables.iter().all(|k| k["source"] == "lookupTable"));
            check_meta(&tx["meta"], &e, i, &format!("slot {slot} accounts"));
            assert!(
                tx["meta"].get("logMessages").is_none(),
                "accounts meta has no logs"
            );
        }
    }
    t.server.stop().expect("clean stop");
}

#[test]
fn testnet_block_has_the_expected_transactions() {
    let t = TestServer::start(Default::default());
    let expected = json_file("sig-testnet-417955322/expected.json");
    let block = t.result("getBlock", json!([TESTNET_SLOT, {"encoding": "base64"}]));
    let txs = block["transactions"].as_array().expect("txs");
    assert_eq!(
        txs.len() as u64,
        expected["deshred"]["totals"]["txs"].as_u64().expect("txs")
    );
    let lens: Vec<u64> = expected["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .flat_map(|e| e["txs"].as_array().cloned().unwrap_or_default())
        .map(|tx| tx["serialized_len"].as_u64().expect("len"))
        .collect();
    let got: Vec<u64> = txs
        .iter()
        .map(|tx| decode_b64(tx["transaction"][0].as_str().expect("blob")).len() as u64)
        .collect();
    assert_eq!(got, lens);
    // No maxSupportedTransactionVersion: no version member at all (legacy-only block).
    assert!(txs.iter().all(|tx| tx.get("version").is_none()));
    let signatures: usize = block["transactions"]
        .as_array()
        .expect("txs")
        .iter()
        .map(|tx| {
            let bytes = decode_b64(tx["transaction"][0].as_str().expect("blob"));
            usize::from(bytes[0])
        })
        .sum();
    assert_eq!(
        signatures as u64,
        expected["deshred"]["totals"]["signatures"]
            .as_u64()
            .expect("sigs")
    );
}

#[test]
fn v0_transactions_need_max_supported_transaction_version() {
    let t = TestServer::start(Default::default());
    let e = t.ledger.block(SYNTH_FIRST).clone();
    assert!(e.has_v0, "the synthetic slot must hold v0 transactions");
    let err = t.error("getBlock", json!([SYNTH_FIRST]));
    assert_eq!(err["code"], -32015);
    assert_eq!(
        err["message"],
        "Transaction version (0) is not supported by the requesting client. Please try the \
         request again with the following configuration parameter: \
         \"maxSupportedTransactionVersion\": 0"
    );
    // Signatures and none carry no transactions: no version check, as in Agave.
    let block = t.result(
        "getBlock",
        json!([SYNTH_FIRST, {"transactionDetails": "signatures"}]),
    );
    assert_eq!(
        block["signatures"].as_array().expect("sigs").len(),
        e.signatures.len()
    );
    let block = t.result(
        "getBlock",
        json!([SYNTH_FIRST, {"maxSupportedTransactionVersion": 0}]),
    );
    let versions: Vec<&Value> = block["transactions"]
        .as_array()
        .expect("txs")
        .iter()
        .map(|tx| &tx["version"])
        .collect();
    assert!(versions.contains(&&json!(0)) && versions.contains(&&json!("legacy")));
}

#[test]
fn commitment_and_legacy_encoding_param() {
    let t = TestServer::start(Default::default());
    // The unrooted full slot is confirmed, not finalized.
    let cfg = json!({"commitment": "confirmed", "maxSupportedTransactionVersion": 0});
    let block = t.result("getBlock", json!([SYNTH_CONFIRMED, cfg]));
    assert_eq!(
        block["blockhash"],
        t.ledger.block(SYNTH_CONFIRMED).blockhash.as_str()
    );
    let err = t.error(
        "getBlock",
        json!([SYNTH_CONFIRMED, {"maxSupportedTransactionVersion": 0}]),
    );
    assert_eq!(err["code"], -32004);
    assert_eq!(
        err["message"],
        format!("Block not available for slot {SYNTH_CONFIRMED}")
    );
    // A bare string second param is the encoding (Agave's legacy form).
    let block = t.result("getBlock", json!([AGAVE_SLOTS[1], "base64"]));
    assert_eq!(block["transactions"][0]["transaction"][1], "base64");
    // "binary" is Agave's legacy bare base58 string.
    let block = t.result("getBlock", json!([AGAVE_SLOTS[1], {"encoding": "binary"}]));
    let blob = block["transactions"][0]["transaction"]
        .as_str()
        .expect("string");
    assert_eq!(
        bs58::decode(blob).into_vec().expect("base58"),
        t.ledger.block(AGAVE_SLOTS[1]).transactions[0]
    );
}
