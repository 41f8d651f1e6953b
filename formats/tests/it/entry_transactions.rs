//! Firedancer's 14 real serialized transactions (raw bytes, one transaction per file; mainnet
//! legacy and v0 with lookup tables, a vote, a hand-crafted max-size v0) decode, owned and
//! as views, to the facts in `firedancer/expected.json`, and re-encode byte for byte.

use crate::common;

use bstore_formats::entry::{
    TransactionView, TxVersion, VersionedTransaction, decode_transaction, encode_transaction_into,
};
use bstore_formats::{Hash, Pubkey, Signature};
use serde_json::Value;

fn as_usize(v: &Value) -> usize {
    let n = v
        .as_u64()
        .unwrap_or_else(|| panic!("expected a number, got {v}"));
    usize::try_from(n).expect("fits in usize")
}

fn as_u8s(v: &Value) -> Vec<u8> {
    v.as_array()
        .unwrap_or_else(|| panic!("expected an array, got {v}"))
        .iter()
        .map(|x| u8::try_from(as_usize(x)).expect("byte value"))
        .collect()
}

fn as_strs(v: &Value) -> Vec<&str> {
    v.as_array()
        .unwrap_or_else(|| panic!("expected an array, got {v}"))
        .iter()
        .map(|x| x.as_str().expect("string"))
        .collect()
}

fn hex(s: &str) -> Vec<u8> {
    assert!(s.len().is_multiple_of(2), "odd hex length");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex digit"))
        .collect()
}

fn check_owned(name: &str, tx: &VersionedTransaction, x: &Value) {
    let version = match &x["version"] {
        Value::String(s) if s == "legacy" => TxVersion::Legacy,
        Value::Number(n) if n.as_u64() == Some(0) => TxVersion::V0,
        other => panic!("{name}: unexpected version {other}"),
    };
    assert_eq!(tx.version(), version, "{name}: version");
    let h = tx.message.header();
    let header = [
        h.num_required_signatures,
        h.num_readonly_signed_accounts,
        h.num_readonly_unsigned_accounts,
    ];
    assert_eq!(header.to_vec(), as_u8s(&x["header"]), "{name}: header");
    let sigs: Vec<Signature> = as_strs(&x["signatures"])
        .iter()
        .map(|s| s.parse().expect("base58 signature"))
        .collect();
    assert_eq!(tx.signatures, sigs, "{name}: signatures");
    let keys: Vec<Pubkey> = as_strs(&x["account_keys"])
        .iter()
        .map(|s| s.parse().expect("base58 key"))
        .collect();
    assert_eq!(tx.message.account_keys(), keys, "{name}: account keys");
    let blockhash: Hash = x["recent_blockhash"]
        .as_str()
        .expect("blockhash")
        .parse()
        .expect("base58");
    assert_eq!(
        *tx.message.recent_blockhash(),
        blockhash,
        "{name}: blockhash"
    );
    let ixs = x["instructions"].as_array().expect("instructions");
    assert_eq!(
        tx.message.instructions().len(),
        ixs.len(),
        "{name}: instruction count"
    );
    for (i, (ix, want)) in tx.message.instructions().iter().zip(ixs).enumerate() {
        assert_eq!(
            usize::from(ix.program_id_index),
            as_usize(&want["program_id_index"]),
            "{name}: ix {i}"
        );
        assert_eq!(
            ix.accounts,
            as_u8s(&want["accounts"]),
            "{name}: ix {i} accounts"
        );
        assert_eq!(
            ix.data,
            hex(want["data_hex"].as_str().expect("hex")),
            "{name}: ix {i} data"
        );
    }
    let luts = x["address_table_lookups"].as_array().expect("lookups");
    let got = tx.message.address_table_lookups();
    assert_eq!(got.len(), luts.len(), "{name}: lookup count");
    for (l, want) in got.iter().zip(luts) {
        let key: Pubkey = want["account_key"]
            .as_str()
            .expect("key")
            .parse()
            .expect("base58");
        assert_eq!(l.account_key, key, "{name}: lookup key");
        assert_eq!(
            l.writable_indexes,
            as_u8s(&want["writable_indexes"]),
            "{name}"
        );
        assert_eq!(
            l.readonly_indexes,
            as_u8s(&want["readonly_indexes"]),
            "{name}"
        );
    }
}

/// The view reports the same facts as the owned decode.
fn check_view(name: &str, view: &TransactionView<'_>, tx: &VersionedTransaction) {
    assert_eq!(view.version(), tx.version(), "{name}");
    assert_eq!(view.num_signatures(), tx.signatures.len(), "{name}");
    let sigs: Vec<&[u8; 64]> = view.signatures().collect();
    let want: Vec<&[u8; 64]> = tx.signatures.iter().map(|s| &s.0).collect();
    assert_eq!(sigs, want, "{name}: view signatures");
    assert_eq!(
        view.signature(tx.signatures.len()),
        None,
        "{name}: past the last signature"
    );
    let msg = view.message();
    assert_eq!(msg.header(), *tx.message.header(), "{name}");
    let keys: Vec<&[u8; 32]> = msg.account_keys().collect();
    let want: Vec<&[u8; 32]> = tx.message.account_keys().iter().map(|k| &k.0).collect();
    assert_eq!(keys, want, "{name}: view keys");
    assert_eq!(
        msg.recent_blockhash(),
        &tx.message.recent_blockhash().0,
        "{name}"
    );
    let ixs: Vec<(u8, Vec<u8>, Vec<u8>)> = msg
        .instructions()
        .map(|ix| (ix.program_id_index, ix.accounts.to_vec(), ix.data.to_vec()))
        .collect();
    let want: Vec<(u8, Vec<u8>, Vec<u8>)> = tx
        .message
        .instructions()
        .iter()
        .map(|ix| (ix.program_id_index, ix.accounts.clone(), ix.data.clone()))
        .collect();
    assert_eq!(ixs, want, "{name}: view instructions");
    let programs: Vec<Option<&[u8; 32]>> = msg.program_ids().collect();
    let want: Vec<Option<&[u8; 32]>> = tx
        .message
        .instructions()
        .iter()
        .map(|ix| tx.message.program_id(ix).map(|k| &k.0))
        .collect();
    assert_eq!(programs, want, "{name}: program ids");
    let luts: Vec<(&[u8; 32], &[u8], &[u8])> = msg
        .address_table_lookups()
        .map(|l| (l.account_key, l.writable_indexes, l.readonly_indexes))
        .collect();
    let want: Vec<(&[u8; 32], &[u8], &[u8])> = tx
        .message
        .address_table_lookups()
        .iter()
        .map(|l| {
            (
                &l.account_key.0,
                &l.writable_indexes[..],
                &l.readonly_indexes[..],
            )
        })
        .collect();
    assert_eq!(luts, want, "{name}: view lookups");
}

#[test]
fn firedancer_transactions_decode_to_upstream_facts() {
    let j = common::json("firedancer/expected.json");
    let txs = j["items"]["transactions"]
        .as_object()
        .expect("transactions");
    let dir = common::path("firedancer/transactions");
    let files = std::fs::read_dir(&dir)
        .expect("transactions folder")
        .count();
    assert_eq!(files, txs.len(), "every transaction file has expectations");
    for (name, x) in txs {
        let bytes = std::fs::read(dir.join(name)).expect("readable transaction");
        assert_eq!(
            bytes.len(),
            as_usize(&x["bytes"]),
            "{name}: file is the raw transaction"
        );
        let (tx, used) = decode_transaction(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(used, as_usize(&x["consumed"]), "{name}: consumed");
        check_owned(name, &tx, x);
        let (view, view_used) = TransactionView::parse(&bytes).expect("view parses");
        assert_eq!(view_used, used, "{name}: view consumed");
        assert_eq!(view.bytes(), &bytes[..used], "{name}");
        check_view(name, &view, &tx);
        let mut again = Vec::new();
        encode_transaction_into(&tx, &mut again);
        assert_eq!(again, &bytes[..used], "{name}: re-encode");
    }
}

/// transaction2: a mainnet v0 swap; upstream counts 12 writable and 21 total accounts loaded
/// from its 3 lookup tables, and instruction 1 (program 5) with 39 accounts, 38 data bytes.
#[test]
fn transaction2_lookup_table_totals() {
    let bytes =
        std::fs::read(common::path("firedancer/transactions/transaction2.bin")).expect("read");
    let (view, _) = TransactionView::parse(&bytes).expect("parses");
    let msg = view.message();
    assert_eq!(msg.num_lookups(), 3);
    let writable: usize = msg
        .address_table_lookups()
        .map(|l| l.writable_indexes.len())
        .sum();
    let total: usize = msg
        .address_table_lookups()
        .map(|l| l.writable_indexes.len() + l.readonly_indexes.len())
        .sum();
    assert_eq!((writable, total), (12, 21));
    let ix1 = msg.instructions().nth(1).expect("two instructions");
    assert_eq!(
        (ix1.program_id_index, ix1.accounts.len(), ix1.data.len()),
        (5, 39, 38)
    );
}

/// transaction3: hand-crafted maximum-size v0 transaction (1,200 bytes, 64 instructions,
/// 24 lookup tables) parses completely.
#[test]
fn transaction3_max_size_v0_parses() {
    let j = common::json("firedancer/expected.json");
    let x = &j["items"]["transactions"]["transaction3.bin"];
    let bytes =
        std::fs::read(common::path("firedancer/transactions/transaction3.bin")).expect("read");
    let (view, used) = TransactionView::parse(&bytes).expect("parses");
    assert_eq!(used, bytes.len());
    let msg = view.message();
    assert_eq!(msg.version(), TxVersion::V0);
    assert_eq!(
        msg.num_instructions(),
        x["instructions"].as_array().expect("ixs").len()
    );
    assert_eq!(msg.num_instructions(), 64);
    assert_eq!(
        msg.num_lookups(),
        x["address_table_lookups"].as_array().expect("luts").len()
    );
    assert_eq!(msg.num_lookups(), 24);
    // Every byte counts: one byte less is an error, never a panic.
    assert!(TransactionView::parse(&bytes[..bytes.len() - 1]).is_err());
    assert!(decode_transaction(&bytes[..bytes.len() - 1]).is_err());
}
