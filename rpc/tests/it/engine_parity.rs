//! The RPC server is generic over the ledger's storage engine: the test ledger (real
//! Agave and testnet shreds, synthetic slots with history rows) written to RocksDB and to
//! the in-memory engine, each served by its own `RpcServer` on 127.0.0.1, answers every
//! method with the same response body, byte for byte (the same transport, params parsing,
//! worker pools and encoders). The in-memory answers are also checked against what the
//! ledger was built from, so two engines that agree on a wrong answer still fail.

use std::net::SocketAddr;
use std::sync::Arc;

use bstore_ledger::store::Blockstore;
use bstore_rpc::{RpcConfig, RpcServer};
use serde_json::{Value, json};

use crate::common::{
    AGAVE_SLOTS, ExpectedBlock, SYNTH_CONFIRMED, SYNTH_COUNT, SYNTH_DEAD, SYNTH_FIRST,
    TESTNET_SLOT, block_addresses, build_ledger, fill_ledger, post,
};

/// The same calls to both servers, and to a third over the RocksDB store that sends every
/// ledger read to its worker pools (no point read, no located `getTransaction`, on the I/O
/// thread).
struct Pair {
    rocks: RpcServer,
    mem: RpcServer,
    pooled: RpcServer,
    rocks_store: Arc<Blockstore>,
    /// Calls compared so far.
    calls: usize,
}

/// A call's response body from the server at `addr`.
fn body(addr: SocketAddr, method: &str, params: &Value) -> String {
    let request = json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params});
    let (status, text) = post(addr, request.to_string().as_bytes());
    assert_eq!(status, 200, "{method} {params}: {text}");
    text
}

impl Pair {
    /// Calls `method` on both servers, asserts the response bodies are the same bytes, and
    /// returns the `result` as JSON text, or the `error` object's text.
    fn same(&mut self, method: &str, params: Value) -> Result<String, String> {
        let rocks = body(self.rocks.local_addr(), method, &params);
        let mem = body(self.mem.local_addr(), method, &params);
        assert_eq!(mem, rocks, "{method} {params}: in memory vs RocksDB");
        let pooled = body(self.pooled.local_addr(), method, &params);
        assert_eq!(pooled, rocks, "{method} {params}: on the pools vs inline");
        self.calls += 1;
        let response: Value = serde_json::from_str(&mem).expect("response is JSON");
        match (response.get("result"), response.get("error")) {
            (Some(result), None) => Ok(result.to_string()),
            (None, Some(error)) => Err(error.to_string()),
            _ => panic!("{method} {params}: neither one result nor one error: {mem}"),
        }
    }

    /// [`Self::same`] for a call that must succeed, parsed.
    fn result(&mut self, method: &str, params: Value) -> Value {
        let text = self
            .same(method, params.clone())
            .unwrap_or_else(|e| panic!("{method} {params}: {e}"));
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{method} {params}: {e}"))
    }
}

/// The block configs every slot is read with (the first is json with full details).
fn block_configs() -> Vec<Value> {
    let full = |encoding: &str| {
        json!({"encoding": encoding, "transactionDetails": "full", "rewards": true,
               "maxSupportedTransactionVersion": 0})
    };
    vec![
        full("json"),
        full("base64"),
        full("base58"),
        full("jsonParsed"),
        json!({"transactionDetails": "signatures", "maxSupportedTransactionVersion": 0}),
        json!({"transactionDetails": "accounts", "maxSupportedTransactionVersion": 0}),
        json!({"transactionDetails": "none", "rewards": false}),
        json!({"encoding": "base64", "commitment": "confirmed",
               "maxSupportedTransactionVersion": 0}),
        // No version given: a block with a v0 transaction is an error.
        json!({"encoding": "json"}),
    ]
}

/// Slots stored, unrooted, dead, skipped, below the ledger and above it.
fn slots() -> Vec<u64> {
    let mut slots = vec![
        0,
        5,
        9,
        13,
        TESTNET_SLOT - 1,
        TESTNET_SLOT + 3,
        u64::MAX / 2,
    ];
    slots.extend(AGAVE_SLOTS);
    slots.push(TESTNET_SLOT);
    slots.extend(SYNTH_FIRST..SYNTH_FIRST + SYNTH_COUNT);
    slots
}

/// The synthetic blocks with history that are served: the rooted ones, then the
/// confirmed one (not the dead one).
fn synth_blocks(blocks: &[ExpectedBlock]) -> Vec<&ExpectedBlock> {
    blocks
        .iter()
        .filter(|b| b.slot >= SYNTH_FIRST && b.slot != SYNTH_DEAD && b.statuses.is_some())
        .collect()
}

fn pair() -> (Pair, Vec<ExpectedBlock>, tempfile::TempDir) {
    let rocks = build_ledger();
    let mem = Arc::new(Blockstore::in_memory());
    let mem_blocks = fill_ledger(&*mem);
    let summary = |b: &[ExpectedBlock]| -> Vec<(u64, String, usize)> {
        b.iter()
            .map(|b| (b.slot, b.blockhash.clone(), b.transactions.len()))
            .collect()
    };
    assert_eq!(summary(&mem_blocks), summary(&rocks.blocks), "same ledger");
    let config = || RpcConfig {
        addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        ..RpcConfig::default()
    };
    let pooled = RpcConfig {
        inline_point_reads: false,
        ..config()
    };
    let pair = Pair {
        rocks: RpcServer::start(Arc::clone(&rocks.store), config()).expect("RocksDB server"),
        mem: RpcServer::start(mem, config()).expect("in-memory server"),
        pooled: RpcServer::start(Arc::clone(&rocks.store), pooled).expect("pooled server"),
        rocks_store: Arc::clone(&rocks.store),
        calls: 0,
    };
    (pair, mem_blocks, rocks.dir)
}

#[test]
fn get_block_is_the_same_on_both_engines() {
    let (mut p, blocks, _dir) = pair();
    let mut served = 0;
    for slot in slots() {
        for cfg in block_configs() {
            if let Ok(text) = p.same("getBlock", json!([slot, cfg])) {
                served += usize::from(text != "null");
            }
        }
    }
    // The rooted real blocks 11, 12 and the testnet slot (10 is below the first available
    // block) in all 9 configs; the 3 rooted synthetic ones (each has a v0 transaction) in
    // all but the one without a version; the confirmed one only at confirmed.
    assert_eq!(served, 3 * 9 + 3 * 8 + 1, "blocks served");

    for b in synth_blocks(&blocks) {
        let commitment = if b.slot == SYNTH_CONFIRMED {
            "confirmed"
        } else {
            "finalized"
        };
        let cfg = json!({"encoding": "json", "transactionDetails": "full",
                         "maxSupportedTransactionVersion": 0, "commitment": commitment});
        let block = p.result("getBlock", json!([b.slot, cfg]));
        assert_eq!(block["blockhash"], json!(b.blockhash), "slot {}", b.slot);
        assert_eq!(block["previousBlockhash"], json!(b.previous_blockhash));
        let txs = block["transactions"].as_array().expect("transactions");
        assert_eq!(txs.len(), b.signatures.len(), "slot {}", b.slot);
        for (i, tx) in txs.iter().enumerate() {
            assert_eq!(tx["transaction"]["signatures"][0], json!(b.signatures[i]));
            crate::common::check_meta(&tx["meta"], b, i, &format!("slot {}", b.slot));
        }
    }
    let dead = json!({"commitment": "confirmed", "maxSupportedTransactionVersion": 0});
    assert!(p.same("getBlock", json!([SYNTH_DEAD, dead])).is_err());
}

#[test]
fn transactions_and_statuses_are_the_same_on_both_engines() {
    let (mut p, blocks, _dir) = pair();
    let unknown = bs58::encode([7u8; 64]).into_string();
    let encodings = ["json", "base64", "base58", "jsonParsed"];
    let mut signatures: Vec<String> = vec![unknown.clone()];
    for b in blocks.iter().filter(|b| !b.signatures.is_empty()) {
        let n = b.signatures.len();
        signatures.extend([0, n / 2, n - 1].map(|i| b.signatures[i].clone()));
    }
    let mut served = Vec::new();
    for sig in &signatures {
        for encoding in encodings {
            for commitment in ["finalized", "confirmed"] {
                let cfg = json!({"encoding": encoding, "commitment": commitment,
                                 "maxSupportedTransactionVersion": 0});
                let answer = p.same("getTransaction", json!([sig, cfg]));
                if answer.is_ok_and(|text| text != "null") && !served.contains(sig) {
                    served.push(sig.clone());
                }
            }
        }
    }
    for b in synth_blocks(&blocks) {
        let commitment = if b.slot == SYNTH_CONFIRMED {
            "confirmed"
        } else {
            "finalized"
        };
        let cfg = json!({"commitment": commitment, "maxSupportedTransactionVersion": 0});
        let tx = p.result("getTransaction", json!([b.signatures[1], cfg]));
        assert_eq!(tx["slot"], json!(b.slot), "{}", b.signatures[1]);
        assert_eq!(tx["transactionIndex"], json!(1));
        crate::common::check_meta(&tx["meta"], b, 1, "getTransaction");
    }
    assert_eq!(
        p.same(
            "getTransaction",
            json!([unknown, {"commitment": "confirmed"}])
        ),
        Ok("null".into())
    );
    // Each transaction was looked up 8 times: the memo now locates every one served, so the
    // RocksDB server answered all but the first lookups of those in small-set blocks on its
    // I/O thread, byte for byte as the pooled server did.
    assert!(served.len() > 5, "transactions served: {}", served.len());
    let mut located_small = 0;
    for sig in &served {
        let raw: [u8; 64] = bs58::decode(sig)
            .into_vec()
            .expect("base58")
            .try_into()
            .expect("64 bytes");
        let widest = p.rocks_store.located_transaction_set_shreds(&raw);
        assert!(widest.is_some(), "{sig} located after its lookups");
        located_small += usize::from(widest.is_some_and(|w| w <= 64));
    }
    assert!(located_small > 0, "some answered on the I/O thread");

    for search in [false, true] {
        let statuses = p.result(
            "getSignatureStatuses",
            json!([signatures, {"searchTransactionHistory": search}]),
        );
        let value = statuses["value"].as_array().expect("value");
        assert_eq!(value.len(), signatures.len());
        assert!(value[0].is_null(), "unknown signature");
        // The rooted synthetic slots' transactions have statuses; the real slots' have none.
        let found = value.iter().filter(|v| !v.is_null()).count();
        assert_eq!(found, 3 * 3, "searchTransactionHistory {search}");
    }
    // A short list runs on the calling thread: the same answer.
    let _ = p.result("getSignatureStatuses", json!([signatures[..4]]));
}

#[test]
fn signatures_for_address_are_the_same_on_both_engines() {
    let (mut p, blocks, _dir) = pair();
    let first = synth_blocks(&blocks)[0].slot;
    let cfg = json!({"encoding": "json", "maxSupportedTransactionVersion": 0});
    let block = p.result("getBlock", json!([first, cfg]));
    let mut addresses: Vec<String> = block_addresses(&block).into_iter().take(3).collect();
    addresses.push(bs58::encode([9u8; 32]).into_string());
    for address in &addresses {
        let all = p.result(
            "getSignaturesForAddress",
            json!([address, {"commitment": "confirmed"}]),
        );
        let all = all.as_array().expect("entries");
        let sig = |i: usize| all.get(i).map(|e| e["signature"].clone());
        for limit in [1, 5, 32, 1000] {
            for commitment in ["finalized", "confirmed"] {
                let mut cfg = json!({"limit": limit, "commitment": commitment});
                let _ = p.same("getSignaturesForAddress", json!([address, cfg.clone()]));
                if let (Some(before), Some(until)) = (sig(1), sig(all.len().saturating_sub(2))) {
                    cfg["before"] = before;
                    let _ = p.same("getSignaturesForAddress", json!([address, cfg.clone()]));
                    cfg["until"] = until;
                    let _ = p.same("getSignaturesForAddress", json!([address, cfg]));
                }
            }
        }
    }
    // The most used address of a synthetic block has entries in every synthetic slot.
    let busy = p.result(
        "getSignaturesForAddress",
        json!([addresses[0], {"commitment": "confirmed", "limit": 1000}]),
    );
    let slots: std::collections::BTreeSet<u64> = busy
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| e["slot"].as_u64().expect("slot"))
        .collect();
    assert!(slots.contains(&first), "{slots:?}");
    assert!(slots.contains(&SYNTH_CONFIRMED), "confirmed: {slots:?}");
    assert!(!slots.contains(&SYNTH_DEAD), "dead: {slots:?}");
    assert_eq!(
        p.same("getSignaturesForAddress", json!([addresses[3]])),
        Ok("[]".into())
    );
}

#[test]
fn slot_methods_are_the_same_on_both_engines() {
    let (mut p, _blocks, _dir) = pair();
    let commitments = ["finalized", "confirmed", "processed"];
    for c in commitments {
        let _ = p.same("getSlot", json!([{"commitment": c}]));
        let _ = p.same("getBlockHeight", json!([{"commitment": c}]));
        let _ = p.same("getBlocks", json!([0, {"commitment": c}]));
        let _ = p.same(
            "getBlocks",
            json!([TESTNET_SLOT, SYNTH_DEAD, {"commitment": c}]),
        );
        for limit in [1, 3, 100] {
            let _ = p.same("getBlocksWithLimit", json!([0, limit, {"commitment": c}]));
            let _ = p.same(
                "getBlocksWithLimit",
                json!([SYNTH_FIRST, limit, {"commitment": c}]),
            );
        }
    }
    for slot in slots() {
        let _ = p.same("getBlockTime", json!([slot]));
    }
    for (method, params) in [
        ("getFirstAvailableBlock", json!([])),
        ("getMaxShredInsertSlot", json!([])),
        ("getSlot", json!([{"minContextSlot": u64::MAX}])),
        ("getHealth", json!([])),
        ("getVersion", json!([])),
    ] {
        let _ = p.same(method, params);
    }
    assert_eq!(p.result("getSlot", json!([])), json!(SYNTH_FIRST + 2));
    assert_eq!(
        p.result("getSlot", json!([{"commitment": "confirmed"}])),
        json!(SYNTH_CONFIRMED)
    );
    assert_eq!(p.result("getFirstAvailableBlock", json!([])), json!(11));
    assert_eq!(
        p.result("getMaxShredInsertSlot", json!([])),
        json!(SYNTH_DEAD)
    );
    assert_eq!(
        p.result("getBlockTime", json!([TESTNET_SLOT])),
        json!(crate::common::BLOCK_TIME)
    );
    assert!(p.calls > 40, "{} calls", p.calls);
}
