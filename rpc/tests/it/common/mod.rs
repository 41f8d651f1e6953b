//! Shared by the integration tests: a ledger built from the real test data and the
//! synthetic generator, a server over it on 127.0.0.1:0, and a minimal HTTP client.
//!
//! The ledger (roots marked R, "full" = every shred present):
//! - slots 10 R, 11 R, 12 R: Agave's `test_get_rooted_block` shreds (parents 9, 10, 11);
//! - slot 417955322 R: the real testnet slot (parent 417955321, not stored);
//! - slots S0..S2 R, S3 (full, unrooted: confirmed only), S4 (full, dead): synthetic,
//!   chained from the testnet slot (S0 = 417955330, parent 417955322);
//! - slot 8: a rooted placeholder without shreds is not made; slot 5 is below everything.
#![allow(dead_code)]

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::Duration;

use bstore_ledger::entry::{Entry, decode_entries, encode_transaction_into};
use bstore_ledger::store::{AccessMode, Blockstore, KvEngine};
use bstore_ledger::synth::{GeneratedSlot, SlotGenerator, SlotSpec};
use bstore_ledger::{Hash, Slot};
use bstore_rpc::{RpcConfig, RpcServer};

pub(crate) mod clients;
pub(crate) mod fixtures;
use serde_json::{Value, json};

pub(crate) const TESTNET_SLOT: u64 = 417_955_322;
pub(crate) const AGAVE_SLOTS: [u64; 3] = [10, 11, 12];
pub(crate) const SYNTH_FIRST: u64 = 417_955_330;
pub(crate) const SYNTH_COUNT: u64 = 5;
pub(crate) const SYNTH_CONFIRMED: u64 = SYNTH_FIRST + 3;
pub(crate) const SYNTH_DEAD: u64 = SYNTH_FIRST + 4;
pub(crate) const BLOCK_TIME: i64 = 1_700_000_000;

const AGAVE_FILES: [&str; 3] = [
    "sig-agave-generated/agave.blockstore.test_get_rooted_block.shreds.bin",
    "sig-agave-generated/agave.blockstore.test_get_rooted_block.more_shreds.bin",
    "sig-agave-generated/agave.blockstore.test_get_rooted_block.unrooted_shreds.bin",
];

// The real-data helpers of the ledger tests (testdata, read_records, json).
#[path = "../../../../ledger/tests/it/common/mod.rs"]
mod data;
#[allow(unused_imports)]
pub(crate) use data::json as json_file;
#[allow(unused_imports)] // each test binary uses a different subset
pub(crate) use data::{read_records, testdata};

/// What a test checks a block against.
#[derive(Debug, Clone)]
pub(crate) struct ExpectedBlock {
    pub slot: u64,
    pub parent_slot: u64,
    pub blockhash: String,
    pub previous_blockhash: String,
    /// Every transaction's serialized bytes, in block order.
    pub transactions: Vec<Vec<u8>>,
    /// First signature of every transaction (base58).
    pub signatures: Vec<String>,
    pub block_time: Option<i64>,
    pub block_height: Option<u64>,
    /// Whether any transaction is v0.
    pub has_v0: bool,
    /// Each transaction's `transaction_status` row, when the ledger holds the block's
    /// history (the synthetic slots); `None`: every `meta` is `null`.
    pub statuses: Option<Vec<Vec<u8>>>,
}

/// The test ledger and what each block must look like.
pub(crate) struct TestLedger {
    pub dir: tempfile::TempDir,
    pub store: Arc<Blockstore>,
    pub blocks: Vec<ExpectedBlock>,
}

impl TestLedger {
    pub(crate) fn block(&self, slot: u64) -> &ExpectedBlock {
        self.blocks
            .iter()
            .find(|b| b.slot == slot)
            .unwrap_or_else(|| panic!("no expected block for slot {slot}"))
    }
}

fn tx_bytes(entries: &[Entry]) -> Vec<Vec<u8>> {
    entries
        .iter()
        .flat_map(|e| &e.transactions)
        .map(|tx| {
            let mut out = Vec::new();
            encode_transaction_into(tx, &mut out);
            out
        })
        .collect()
}

fn first_signatures(entries: &[Entry]) -> Vec<String> {
    entries
        .iter()
        .flat_map(|e| &e.transactions)
        .map(|tx| tx.signatures[0].to_string())
        .collect()
}

/// The Agave slots' entries, from `entries.bin` (Agave's own serialization of the entries
/// it shredded: independent of the shreds).
fn agave_entries() -> Vec<Entry> {
    let mut bytes = 200u64.to_le_bytes().to_vec();
    for chunk in
        read_records("sig-agave-generated/agave.blockstore.test_get_rooted_block.entries.bin")
    {
        bytes.extend_from_slice(&chunk);
    }
    decode_entries(&bytes).expect("entries.bin decodes")
}

/// The testnet slot's expected first signatures, from `expected.json`.
fn testnet_signatures(expected: &Value) -> Vec<String> {
    expected["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .flat_map(|e| e["txs"].as_array().cloned().unwrap_or_default())
        .map(|tx| tx["signatures"][0].as_str().expect("signature").to_string())
        .collect()
}

/// The testnet slot's entries, from the fixture's `batches/` (the data sets the oracle
/// derived, one `Vec<Entry>` each, in shred order): independent of the server's fetch.
fn testnet_entries(expected: &Value) -> Vec<Entry> {
    let batches = expected["deshred"]["batches"].as_array().expect("batches");
    let mut entries = Vec::new();
    for batch in batches {
        let file = batch["file"].as_str().expect("batch file");
        let bytes = std::fs::read(testdata().join("sig-testnet-417955322").join(file))
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        entries.extend(decode_entries(&bytes).expect("batch decodes"));
    }
    entries
}

/// Builds the ledger described at the top of this file on RocksDB.
pub(crate) fn build_ledger() -> TestLedger {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Blockstore::open(dir.path(), AccessMode::ReadWrite).expect("open ledger");
    let blocks = fill_ledger(&store);
    TestLedger {
        dir,
        store: Arc::new(store),
        blocks,
    }
}

/// Writes the ledger described at the top of this file into `store` (an empty ledger on
/// any engine); returns what each block must look like.
pub(crate) fn fill_ledger<E: KvEngine>(store: &Blockstore<E>) -> Vec<ExpectedBlock> {
    let mut blocks = Vec::new();

    // Agave's slots 10, 11, 12: the same entries each.
    let agave_expected = json_file("sig-agave-generated/expected.json");
    let entries = agave_entries();
    let mut previous = Hash::default().to_string();
    for (slot, file) in AGAVE_SLOTS.iter().zip(AGAVE_FILES) {
        // Shredded by a pre-4.x Agave (34-shred slots): not Agave 4.x's 32:32 shapes.
        let legacy = bstore_ledger::store::InsertOptions {
            shape: bstore_ledger::store::ShapeRules::Legacy,
            ..Default::default()
        };
        let outcome = store
            .insert_shreds_with(read_records(file), legacy)
            .expect("insert agave shreds");
        assert_eq!(outcome.slots_full, vec![Slot(*slot)], "{file}");
        let key = file.rsplit('/').next().expect("file name");
        let facts = &agave_expected["files"][key];
        let blockhash = facts["deshred"]["totals"]["last_entry_hash"]
            .as_str()
            .expect("last_entry_hash")
            .to_string();
        blocks.push(ExpectedBlock {
            slot: *slot,
            parent_slot: facts["shreds"]["parent_slot"][0].as_u64().expect("parent"),
            blockhash: blockhash.clone(),
            previous_blockhash: previous,
            transactions: tx_bytes(&entries),
            signatures: first_signatures(&entries),
            block_time: None,
            block_height: None,
            has_v0: false,
            statuses: None,
        });
        previous = blockhash;
    }

    // The testnet slot.
    let testnet = json_file("sig-testnet-417955322/expected.json");
    store
        .insert_shreds(read_records("sig-testnet-417955322/shreds.bin"))
        .expect("insert testnet shreds");
    let testnet_hash = testnet["deshred"]["totals"]["last_entry_hash"]
        .as_str()
        .expect("last hash")
        .to_string();
    blocks.push(ExpectedBlock {
        slot: testnet["slot"].as_u64().expect("slot"),
        parent_slot: testnet["shreds"]["parent_slot"][0]
            .as_u64()
            .expect("parent"),
        blockhash: testnet_hash.clone(),
        // The parent (417955321) is not in the ledger: the default hash.
        previous_blockhash: Hash::default().to_string(),
        transactions: {
            let txs = tx_bytes(&testnet_entries(&testnet));
            let total = &testnet["deshred"]["totals"]["txs"];
            assert_eq!(
                Some(txs.len() as u64),
                total.as_u64(),
                "testnet transactions"
            );
            txs
        },
        signatures: testnet_signatures(&testnet),
        block_time: Some(BLOCK_TIME),
        block_height: Some(400_000_000),
        has_v0: false,
        statuses: None,
    });
    store
        .set_block_time(Slot(TESTNET_SLOT), BLOCK_TIME)
        .expect("block time");
    store
        .set_block_height(Slot(TESTNET_SLOT), 400_000_000)
        .expect("block height");

    // Synthetic slots chained from the testnet slot.
    let mut generator = SlotGenerator::new(42, 1516);
    let mut parent = (
        Slot(TESTNET_SLOT),
        testnet_hash.parse::<Hash>().expect("hash"),
    );
    for i in 0..SYNTH_COUNT {
        let slot = Slot(SYNTH_FIRST + i);
        let spec = SlotSpec {
            data_shreds: 64,
            ..SlotSpec::default()
        };
        let g: GeneratedSlot = generator
            .generate(slot, parent.0, parent.1, spec)
            .expect("generate slot");
        store.insert_shreds(&g.data_shreds).expect("insert synth");
        bstore_ledger::synth::history::write_history(store, slot, &g.entries)
            .expect("synthetic history");
        let signatures: Vec<[u8; 64]> = g
            .entries
            .iter()
            .flat_map(|e| &e.transactions)
            .map(|t| t.signatures[0].0)
            .collect();
        let sig_refs: Vec<&[u8; 64]> = signatures.iter().collect();
        let statuses = store
            .transaction_status_rows(slot, &sig_refs)
            .expect("status rows")
            .into_iter()
            .map(|row| row.expect("every synthetic transaction has a status"))
            .collect();
        store
            .set_block_time(slot, BLOCK_TIME + i as i64)
            .expect("block time");
        blocks.push(ExpectedBlock {
            slot: slot.0,
            parent_slot: parent.0.0,
            blockhash: g.blockhash.to_string(),
            previous_blockhash: parent.1.to_string(),
            transactions: tx_bytes(&g.entries),
            signatures: first_signatures(&g.entries),
            block_time: Some(BLOCK_TIME + i as i64),
            block_height: None,
            has_v0: g
                .entries
                .iter()
                .flat_map(|e| &e.transactions)
                .any(|t| t.version() == bstore_ledger::entry::TxVersion::V0),
            statuses: Some(statuses),
        });
        parent = (slot, g.blockhash);
    }
    store.set_dead_slot(Slot(SYNTH_DEAD)).expect("dead");
    let mut roots: Vec<Slot> = AGAVE_SLOTS.iter().map(|s| Slot(*s)).collect();
    roots.push(Slot(TESTNET_SLOT));
    roots.extend((0..3).map(|i| Slot(SYNTH_FIRST + i)));
    store.set_roots(roots).expect("roots");
    blocks
}

/// A 32-shred synthetic block at `slot` on `parent` (whose blockhash is `parent_hash`),
/// from generator `seed`, inserted into `store` with its history rows.
pub(crate) fn write_synthetic_slot<E: KvEngine>(
    store: &Blockstore<E>,
    seed: u64,
    slot: u64,
    parent: u64,
    parent_hash: Hash,
) -> GeneratedSlot {
    let g = SlotGenerator::new(seed, 1516)
        .generate(
            Slot(slot),
            Slot(parent),
            parent_hash,
            SlotSpec {
                data_shreds: 32,
                ..SlotSpec::default()
            },
        )
        .expect("generate a synthetic slot");
    store.insert_shreds(&g.data_shreds).expect("insert");
    bstore_ledger::synth::history::write_history(store, Slot(slot), &g.entries)
        .expect("synthetic history");
    g
}

/// A server on 127.0.0.1 (a free port) over `store` with `limits`.
pub(crate) fn server_with_limits(store: &Arc<Blockstore>, limits: bstore_rpc::Limits) -> RpcServer {
    let config = RpcConfig {
        addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        limits,
        ..RpcConfig::default()
    };
    RpcServer::start(Arc::clone(store), config).expect("server starts")
}

/// Account keys of `block`'s transactions (a json getBlock result), most used first.
pub(crate) fn block_addresses(block: &Value) -> Vec<String> {
    let mut uses: HashMap<String, usize> = HashMap::new();
    for tx in block["transactions"].as_array().expect("transactions") {
        for key in tx["transaction"]["message"]["accountKeys"]
            .as_array()
            .expect("accountKeys")
        {
            *uses
                .entry(key.as_str().expect("key").to_string())
                .or_default() += 1;
        }
    }
    let mut keys: Vec<(String, usize)> = uses.into_iter().collect();
    keys.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    keys.into_iter().map(|(k, _)| k).collect()
}

/// One JSON-RPC call to the server at `addr`, answered with HTTP 200; returns the whole
/// response object.
pub(crate) fn call(addr: SocketAddr, method: &str, params: Value) -> Value {
    let body = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let (status, text) = post(addr, body.to_string().as_bytes());
    assert_eq!(status, 200, "{method}: {text}");
    serde_json::from_str(&text).expect("response is JSON")
}

/// A server over a fresh test ledger on 127.0.0.1:0.
pub(crate) struct TestServer {
    pub ledger: TestLedger,
    pub server: RpcServer,
}

impl TestServer {
    pub(crate) fn start(config: RpcConfig) -> Self {
        let ledger = build_ledger();
        let config = RpcConfig {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            ..config
        };
        let server = RpcServer::start(Arc::clone(&ledger.store), config).expect("server starts");
        Self { ledger, server }
    }

    pub(crate) fn addr(&self) -> SocketAddr {
        self.server.local_addr()
    }

    pub(crate) fn url(&self) -> String {
        format!("http://{}", self.addr())
    }

    /// One JSON-RPC call; returns the whole response object.
    pub(crate) fn call(&self, method: &str, params: Value) -> Value {
        call(self.addr(), method, params)
    }

    /// The `result` of a call that must succeed.
    pub(crate) fn result(&self, method: &str, params: Value) -> Value {
        let r = self.call(method, params.clone());
        assert!(r.get("error").is_none(), "{method} {params}: {r}");
        r["result"].clone()
    }

    /// The `error` of a call that must fail.
    pub(crate) fn error(&self, method: &str, params: Value) -> Value {
        let r = self.call(method, params.clone());
        assert!(
            r.get("result").is_none(),
            "{method} {params} must fail: {r}"
        );
        r["error"].clone()
    }
}

/// POSTs `body` to `/` over a fresh connection; returns the status and the body.
pub(crate) fn post(addr: SocketAddr, body: &[u8]) -> (u16, String) {
    let (status, _, body) = request(addr, "POST", "/", body);
    (status, body)
}

/// Sends one `method` request for `path` with `body` (a JSON content type) over a fresh
/// connection; returns the status, the header block (names lowercased) and the body.
pub(crate) fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &[u8],
) -> (u16, String, String) {
    send(
        addr,
        &format!("{method} {path}"),
        &["Content-Type: application/json"],
        body,
    )
}

/// Sends `line` (`METHOD PATH`) with `headers` (each a whole header line) and `body` over a
/// fresh connection: the status, the header block (names lowercased) and the body.
pub(crate) fn send(
    addr: SocketAddr,
    line: &str,
    headers: &[&str],
    body: &[u8],
) -> (u16, String, String) {
    let mut head = format!("{line} HTTP/1.1\r\nHost: {addr}\r\n");
    for h in headers {
        head.push_str(h);
        head.push_str("\r\n");
    }
    head.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    ));
    exchange(addr, head.as_bytes(), body)
}

/// Sends `head` then `body` (any bytes: a malformed body too) on a new connection and reads
/// until the server closes it: the status, the response head lowercased, the body.
pub(crate) fn exchange(addr: SocketAddr, head: &[u8], body: &[u8]) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60)))
        .expect("timeout");
    s.write_all(head).expect("write head");
    // A server may refuse before reading everything (body too large): ignore write errors.
    let _ = s.write_all(body);
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    let text = String::from_utf8(raw).expect("utf-8 response");
    let (head, body) = text.split_once("\r\n\r\n").expect("HTTP response");
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .expect("status code");
    (status, head.to_ascii_lowercase(), body.to_string())
}

/// `clients` threads post `body` to `addr` at the same moment (a barrier); every answer,
/// as `post` returns it, in thread order.
pub(crate) fn burst(addr: SocketAddr, body: &str, clients: usize) -> Vec<(u16, String)> {
    let barrier = Arc::new(std::sync::Barrier::new(clients));
    let handles: Vec<_> = (0..clients)
        .map(|_| {
            let (barrier, body) = (Arc::clone(&barrier), body.to_string());
            std::thread::spawn(move || {
                barrier.wait();
                post(addr, body.as_bytes())
            })
        })
        .collect();
    handles
        .into_iter()
        .map(|h| h.join().expect("client thread"))
        .collect()
}

/// Base64 of bytes (the tests compare transaction bytes as the clients print them).
pub(crate) fn b64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// Checks a transaction's `meta` against the block's stored status (decoded by the ledger
/// crate): `null` without history, else the fee, error, balances, logs and compute units.
pub(crate) fn check_meta(meta: &Value, e: &ExpectedBlock, i: usize, what: &str) {
    let Some(statuses) = &e.statuses else {
        assert_eq!(*meta, Value::Null, "{what} tx {i}: no history, no meta");
        return;
    };
    let row = &statuses[i];
    let m = bstore_ledger::history::StatusMeta::decode(row).expect("stored status decodes");
    assert_eq!(meta["fee"], json!(m.fee), "{what} tx {i}");
    assert_eq!(meta["preBalances"], json!(m.pre_balances), "{what} tx {i}");
    assert_eq!(
        meta["postBalances"],
        json!(m.post_balances),
        "{what} tx {i}"
    );
    assert_eq!(meta["err"].is_null(), m.err.is_none(), "{what} tx {i}");
    assert_eq!(
        meta["status"].get("Ok").is_some(),
        m.err.is_none(),
        "{what} tx {i}"
    );
    if meta.get("logMessages").is_some() {
        assert_eq!(meta["logMessages"], json!(m.log_messages), "{what} tx {i}");
        assert_eq!(
            meta["computeUnitsConsumed"],
            json!(m.compute_units_consumed),
            "{what} tx {i}"
        );
    }
}
