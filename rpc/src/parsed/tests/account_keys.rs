//! Agave's `parse_accounts.rs` tests, transcribed, and the loaded-address rules of
//! `LoadedMessage` (reserved keys, the upgradeable loader found only in a lookup table).

use bstore_ledger::entry::{
    AddressTableLookup, CompiledInstruction, LegacyMessage, MessageHeader, TransactionView,
    V0Message, VersionedMessage, VersionedTransaction, encode_transaction_into,
};
use bstore_ledger::{Hash, Pubkey, Signature};
use serde_json::{Value, json};

use super::parsed_account_keys;
use crate::parsed::ids::BPF_UPGRADEABLE_LOADER;
use crate::parsed::tests::{key, s};

const HEADER: MessageHeader = MessageHeader {
    num_required_signatures: 2,
    num_readonly_signed_accounts: 1,
    num_readonly_unsigned_accounts: 1,
};

/// Encodes `message` into a transaction and returns its parsed account keys.
fn keys_of(message: VersionedMessage, writable: &[[u8; 32]], readonly: &[[u8; 32]]) -> Value {
    let signatures = match &message {
        VersionedMessage::Legacy(m) => m.header.num_required_signatures,
        VersionedMessage::V0(m) => m.header.num_required_signatures,
    };
    let tx = VersionedTransaction {
        signatures: vec![Signature([1; 64]); usize::from(signatures)],
        message,
    };
    let mut bytes = Vec::new();
    encode_transaction_into(&tx, &mut bytes);
    let (view, _) = TransactionView::parse(&bytes).expect("valid transaction");
    parsed_account_keys(&view.message(), writable, readonly)
}

fn entry(k: &[u8; 32], writable: bool, signer: bool, source: &str) -> Value {
    json!({"pubkey": s(k), "writable": writable, "signer": signer, "source": source})
}

fn v0(keys: Vec<[u8; 32]>, header: MessageHeader, program: Option<u8>) -> VersionedMessage {
    VersionedMessage::V0(V0Message {
        header,
        account_keys: keys.into_iter().map(Pubkey).collect(),
        recent_blockhash: Hash::default(),
        instructions: program
            .map(|p| CompiledInstruction {
                program_id_index: p,
                accounts: vec![0],
                data: vec![],
            })
            .into_iter()
            .collect(),
        address_table_lookups: vec![AddressTableLookup {
            account_key: Pubkey(key(99)),
            writable_indexes: vec![0],
            readonly_indexes: vec![1],
        }],
    })
}

#[test]
fn legacy_message_accounts() {
    let k = [key(0), key(1), key(2), key(3)];
    let message = VersionedMessage::Legacy(LegacyMessage {
        header: HEADER,
        account_keys: k.iter().copied().map(Pubkey).collect(),
        recent_blockhash: Hash::default(),
        instructions: vec![],
    });
    assert_eq!(
        keys_of(message, &[], &[]),
        json!([
            entry(&k[0], true, true, "transaction"),
            entry(&k[1], false, true, "transaction"),
            entry(&k[2], true, false, "transaction"),
            entry(&k[3], false, false, "transaction"),
        ])
    );
}

#[test]
fn v0_message_accounts() {
    let k: Vec<[u8; 32]> = (0..6).map(key).collect();
    let message = v0(k[..4].to_vec(), HEADER, None);
    assert_eq!(
        keys_of(message, &[k[4]], &[k[5]]),
        json!([
            entry(&k[0], true, true, "transaction"),
            entry(&k[1], false, true, "transaction"),
            entry(&k[2], true, false, "transaction"),
            entry(&k[3], false, false, "transaction"),
            entry(&k[4], true, false, "lookupTable"),
            entry(&k[5], false, false, "lookupTable"),
        ])
    );
}

#[test]
fn a_reserved_key_loaded_as_writable_is_not_writable() {
    let mut clock = [0u8; 32];
    bs58::decode("SysvarC1ock11111111111111111111111111111111")
        .onto(&mut clock[..])
        .expect("clock id");
    let k: Vec<[u8; 32]> = (0..4).map(key).collect();
    let out = keys_of(v0(k, HEADER, None), &[clock, key(7)], &[]);
    assert_eq!(out[4], entry(&clock, false, false, "lookupTable"));
    assert_eq!(out[5], entry(&key(7), true, false, "lookupTable"));
}

#[test]
fn the_upgradeable_loader_in_a_lookup_table_keeps_an_invoked_key_writable() {
    // One signer; key 1 is writable by position and invoked as a program.
    let header = MessageHeader {
        num_required_signatures: 1,
        num_readonly_signed_accounts: 0,
        num_readonly_unsigned_accounts: 0,
    };
    let k = vec![key(0), key(1)];
    // Without the loader anywhere: demoted.
    let out = keys_of(v0(k.clone(), header, Some(1)), &[key(5)], &[key(6)]);
    assert_eq!(out[1], entry(&k[1], false, false, "transaction"));
    // With the loader among the loaded readonly addresses: writable, as in Agave.
    let out = keys_of(
        v0(k.clone(), header, Some(1)),
        &[key(5)],
        &[BPF_UPGRADEABLE_LOADER],
    );
    assert_eq!(out[1], entry(&k[1], true, false, "transaction"));
    assert_eq!(
        out[3],
        entry(&BPF_UPGRADEABLE_LOADER, false, false, "lookupTable")
    );
    // A reserved key invoked as a program stays readonly regardless.
    let mut vote = [0u8; 32];
    bs58::decode("Vote111111111111111111111111111111111111111")
        .onto(&mut vote[..])
        .expect("vote id");
    let out = keys_of(
        v0(vec![key(0), vote], header, Some(1)),
        &[],
        &[BPF_UPGRADEABLE_LOADER],
    );
    assert_eq!(out[1], entry(&vote, false, false, "transaction"));
}
