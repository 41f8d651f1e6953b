//! Point-read RPC methods answered on the I/O thread that read them (the default) against
//! the same requests handed to the scan workers and back (`RpcConfig::inline_point_reads`
//! off), in the same run: two servers over one store, the Agave-written history ledger of
//! `fixtures/agave-history`, one keep-alive HTTP client sending one request at a time.
//!
//! - `getSignaturesForAddress` (limit 10) of an address with 10 entries in the fixture;
//! - `getSignatureStatuses` of one signature, history searched;
//! - `getSlot` (finalized);
//! - `getTransaction` (json) of a transaction the transaction memo locates (its block was
//!   walked by the first request): inline it reads the one data set holding it, pooled it
//!   reads the same set on a worker;
//! - `getBlock` (json, full) of a rooted block: kept from the first request, each later one
//!   is checked and answered on the I/O thread (pooled: on a fetch worker).
//!
//! Each case reports the round trip; the ratio inline / pooled is what the hand-off costs.
//! A third server answers inline over a second read-only open of the same ledger with the
//! roots memo off (`Blockstore::set_roots_memo_slots(0)`): inline / that server is what
//! remembering rooted slots and their block times across requests saves. A fourth answers
//! inline over the first store keeping no `getSignaturesForAddress` answers
//! (`Limits::address_answers_bytes` 0): inline / that server is what answering a repeated
//! finalized request from its kept answer saves (the address walk is still done). A fifth
//! keeps no `getBlock` answers (`Limits::block_answers_bytes` 0): inline / that server is
//! what answering a repeated rooted block from its kept answer saves.

use std::net::SocketAddr;
use std::sync::Arc;

use bstore_ledger::store::{AccessMode, Blockstore};
use bstore_rpc::{Limits, RpcConfig, RpcServer};
use bstore_testkit::http::KeepAlive;
use criterion::{Criterion, criterion_main};

mod common;

/// The allocator the `bstore` binary uses.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// An address and a signature of the fixture (its `expected.json.gz` lists them).
const ADDRESS: &str = "GQJ2rGU6Mo7SQa5ceBWZYPvimkxLP7pHNjxdD3i6NN2m";
const SIGNATURE: &str =
    "NmUnZ9g1uKN2iSMR52CcqBRaJRN2q2TTxAFxfEAbA3dSAgVo14LwNDL5XJpLGfoFJT8B3DtHfkxz2ZuaAYUijgS";

/// A rooted block of the fixture with its block time, height and rewards.
const BLOCK: u64 = 101;

/// A transaction of the fixture that `getTransaction` answers (slot 101, index 1).
const TX_SIGNATURE: &str =
    "5cRca73zArVZGPEDFhZrPWeK359Xz53ayesLfgnC4b5jDz7GwVg2sT2G7s6US5gNEUpG36uCrHkW3EwszHYEkCzq";

fn fixture_ledger() -> (tempfile::TempDir, Arc<Blockstore>, Arc<Blockstore>) {
    let (dir, ledger) = bstore_testkit::fixtures::unpack_ledger("agave-history").expect("fixture");
    let store = Blockstore::open(&ledger, AccessMode::ReadOnly).expect("open");
    let forgetful = Blockstore::open(&ledger, AccessMode::ReadOnly).expect("open");
    forgetful.set_roots_memo_slots(0);
    (dir, Arc::new(store), Arc::new(forgetful))
}

/// Which answers a server keeps across requests.
#[derive(Clone, Copy)]
enum Keeps {
    Both,
    NoAddressAnswers,
    NoBlockAnswers,
}

fn server(store: &Arc<Blockstore>, inline_point_reads: bool, keeps: Keeps) -> RpcServer {
    let defaults = Limits::default();
    let config = RpcConfig {
        addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        inline_point_reads,
        limits: Limits {
            address_answers_bytes: match keeps {
                Keeps::NoAddressAnswers => 0,
                _ => defaults.address_answers_bytes,
            },
            block_answers_bytes: match keeps {
                Keeps::NoBlockAnswers => 0,
                _ => defaults.block_answers_bytes,
            },
            ..defaults
        },
        ..RpcConfig::default()
    };
    RpcServer::start(Arc::clone(store), config).expect("server starts")
}

fn bench(c: &mut Criterion) {
    let (_dir, store, forgetful) = fixture_ledger();
    let servers = [
        ("inline", &store, server(&store, true, Keeps::Both)),
        ("pooled", &store, server(&store, false, Keeps::Both)),
        (
            "inline_no_roots_memo",
            &forgetful,
            server(&forgetful, true, Keeps::Both),
        ),
        (
            "inline_no_address_answers",
            &store,
            server(&store, true, Keeps::NoAddressAnswers),
        ),
        (
            "inline_no_block_answers",
            &store,
            server(&store, true, Keeps::NoBlockAnswers),
        ),
    ];
    let cases = [
        (
            "getSignaturesForAddress",
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"getSignaturesForAddress","params":["{ADDRESS}",{{"limit":10}}]}}"#
            ),
        ),
        (
            "getSignatureStatuses",
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"getSignatureStatuses","params":[["{SIGNATURE}"],{{"searchTransactionHistory":true}}]}}"#
            ),
        ),
        (
            "getSlot",
            r#"{"jsonrpc":"2.0","id":1,"method":"getSlot","params":[]}"#.to_string(),
        ),
        (
            "getTransaction",
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"getTransaction","params":["{TX_SIGNATURE}",{{"encoding":"json","maxSupportedTransactionVersion":0}}]}}"#
            ),
        ),
        (
            "getBlock",
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"getBlock","params":[{BLOCK},{{"encoding":"json","maxSupportedTransactionVersion":0}}]}}"#
            ),
        ),
    ];
    for (method, body) in &cases {
        let mut group = c.benchmark_group(format!("rpc_point_reads/{method}"));
        for (name, store, server) in &servers {
            let mut client = KeepAlive::connect(server.local_addr()).expect("connect");
            // The answer is a real one (entries, a status, a slot), the same from both.
            let first = client.post(body).expect("answer");
            assert!(
                first.contains("\"result\":")
                    && !first.contains("\"result\":[]")
                    && !first.contains("\"result\":null"),
                "{method}: {first}"
            );
            if *method == "getTransaction" {
                let raw: [u8; 64] = bs58::decode(TX_SIGNATURE)
                    .into_vec()
                    .expect("base58")
                    .try_into()
                    .expect("64 bytes");
                let widest = store.located_transaction_set_shreds(&raw);
                assert!(widest.is_some_and(|w| w <= 64), "located: {widest:?}");
            }
            if *method == "getBlock" {
                // Kept by the first answer unless this server keeps none.
                let again = client.post(body).expect("answer");
                assert_eq!(again, first, "{name}");
                let reused = server.block_answer_counts().reused;
                assert_eq!(reused > 0, !name.ends_with("no_block_answers"), "{name}");
            }
            let mut sink = Vec::new();
            group.bench_function(*name, |b| {
                b.iter(|| client.post_into(body, &mut sink).expect("answer"))
            });
        }
        group.finish();
    }
}

/// The benchmark group `criterion_main!` runs.
#[allow(missing_docs)] // `criterion_group!` emits an undocumented `pub fn benches`.
pub mod group {
    criterion::criterion_group!(benches, super::bench);
}
criterion_main!(group::benches);
