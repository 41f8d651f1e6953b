//! The ledger `history` writes, read back through the RPC emulation, against the plan it
//! was written from: what a user of FILE.json relies on (every planned transaction found
//! where it was put, in order; the gaps answered as Agave answers them).

use serde_json::Value;
use solana_signer::Signer;
use solana_transaction_status::{BlockEncodingOptions, TransactionDetails, UiTransactionEncoding};

use super::keys::Keys;
use super::plan::PlannedSlot;
use super::rpc::{Rpc, SignaturesConfig};
use super::{ledger, scenario};
use crate::open::{self, Access};

fn written(seed: u64) -> (tempfile::TempDir, Keys, Vec<PlannedSlot>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let keys = Keys::new(seed);
    let slots = scenario::plan(&keys).expect("plan");
    ledger::write(dir.path(), &keys, &slots).expect("write the ledger");
    (dir, keys, slots)
}

fn full(version: Option<u8>) -> BlockEncodingOptions {
    BlockEncodingOptions {
        transaction_details: TransactionDetails::Full,
        show_rewards: true,
        max_supported_transaction_version: version,
    }
}

#[test]
fn every_transaction_is_found_where_it_was_put() {
    let (dir, _keys, slots) = written(3);
    let blockstore = open::blockstore(dir.path(), Access::Primary).expect("open");
    let rpc = Rpc::new(&blockstore);
    let first_available = blockstore.get_first_available_block().expect("first block");
    assert_eq!(
        rpc.root(),
        slots.iter().map(|s| s.slot).max().unwrap_or_default()
    );
    for planned in &slots {
        // Below the first available block, nothing is found.
        let visible = planned.slot >= first_available;
        for tx in &planned.txs {
            let found = rpc
                .get_transaction(tx.signature(), UiTransactionEncoding::Base64, Some(0))
                .expect("get_transaction")
                .expect("no RPC error");
            let slot = found.get("slot").and_then(Value::as_u64);
            let expected = (visible && tx.meta.is_some()).then_some(planned.slot);
            assert_eq!(slot, expected, "{}", tx.signature());
        }
        if !visible {
            continue;
        }
        let block = rpc
            .get_block(planned.slot, UiTransactionEncoding::Json, full(Some(0)))
            .expect("get_block")
            .expect("no RPC error");
        // A block with a transaction lacking its status is `null`.
        let complete = planned.txs.iter().all(|t| t.meta.is_some());
        let count = block
            .get("transactions")
            .and_then(Value::as_array)
            .map(Vec::len);
        assert_eq!(
            count,
            complete.then_some(planned.txs.len()),
            "slot {}",
            planned.slot
        );
    }
}

#[test]
fn v0_transactions_need_max_supported_version() {
    let (dir, _keys, slots) = written(4);
    let blockstore = open::blockstore(dir.path(), Access::Primary).expect("open");
    let rpc = Rpc::new(&blockstore);
    let first_available = blockstore.get_first_available_block().expect("first block");
    for planned in slots.iter().filter(|s| s.slot >= first_available) {
        if planned.txs.iter().any(|t| t.meta.is_none()) {
            continue;
        }
        let has_v0 = planned
            .txs
            .iter()
            .any(|t| !t.loaded.writable.is_empty() || !t.loaded.readonly.is_empty());
        let answer = rpc
            .get_block(planned.slot, UiTransactionEncoding::Json, full(None))
            .expect("get_block");
        let code = answer.err().map(|e| e.code.code());
        assert_eq!(code, has_v0.then_some(-32015), "slot {}", planned.slot);
    }
}

#[test]
fn address_history_is_newest_first_from_the_first_available_block() {
    let (dir, keys, slots) = written(5);
    let blockstore = open::blockstore(dir.path(), Access::Primary).expect("open");
    let rpc = Rpc::new(&blockstore);
    let first_available = blockstore.get_first_available_block().expect("first block");
    for address in [
        keys.payer.pubkey(),
        keys.table_address(0),
        keys.mint22,
        keys.nobody,
    ] {
        let mut expected: Vec<String> = Vec::new();
        for planned in slots.iter().filter(|s| s.slot >= first_available) {
            for tx in planned.txs.iter().filter(|t| t.meta.is_some()) {
                if tx.account_keys().contains(&address) {
                    expected.push(tx.signature().to_string());
                }
            }
        }
        expected.reverse();
        let listed: Vec<String> = rpc
            .get_signatures_for_address(address, SignaturesConfig::default())
            .expect("no RPC error")
            .into_iter()
            .map(|item| item.signature)
            .collect();
        assert_eq!(listed, expected, "{address}");
    }
}
