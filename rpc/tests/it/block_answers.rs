//! Kept `getBlock` answers (`Limits::block_answers_bytes`): over one secondary view of a
//! ledger whose writer changes it under them - a block time written late, a confirmed slot
//! rooted, a parent purged, a parent marked dead, a kept block purged, another block
//! written where a kept one was - a server that keeps answers answers every request (every
//! slot, encodings, details, rewards, both commitments) with the same bytes as one that
//! keeps none, asked twice in a row, and the second ask is answered from what it kept when
//! nothing changed. (A secondary, as `bstore serve` runs beside a validator: the writer's
//! purges leave no mark in the view, so a slot written again is served again.)

use std::sync::Arc;

use bstore_ledger::store::{AccessMode, Blockstore};
use bstore_ledger::{Hash, Slot};
use bstore_rpc::{KeptAnswerCounts, Limits, RpcServer};
use serde_json::{Value, json};

use crate::common::{
    AGAVE_SLOTS, SYNTH_CONFIRMED, SYNTH_COUNT, SYNTH_DEAD, SYNTH_FIRST, TESTNET_SLOT, TestLedger,
    build_ledger, post, server_with_limits, write_synthetic_slot,
};

struct Servers {
    /// The writer.
    ledger: TestLedger,
    /// The servers' view, caught up by [`Servers::same`].
    view: Arc<Blockstore>,
    _view_dir: tempfile::TempDir,
    keeping: RpcServer,
    fresh: RpcServer,
}

fn server(view: &Arc<Blockstore>, block_answers_bytes: usize) -> RpcServer {
    let limits = Limits {
        block_answers_bytes,
        ..Limits::default()
    };
    server_with_limits(view, limits)
}

fn body(server: &RpcServer, params: &Value) -> String {
    let request = json!({"jsonrpc": "2.0", "id": 5, "method": "getBlock", "params": params});
    let (status, text) = post(server.local_addr(), request.to_string().as_bytes());
    assert_eq!(status, 200, "{params}: {text}");
    text
}

/// Every slot of the ledger, a slot past it and one below it.
fn slots() -> Vec<u64> {
    let mut slots = AGAVE_SLOTS.to_vec();
    slots.push(TESTNET_SLOT);
    slots.extend((0..SYNTH_COUNT).map(|i| SYNTH_FIRST + i));
    slots.extend([SYNTH_DEAD + 1, 5]);
    slots
}

/// The configs asked: every encoding and detail level with and without rewards at both
/// commitments (versioned transactions accepted), and the legacy-only default.
fn configs() -> Vec<Value> {
    let mut configs = vec![json!({"commitment": "finalized"})];
    for commitment in ["finalized", "confirmed"] {
        for encoding in ["json", "base64", "jsonParsed"] {
            for details in ["full", "signatures", "none", "accounts"] {
                for rewards in [true, false] {
                    configs.push(json!({"encoding": encoding, "transactionDetails": details,
                        "rewards": rewards, "commitment": commitment,
                        "maxSupportedTransactionVersion": 0}));
                }
            }
        }
    }
    configs
}

impl Servers {
    fn start() -> Self {
        let ledger = build_ledger();
        // Block heights as Agave writes them for every frozen bank (the shared ledger has
        // them only for the testnet slot); Agave's slot 12 gets its height now and its
        // block time later.
        for (i, slot) in (0..SYNTH_COUNT).map(|i| (i, SYNTH_FIRST + i)) {
            ledger
                .store
                .set_block_height(Slot(slot), 1_000 + i)
                .expect("height");
        }
        ledger
            .store
            .set_block_height(Slot(AGAVE_SLOTS[2]), 12)
            .expect("height");
        let view_dir = tempfile::tempdir().expect("tempdir");
        let view = Arc::new(
            Blockstore::open(
                ledger.dir.path(),
                AccessMode::Secondary {
                    secondary_path: view_dir.path().to_path_buf(),
                },
            )
            .expect("open secondary"),
        );
        let keeping = server(&view, Limits::default().block_answers_bytes);
        let fresh = server(&view, 0);
        Self {
            ledger,
            view,
            _view_dir: view_dir,
            keeping,
            fresh,
        }
    }

    /// The view caught up with the writer, then every slot in every config asked twice of
    /// the keeping server and once of the fresh one: the same bytes. Returns the fresh
    /// answers by (slot, config index).
    fn same(&self, step: &str) -> Vec<Vec<Value>> {
        self.view.catch_up().expect("catch up");
        let configs = configs();
        slots()
            .into_iter()
            .map(|slot| {
                configs
                    .iter()
                    .map(|config| {
                        let params = json!([slot, config]);
                        let first = body(&self.keeping, &params);
                        let second = body(&self.keeping, &params);
                        let fresh = body(&self.fresh, &params);
                        assert_eq!(first, fresh, "{step}: {params}: kept vs fresh");
                        assert_eq!(second, fresh, "{step}: {params}: asked again");
                        serde_json::from_str(&fresh).expect("json")
                    })
                    .collect()
            })
            .collect()
    }

    fn reused(&self) -> u64 {
        self.keeping.block_answer_counts().reused
    }
}

/// The fresh answers of `slot` from [`Servers::same`].
fn of(answers: &[Vec<Value>], slot: u64) -> &[Value] {
    let i = slots().iter().position(|s| *s == slot).expect("slot asked");
    &answers[i]
}

/// The value of `field` in `slot`'s `json` full answer at `finalized` (config 1).
fn field(answers: &[Vec<Value>], slot: u64, field: &str) -> Value {
    of(answers, slot)[1]["result"][field].clone()
}

#[test]
fn kept_answers_are_what_a_fresh_server_answers_as_the_ledger_changes() {
    let s = Servers::start();
    let store = &s.ledger.store;
    let (s0, s1, s2) = (SYNTH_FIRST, SYNTH_FIRST + 1, SYNTH_FIRST + 2);

    let first = s.same("initial");
    // The rooted synthetic slots (time, height, rewards all written) were kept in every
    // config and the second ask answered from them; the rest was answered afresh.
    let rooted_synthetic = 3 * configs().len() as u64;
    assert!(
        s.reused() >= rooted_synthetic,
        "{:?}",
        s.keeping.block_answer_counts()
    );
    assert_eq!(s.fresh.block_answer_counts(), KeptAnswerCounts::default());
    assert_eq!(field(&first, AGAVE_SLOTS[2], "blockTime"), Value::Null);

    // A block time written late (slot 12 had its height only): not kept before, so now
    // both answer with it.
    store
        .set_block_time(Slot(AGAVE_SLOTS[2]), 1_600_000_000)
        .expect("time");
    let timed = s.same("block time written");
    assert_eq!(
        field(&timed, AGAVE_SLOTS[2], "blockTime"),
        json!(1_600_000_000)
    );

    // The confirmed slot rooted: its finalized answers appear, and are kept from now on.
    let before = s.reused();
    store.set_roots([Slot(SYNTH_CONFIRMED)]).expect("root");
    let rooted = s.same("confirmed slot rooted");
    assert!(of(&first, SYNTH_CONFIRMED)[1].get("error").is_some());
    assert!(of(&rooted, SYNTH_CONFIRMED)[1]["result"].is_object());
    assert!(s.reused() - before >= 4 * configs().len() as u64);

    // S1's parent purged: its previousBlockhash becomes the default hash.
    let hash_of_s0 = field(&rooted, s0, "blockhash");
    assert_eq!(field(&rooted, s1, "previousBlockhash"), hash_of_s0);
    store.purge_slots(Slot(s0), Slot(s0)).expect("purge");
    let orphaned = s.same("parent purged");
    assert_eq!(
        field(&orphaned, s1, "previousBlockhash"),
        json!("11111111111111111111111111111111")
    );

    // S1 marked dead: it is no block, and S2 (its child) loses its previousBlockhash.
    assert_eq!(
        field(&orphaned, s2, "previousBlockhash"),
        field(&orphaned, s1, "blockhash")
    );
    store.set_dead_slot(Slot(s1)).expect("dead");
    let dead = s.same("parent dead");
    assert!(of(&dead, s1)[1].get("error").is_some());
    assert_eq!(
        field(&dead, s2, "previousBlockhash"),
        json!("11111111111111111111111111111111")
    );

    // S2 purged: answered as a missing slot by both.
    store.purge_slots(Slot(s2), Slot(s2)).expect("purge");
    let purged = s.same("kept block purged");
    assert!(of(&purged, s2)[1].get("error").is_some());
    assert!(of(&dead, s2)[1]["result"].is_object());

    // Another block stored and rooted at S3 in place of the kept one (purged, then
    // written again from another generator): the frame tells them apart.
    let s3 = SYNTH_CONFIRMED;
    store.purge_slots(Slot(s3), Slot(s3)).expect("purge");
    let parent_hash: Hash = field(&dead, s2, "blockhash")
        .as_str()
        .expect("hash")
        .parse()
        .expect("hash");
    let g = write_synthetic_slot(store, 7, s3, s2, parent_hash);
    store.set_block_time(Slot(s3), 1_700_000_099).expect("time");
    store.set_block_height(Slot(s3), 1_003).expect("height");
    store.set_roots([Slot(s3)]).expect("root");
    let replaced = s.same("block replaced");
    assert_eq!(
        field(&replaced, s3, "blockhash"),
        json!(g.blockhash.to_string())
    );
    assert_ne!(
        field(&replaced, s3, "blockhash"),
        field(&dead, s3, "blockhash")
    );
}
