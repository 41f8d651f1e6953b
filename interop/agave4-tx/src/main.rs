//! Writes deterministic transaction vectors made by Agave 4.x's own crates
//! (`solana-message` 5.1.0 and `solana-transaction` 5.1.0, the versions Agave 4.4's
//! `solana-transaction-status` 4.4.0 builds with; their v1 wire format is 4.4.1's / 4.1.6's):
//! v1 (SIMD-0385) transactions with and without config values and with several signers,
//! plus a legacy and a v0 one. For each: the wire bytes (Agave's wincode serializer), the
//! decoded fields, where the message and the signatures lie, and Agave's RPC encodings of
//! the transaction (json, jsonParsed, base58, base64, the `accounts` list, and the verdict
//! of the `maxSupportedTransactionVersion` check for none, 0 and 1), and Agave's
//! accept/refuse verdict on every single-byte change and every cut of the bytes.
//!
//! Usage: `agave4-tx <output.json>`. Keys come from fixed seeds and ed25519 signing is
//! deterministic, so the output is identical on every run.

use std::str::FromStr;

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use serde_json::{Value, json};
use solana_address::Address;
use solana_hash::Hash;
use solana_instruction::{AccountMeta, Instruction};
use solana_keypair::Keypair;
use solana_message::compiled_instruction::CompiledInstruction;
use solana_message::v0::MessageAddressTableLookup;
use solana_message::v1::TransactionConfig;
use solana_message::{Message as LegacyMessage, MessageHeader, VersionedMessage, v0, v1};
use solana_signer::Signer;
use solana_transaction::versioned::VersionedTransaction;
use solana_transaction_status::parse_accounts::{
    parse_legacy_message_accounts, parse_v1_message_accounts,
};
use solana_transaction_status::{
    EncodableWithMeta, TransactionStatusMeta, UiTransactionEncoding,
    VersionedTransactionWithStatusMeta,
};
use solana_transaction_status_client_types::UiAccountsList;

const SYSTEM: &str = "11111111111111111111111111111111";
const MEMO: &str = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr";
const COMPUTE_BUDGET: &str = "ComputeBudget111111111111111111111111111111";

fn addr(s: &str) -> Address {
    Address::from_str(s).expect("a valid base58 address constant")
}

fn keypair(seed: u8) -> Keypair {
    Keypair::new_from_array([seed; 32])
}

fn key(seed: u8) -> Address {
    keypair(seed).pubkey()
}

fn blockhash(seed: u8) -> Hash {
    Hash::new_from_array([seed; 32])
}

/// System program `Transfer { lamports }` (bincode: u32 tag 2, u64 lamports).
fn transfer(from: Address, to: Address, lamports: u64) -> Instruction {
    let mut data = 2u32.to_le_bytes().to_vec();
    data.extend_from_slice(&lamports.to_le_bytes());
    Instruction::new_with_bytes(
        addr(SYSTEM),
        &data,
        vec![AccountMeta::new(from, true), AccountMeta::new(to, false)],
    )
}

fn memo(text: &[u8], signer: Address) -> Instruction {
    Instruction::new_with_bytes(
        addr(MEMO),
        text,
        vec![AccountMeta::new_readonly(signer, true)],
    )
}

fn sign(message: VersionedMessage, signers: &[&Keypair]) -> VersionedTransaction {
    VersionedTransaction::try_new(message, signers).expect("signers match the message")
}

fn cases() -> Vec<(&'static str, &'static str, VersionedTransaction)> {
    let (a, b, c) = (keypair(1), keypair(2), keypair(3));
    let mut out = Vec::new();

    let legacy = LegacyMessage::new_with_blockhash(
        &[transfer(a.pubkey(), key(10), 5_000)],
        Some(&a.pubkey()),
        &blockhash(7),
    );
    out.push((
        "legacy_transfer",
        "legacy message, one signer, a system transfer",
        sign(VersionedMessage::Legacy(legacy), &[&a]),
    ));

    let v0 = v0::Message {
        header: MessageHeader {
            num_required_signatures: 1,
            num_readonly_signed_accounts: 0,
            num_readonly_unsigned_accounts: 1,
        },
        account_keys: vec![a.pubkey(), key(11), addr(MEMO)],
        recent_blockhash: blockhash(8),
        instructions: vec![CompiledInstruction::new_from_raw_parts(
            2,
            b"v0 memo".to_vec(),
            vec![0, 1, 3],
        )],
        address_table_lookups: vec![MessageAddressTableLookup {
            account_key: key(12),
            writable_indexes: vec![0, 2],
            readonly_indexes: vec![1],
        }],
    };
    out.push((
        "v0_lookup",
        "v0 message with one address table lookup",
        sign(VersionedMessage::V0(v0), &[&a]),
    ));

    let minimal = v1::Message::try_compile_with_config(
        &a.pubkey(),
        &[transfer(a.pubkey(), key(10), 1)],
        blockhash(9),
        TransactionConfig::empty(),
    )
    .expect("compiles");
    out.push((
        "v1_minimal",
        "v1, one signer, no config values, one system transfer",
        sign(VersionedMessage::V1(minimal), &[&a]),
    ));

    let full = v1::Message::try_compile_with_config(
        &a.pubkey(),
        &[
            transfer(a.pubkey(), key(10), 42),
            memo(b"hello v1", b.pubkey()),
        ],
        blockhash(10),
        TransactionConfig::empty()
            .with_priority_fee(123_456_789_012)
            .with_compute_unit_limit(200_000)
            .with_loaded_accounts_data_size_limit(65_536)
            .with_heap_size(64 * 1024),
    )
    .expect("compiles");
    out.push((
        "v1_all_config_two_signers",
        "v1, every config value, a writable payer and a read-only signer, two instructions",
        sign(VersionedMessage::V1(full), &[&a, &b]),
    ));

    let cu = v1::Message::try_compile_with_config(
        &b.pubkey(),
        &[memo(b"compute only", b.pubkey())],
        blockhash(11),
        TransactionConfig::empty()
            .with_compute_unit_limit(1_400_000)
            .with_heap_size(256 * 1024),
    )
    .expect("compiles");
    out.push((
        "v1_cu_and_heap",
        "v1, compute unit limit and heap size only (mask 0b10100)",
        sign(VersionedMessage::V1(cu), &[&b]),
    ));

    let fee = v1::Message::try_compile_with_config(
        &c.pubkey(),
        &[transfer(c.pubkey(), key(13), 7)],
        blockhash(12),
        TransactionConfig::empty().with_priority_fee(u64::MAX),
    )
    .expect("compiles");
    out.push((
        "v1_priority_fee_only",
        "v1, priority fee only (mask 0b11), u64::MAX",
        sign(VersionedMessage::V1(fee), &[&c]),
    ));

    // Three signers, several instructions, one with 1,500 data bytes: the transaction is
    // larger than a legacy packet (1,232 bytes), which only v1 allows.
    let big = v1::Message::try_compile_with_config(
        &a.pubkey(),
        &[
            transfer(a.pubkey(), key(14), 1_000),
            transfer(c.pubkey(), key(15), 2_000),
            memo(&[b'x'; 1500], b.pubkey()),
            Instruction::new_with_bytes(
                addr(COMPUTE_BUDGET),
                &[],
                vec![AccountMeta::new_readonly(key(16), false)],
            ),
        ],
        blockhash(13),
        TransactionConfig::empty().with_loaded_accounts_data_size_limit(1),
    )
    .expect("compiles");
    out.push((
        "v1_three_signers_large",
        "v1, three signers, four instructions, 1,500 bytes of memo data (over 1,232 bytes)",
        sign(VersionedMessage::V1(big), &[&a, &b, &c]),
    ));

    // Hand-laid message: zero instructions and a header with read-only unsigned keys.
    let bare = v1::Message::new(
        MessageHeader {
            num_required_signatures: 2,
            num_readonly_signed_accounts: 1,
            num_readonly_unsigned_accounts: 1,
        },
        TransactionConfig::empty().with_compute_unit_limit(0),
        blockhash(14),
        vec![b.pubkey(), c.pubkey(), key(17), addr(SYSTEM)],
        vec![],
    );
    out.push((
        "v1_no_instructions",
        "v1, two signers (one read-only), no instructions, compute unit limit 0",
        sign(VersionedMessage::V1(bare), &[&b, &c]),
    ));
    out
}

fn version_json(tx: &VersionedTransaction) -> Value {
    match tx.message {
        VersionedMessage::Legacy(_) => json!("legacy"),
        VersionedMessage::V0(_) => json!(0),
        VersionedMessage::V1(_) => json!(1),
    }
}

fn config_json(message: &VersionedMessage) -> Value {
    match message {
        VersionedMessage::V1(m) => json!({
            "mask": v1::TransactionConfigMask::from(&m.config).0,
            "priority_fee": m.config.priority_fee,
            "compute_unit_limit": m.config.compute_unit_limit,
            "loaded_accounts_data_size_limit": m.config.loaded_accounts_data_size_limit,
            "heap_size": m.config.heap_size,
        }),
        _ => Value::Null,
    }
}

fn fields(tx: &VersionedTransaction, bytes: &[u8]) -> Value {
    let m = &tx.message;
    let h = m.header();
    let message_bytes = m.serialize();
    // Where the message and the signatures lie in the wire bytes.
    let (message_offset, signatures_offset) = match m {
        VersionedMessage::V1(_) => (0, message_bytes.len()),
        _ => (bytes.len() - message_bytes.len(), 1),
    };
    let lookups: Vec<Value> = m
        .address_table_lookups()
        .unwrap_or_default()
        .iter()
        .map(|l| {
            json!({
                "account_key": l.account_key.to_string(),
                "writable_indexes": l.writable_indexes,
                "readonly_indexes": l.readonly_indexes,
            })
        })
        .collect();
    json!({
        "signatures": tx.signatures.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "header": [h.num_required_signatures, h.num_readonly_signed_accounts,
                   h.num_readonly_unsigned_accounts],
        "account_keys": m.static_account_keys().iter().map(ToString::to_string).collect::<Vec<_>>(),
        "recent_blockhash": m.recent_blockhash().to_string(),
        "instructions": m.instructions().iter().map(|ix| json!({
            "program_id_index": ix.program_id_index,
            "accounts": ix.accounts,
            "data": B64.encode(&ix.data),
        })).collect::<Vec<_>>(),
        "address_table_lookups": lookups,
        "config": config_json(m),
        "message_base64": B64.encode(&message_bytes),
        "message_offset": message_offset,
        "signatures_offset": signatures_offset,
        "signatures_verify": tx.verify_and_hash_message().is_ok(),
    })
}

fn rpc_json(tx: &VersionedTransaction) -> Value {
    let meta = TransactionStatusMeta::default();
    let enc = |e| serde_json::to_value(tx.encode_with_meta(e, &meta)).expect("serializes");
    let accounts = match &tx.message {
        VersionedMessage::Legacy(m) => parse_legacy_message_accounts(m),
        VersionedMessage::V1(m) => parse_v1_message_accounts(m),
        // A v0 list needs the loaded addresses; bstore's own tests cover it.
        VersionedMessage::V0(_) => vec![],
    };
    let accounts = UiAccountsList {
        signatures: tx.signatures.iter().map(ToString::to_string).collect(),
        account_keys: accounts,
    };
    let check = |max: Option<u8>| {
        let with_meta = VersionedTransactionWithStatusMeta {
            transaction: tx.clone(),
            meta: TransactionStatusMeta::default(),
        };
        match with_meta.encode(UiTransactionEncoding::Json, max, false) {
            Ok(e) => json!({ "ok": e.version }),
            Err(e) => json!({ "err": e.to_string() }),
        }
    };
    json!({
        "json": enc(UiTransactionEncoding::Json),
        "jsonParsed": enc(UiTransactionEncoding::JsonParsed),
        "base58": enc(UiTransactionEncoding::Base58),
        "base64": enc(UiTransactionEncoding::Base64),
        "accounts": if matches!(tx.message, VersionedMessage::V0(_)) {
            Value::Null
        } else {
            serde_json::to_value(accounts).expect("serializes")
        },
        "max_supported_version": {
            "none": check(None),
            "0": check(Some(0)),
            "1": check(Some(1)),
        },
    })
}

/// Agave's verdict on every single-byte change and every cut of `bytes`, for the
/// differential test: for byte `i` set to each of 0x00, 0xff, `b ^ 1` and 0x81 (in that
/// order), `verdicts` holds one character: `x` refused, `a` read consuming every byte, `s`
/// read consuming fewer (listed in `short` as `[i, k, consumed]`). `cuts` holds one
/// character per prefix length `0..len`, with the same letters.
fn mutations(bytes: &[u8]) -> Value {
    let verdict = |b: &[u8]| -> (char, usize) {
        match wincode::deserialize::<VersionedTransaction>(b) {
            Err(_) => ('x', 0),
            Ok(tx) => {
                let used = wincode::serialize(&tx).expect("serializes").len();
                (if used == b.len() { 'a' } else { 's' }, used)
            }
        }
    };
    let mut verdicts = String::with_capacity(bytes.len() * 4);
    let mut short = Vec::new();
    for i in 0..bytes.len() {
        for (k, value) in [0x00, 0xff, bytes[i] ^ 1, 0x81].into_iter().enumerate() {
            let mut m = bytes.to_vec();
            m[i] = value;
            let (c, used) = verdict(&m);
            verdicts.push(c);
            if c == 's' {
                short.push(json!([i, k, used]));
            }
        }
    }
    let cuts: String = (0..bytes.len()).map(|n| verdict(&bytes[..n]).0).collect();
    json!({ "verdicts": verdicts, "short": short, "cuts": cuts })
}

fn main() {
    let out_path = std::env::args().nth(1).expect("usage: agave4-tx <output.json>");
    let vectors: Vec<Value> = cases()
        .into_iter()
        .map(|(name, about, tx)| {
            let bytes = wincode::serialize(&tx).expect("serializes");
            let back: VersionedTransaction = wincode::deserialize(&bytes).expect("round trip");
            assert_eq!(back, tx, "{name}: wincode round trip");
            tx.sanitize().expect("a valid transaction");
            json!({
                "name": name,
                "about": about,
                "version": version_json(&tx),
                "base64": B64.encode(&bytes),
                "len": bytes.len(),
                "fields": fields(&tx, &bytes),
                "rpc": rpc_json(&tx),
                "mutations": mutations(&bytes),
            })
        })
        .collect();
    let doc = json!({
        "source": "interop/agave4-tx: solana-message 5.1.0, solana-transaction 5.1.0 (the versions solana-transaction-status 4.4.0 builds with), \
                   solana-transaction-status 4.4.0 (wincode wire format)",
        "vectors": vectors,
    });
    let text = serde_json::to_string_pretty(&doc).expect("serializes") + "\n";
    std::fs::write(&out_path, text).expect("writes the output file");
}
