//! The archive tier behind the ledger: after a purge, blocks and transactions
//! the ledger no longer has are answered from an archive with exactly the JSON the ledger
//! gave before the purge; `getBlocks` and `getFirstAvailableBlock` span both; a block in
//! neither is Agave's -32009; a failing archive is an internal error that names it, and
//! local blocks are still served. The archive here is in memory (`BlockArchive` over
//! `Blockstore::block_record`); `bstore/tests/archive_*.rs` run the S3 one on Garage.

use crate::common;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;

use bstore_ledger::Slot;
use bstore_ledger::fetch::FetchBuffer;
use bstore_ledger::history::BlockRecord;
use bstore_rpc::archive::{ArchiveFault, ArchiveFaultKind, ArchiveFuture, BlockArchive};
use bstore_rpc::{RpcConfig, RpcServer};
use common::*;
use serde_json::{Value, json};

#[derive(Debug, Default)]
struct MemArchive {
    blocks: BTreeMap<Slot, BlockRecord>,
    signatures: BTreeMap<[u8; 64], (Slot, u32)>,
    fail: bool,
}

impl MemArchive {
    fn add(&mut self, record: BlockRecord) {
        let mut index = 0u32;
        for set in &record.entry_sets {
            let view = bstore_ledger::entry::EntriesView::parse(set).expect("entries");
            for tx in view.transactions() {
                let sig = *tx.first_signature().expect("signed");
                self.signatures.insert(sig, (record.slot, index));
                index += 1;
            }
        }
        self.blocks.insert(record.slot, record);
    }

    fn answer<T: Send + 'static>(&self, value: T) -> ArchiveFuture<'_, T> {
        let fail = self.fail;
        Box::pin(async move {
            if fail {
                Err(ArchiveFault::new(
                    ArchiveFaultKind::Unreachable,
                    "connection refused by 127.0.0.1:3900",
                ))
            } else {
                Ok(value)
            }
        })
    }
}

impl BlockArchive for MemArchive {
    fn block(&self, slot: Slot) -> ArchiveFuture<'_, Option<BlockRecord>> {
        self.answer(self.blocks.get(&slot).cloned())
    }
    fn locate<'a>(&'a self, signature: &'a [u8; 64]) -> ArchiveFuture<'a, Option<(Slot, u32)>> {
        self.answer(self.signatures.get(signature).copied())
    }
    fn slots(&self, first: Slot, last: Slot, limit: usize) -> ArchiveFuture<'_, Vec<Slot>> {
        self.answer(
            self.blocks
                .range(first..=last)
                .map(|(s, _)| *s)
                .take(limit)
                .collect(),
        )
    }
    fn first_slot(&self) -> ArchiveFuture<'_, Option<Slot>> {
        self.answer(self.blocks.keys().next().copied())
    }
}

fn configs() -> Vec<Value> {
    let mut out = Vec::new();
    for encoding in ["json", "jsonParsed", "base58", "base64"] {
        for details in ["full", "accounts", "signatures", "none"] {
            out.push(json!({"encoding": encoding, "transactionDetails": details,
                            "maxSupportedTransactionVersion": 0}));
        }
    }
    out.push(json!({"rewards": false, "maxSupportedTransactionVersion": 0}));
    out
}

fn start(store: &Arc<bstore_ledger::store::Blockstore>, archive: MemArchive) -> RpcServer {
    let config = RpcConfig {
        addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        ..RpcConfig::default()
    };
    let archive: Arc<dyn BlockArchive> = Arc::new(archive);
    RpcServer::start_with_archive(Arc::clone(store), config, Some(archive)).expect("server")
}

fn call(server: &RpcServer, method: &str, params: Value) -> Value {
    common::call(server.local_addr(), method, params)
}

#[test]
fn purged_blocks_are_served_from_the_archive_with_the_same_json() {
    let t = TestServer::start(Default::default());
    let archived = [AGAVE_SLOTS[1], AGAVE_SLOTS[2], SYNTH_FIRST, SYNTH_FIRST + 1];
    // What the ledger answers before the purge.
    let mut before = Vec::new();
    for &slot in &archived {
        for cfg in configs() {
            before.push((
                "getBlock",
                json!([slot, cfg]),
                t.call("getBlock", json!([slot, cfg])),
            ));
        }
        for sig in t.ledger.block(slot).signatures.iter().take(3) {
            for encoding in ["json", "jsonParsed", "base64"] {
                let params =
                    json!([sig, {"encoding": encoding, "maxSupportedTransactionVersion": 0}]);
                before.push((
                    "getTransaction",
                    params.clone(),
                    t.call("getTransaction", params),
                ));
            }
        }
    }
    let mut archive = MemArchive::default();
    let mut buf = FetchBuffer::default();
    for &slot in &archived {
        archive.add(
            t.ledger
                .store
                .block_record(Slot(slot), &mut buf)
                .expect("record"),
        );
    }
    t.ledger
        .store
        .purge_slots(Slot(0), Slot(SYNTH_FIRST))
        .expect("purge");
    let server = start(&t.ledger.store, archive);

    for (method, params, want) in &before {
        assert!(
            want.get("result").is_some(),
            "{method} {params} answered before: {want}"
        );
        let got = call(&server, method, params.clone());
        assert_eq!(
            got["result"], want["result"],
            "{method} {params} from the archive"
        );
    }
    // Neither in the ledger nor in the archive: Agave's long-term storage answer.
    let e = call(&server, "getBlock", json!([TESTNET_SLOT]));
    assert_eq!(e["error"]["code"], -32009, "{e}");
    assert_eq!(
        e["error"]["message"],
        format!("Slot {TESTNET_SLOT} was skipped, or missing in long-term storage")
    );
    // Both tiers in one listing; the first block is the archive's.
    let first = call(&server, "getFirstAvailableBlock", json!([]));
    assert_eq!(first["result"], AGAVE_SLOTS[1]);
    let blocks = call(&server, "getBlocks", json!([0, SYNTH_FIRST + 2]));
    assert_eq!(
        blocks["result"],
        json!([
            AGAVE_SLOTS[1],
            AGAVE_SLOTS[2],
            SYNTH_FIRST,
            SYNTH_FIRST + 1,
            SYNTH_FIRST + 2
        ])
    );
    let limited = call(&server, "getBlocksWithLimit", json!([0, 3]));
    assert_eq!(
        limited["result"],
        json!([AGAVE_SLOTS[1], AGAVE_SLOTS[2], SYNTH_FIRST])
    );
    // An unknown signature is still null.
    let none = call(
        &server,
        "getTransaction",
        json!([bs58::encode([9u8; 64]).into_string()]),
    );
    assert_eq!(none["result"], Value::Null);
    server.stop().expect("stop");
    t.server.stop().expect("stop");
}

#[test]
fn a_failing_archive_is_an_internal_error_and_local_blocks_still_serve() {
    let t = TestServer::start(Default::default());
    t.ledger
        .store
        .purge_slots(Slot(0), Slot(TESTNET_SLOT))
        .expect("purge");
    let archive = MemArchive {
        fail: true,
        ..MemArchive::default()
    };
    let server = start(&t.ledger.store, archive);
    let e = call(&server, "getBlock", json!([AGAVE_SLOTS[1]]));
    // The answer names the archive, the call and the archive's own message.
    assert_eq!(
        e["error"],
        json!({
            "code": -32603,
            "message": "Internal error",
            "data": format!(
                "archive: block {}: connection refused by 127.0.0.1:3900",
                AGAVE_SLOTS[1]
            ),
        }),
        "{e}"
    );
    let e = call(&server, "getFirstAvailableBlock", json!([]));
    assert_eq!(
        e["error"]["data"], "archive: first slot: connection refused by 127.0.0.1:3900",
        "{e}"
    );
    let local = call(
        &server,
        "getBlock",
        json!([SYNTH_FIRST + 1, {"maxSupportedTransactionVersion": 0}]),
    );
    assert!(local["result"]["blockhash"].is_string(), "{local}");
    server.stop().expect("stop");
    t.server.stop().expect("stop");
}

#[test]
fn a_ledger_with_no_roots_left_serves_every_archived_block() {
    let t = TestServer::start(Default::default());
    let store = &t.ledger.store;
    let rooted: Vec<Slot> = store
        .rooted_slots(Slot(1)..)
        .collect::<Result<_, _>>()
        .expect("roots");
    assert!(rooted.len() >= 3, "{rooted:?}");
    let mut archive = MemArchive::default();
    let mut buf = FetchBuffer::default();
    let mut before = Vec::new();
    for &slot in &rooted {
        let cfg = json!({"maxSupportedTransactionVersion": 0});
        let answer = t.call("getBlock", json!([slot.0, cfg]));
        if answer.get("result").is_none_or(Value::is_null) {
            continue;
        }
        before.push(("getBlock", json!([slot.0, cfg]), answer));
        let expected = t.ledger.blocks.iter().find(|b| b.slot == slot.0);
        if let Some(sig) = expected.and_then(|b| b.signatures.first()) {
            let params = json!([sig, cfg]);
            before.push((
                "getTransaction",
                params.clone(),
                t.call("getTransaction", params),
            ));
        }
        archive.add(store.block_record(slot, &mut buf).expect("record"));
    }
    let archived: Vec<u64> = archive.blocks.keys().map(|s| s.0).collect();
    // Everything purged, roots included: a ledger with no root (as on a fresh node).
    let highest = store.highest_slot().expect("highest").expect("a slot");
    store.purge_slots(Slot(0), highest).expect("purge");
    assert_eq!(store.max_root().expect("max root"), None);
    let server = start(store, archive);
    for (method, params, want) in &before {
        let got = call(&server, method, params.clone());
        assert_eq!(
            got["result"], want["result"],
            "{method} {params} from the archive: {got}"
        );
    }
    let first = call(&server, "getFirstAvailableBlock", json!([]));
    assert_eq!(first["result"], archived[0], "{first}");
    let last = *archived.last().expect("archived");
    let blocks = call(&server, "getBlocks", json!([0, last]));
    assert_eq!(blocks["result"], json!(archived), "{blocks}");
    let limited = call(&server, "getBlocksWithLimit", json!([0, 2]));
    assert_eq!(limited["result"], json!(archived[..2]), "{limited}");
    // A slot the archive does not have keeps the ledger's own answer.
    let e = call(&server, "getBlock", json!([last + 1000]));
    assert_eq!(e["error"]["code"], -32004, "{e}");
    server.stop().expect("stop");
    t.server.stop().expect("stop");
}
