//! getBlock and `FetchedBlock` read blocks through the ledger's one block reader
//! (`bstore_ledger::fetch::BlockReader`), so they answer alike where their copies used to
//! differ: a parent whose meta does not decode gives the default `previousBlockhash` (as
//! Agave's blockstore, which ignores every error reading the parent) instead of an internal
//! error, and a purged slot is "cleaned up" (-32001) from both.

use bstore_ledger::Hash;
use bstore_ledger::Slot;
use bstore_ledger::fetch::FetchBuffer;
use bstore_ledger::store::columns::Meta;
use bstore_ledger::store::{AccessMode, Blockstore};
use bstore_rpc::params::BlockConfig;
use bstore_rpc::{FetchedBlock, RpcConfig, RpcError, code};
use serde_json::json;

use crate::common::{SYNTH_FIRST, TestServer};

#[test]
fn a_parent_whose_meta_does_not_decode_gives_the_default_previous_blockhash() {
    let t = TestServer::start(RpcConfig::default());
    let (parent, child) = (SYNTH_FIRST, SYNTH_FIRST + 1);
    let expected = t.ledger.block(child).clone();
    let cfg = json!({"transactionDetails": "none", "maxSupportedTransactionVersion": 0});
    assert_eq!(
        t.result("getBlock", json!([child, cfg]))["previousBlockhash"],
        json!(expected.previous_blockhash),
        "before the damage: the parent's blockhash"
    );
    let store = &t.ledger.store;
    let mut batch = store.row_batch().expect("writable");
    batch.put_bytes::<Meta>(Slot(parent), &[7; 5]).expect("put");
    store.write_rows(batch).expect("write");

    let block = t.result("getBlock", json!([child, cfg]));
    assert_eq!(
        block["previousBlockhash"],
        json!(Hash::default().to_string())
    );
    assert_eq!(block["blockhash"], json!(expected.blockhash));
    let mut buf = FetchBuffer::new();
    let fetched = FetchedBlock::fetch(store, Slot(child), &mut buf).expect("fetches");
    let text = fetched
        .encode(&BlockConfig::from_param(Some(&cfg)).expect("config"))
        .expect("encodes");
    let local: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(local["previousBlockhash"], block["previousBlockhash"]);
}

#[test]
fn a_purged_slot_is_cleaned_up_for_fetched_block_too() {
    let t = TestServer::start(RpcConfig::default());
    let slot = Slot(SYNTH_FIRST + 2);
    let store = &t.ledger.store;
    let mut buf = FetchBuffer::new();
    assert!(FetchedBlock::fetch(store, slot, &mut buf).is_ok());
    store.purge_slots(slot, slot).expect("purge");
    let err = FetchedBlock::fetch(store, slot, &mut buf).expect_err("purged");
    assert!(
        matches!(err, RpcError::BlockCleanedUp { slot: s, .. } if s == slot),
        "{err:?}"
    );
    assert_eq!(err.code(), code::BLOCK_CLEANED_UP);
}

/// A slot purged by the writer, seen from another process's store (which never saw the
/// purge, only its result): cleaned up (-32001) below the first available block, as
/// getBlock answers, not "not available".
#[test]
fn a_slot_purged_by_another_process_is_cleaned_up_for_fetched_block() {
    let t = TestServer::start(RpcConfig::default());
    // Everything up to the slot goes; roots S1 and S2 stay, so the first available block
    // is S2 (a first root's block lacks its parent's blockhash).
    let slot = Slot(SYNTH_FIRST);
    t.ledger.store.purge_slots(Slot(0), slot).expect("purge");
    let reader = Blockstore::open(t.ledger.dir.path(), AccessMode::ReadOnly).expect("read-only");
    let mut buf = FetchBuffer::new();
    let err = FetchedBlock::fetch(&reader, slot, &mut buf).expect_err("purged");
    assert!(
        matches!(err, RpcError::BlockCleanedUp { slot: s, .. } if s == slot),
        "{err:?}"
    );
    // A slot above the ledger's end is still only "not available".
    let err = FetchedBlock::fetch(&reader, Slot(u64::MAX - 1), &mut buf).expect_err("absent");
    assert!(matches!(err, RpcError::BlockNotAvailable { .. }), "{err:?}");
}
