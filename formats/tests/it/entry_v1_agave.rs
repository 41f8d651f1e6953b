//! Transactions made by Agave 4's own crates (`interop/agave4-tx`, committed in
//! `testdata/agave4/v1_transactions.json`): v1 with and without config values and with one
//! to three signers, a legacy and a v0 one. Each decodes, owned and as a view, to every
//! field Agave recorded, re-encodes to the same bytes, and its signatures verify over the
//! message bytes the view locates. Entries mixing all of them decode both ways.

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use bstore_formats::entry::{
    EntriesView, Entry, TransactionView, TxVersion, VersionedMessage, VersionedTransaction,
    decode_entries, decode_transaction, encode_entries, encode_transaction_into,
    encoded_transaction_len,
};
use bstore_formats::{Hash, Pubkey, Signature};
use ed25519_dalek::{Signature as EdSig, VerifyingKey};
use serde_json::Value;

/// One vector: its name, its wire bytes and the fields Agave recorded.
pub(crate) struct Vector {
    pub name: String,
    pub bytes: Vec<u8>,
    pub x: Value,
}

/// Every vector of the committed file.
pub(crate) fn vectors() -> Vec<Vector> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../testdata/agave4/v1_transactions.json"
    );
    let text = std::fs::read_to_string(path).expect("committed vectors");
    let doc: Value = serde_json::from_str(&text).expect("JSON");
    doc["vectors"]
        .as_array()
        .expect("a vector list")
        .iter()
        .map(|v| Vector {
            name: v["name"].as_str().expect("name").to_string(),
            bytes: b64(&v["base64"]),
            x: v.clone(),
        })
        .collect()
}

fn b64(v: &Value) -> Vec<u8> {
    B64.decode(v.as_str().expect("base64 string"))
        .expect("valid base64")
}

fn num(v: &Value) -> u64 {
    v.as_u64()
        .unwrap_or_else(|| panic!("expected a number, got {v}"))
}

fn bytes_of(v: &Value) -> Vec<u8> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|b| u8::try_from(num(b)).expect("a byte"))
        .collect()
}

fn strs(v: &Value) -> Vec<&str> {
    v.as_array()
        .expect("array")
        .iter()
        .map(|s| s.as_str().expect("string"))
        .collect()
}

fn version_of(x: &Value) -> TxVersion {
    match &x["version"] {
        Value::String(s) if s == "legacy" => TxVersion::Legacy,
        v if v.as_u64() == Some(0) => TxVersion::V0,
        v if v.as_u64() == Some(1) => TxVersion::V1,
        other => panic!("unexpected version {other}"),
    }
}

fn opt(v: &Value) -> Option<u64> {
    v.as_u64()
}

fn check_owned(v: &Vector, tx: &VersionedTransaction) {
    let (name, f) = (&v.name, &v.x["fields"]);
    assert_eq!(tx.version(), version_of(&v.x), "{name}: version");
    let sigs: Vec<Signature> = strs(&f["signatures"])
        .iter()
        .map(|s| s.parse().expect("base58"))
        .collect();
    assert_eq!(tx.signatures, sigs, "{name}: signatures");
    let m = &tx.message;
    let h = m.header();
    assert_eq!(
        vec![
            h.num_required_signatures,
            h.num_readonly_signed_accounts,
            h.num_readonly_unsigned_accounts
        ],
        bytes_of(&f["header"]),
        "{name}: header"
    );
    let keys: Vec<Pubkey> = strs(&f["account_keys"])
        .iter()
        .map(|s| s.parse().expect("base58"))
        .collect();
    assert_eq!(m.account_keys(), &keys[..], "{name}: keys");
    let hash: Hash = f["recent_blockhash"]
        .as_str()
        .expect("hash")
        .parse()
        .expect("base58");
    assert_eq!(m.recent_blockhash(), &hash, "{name}: blockhash");
    let ixs = f["instructions"].as_array().expect("instructions");
    assert_eq!(
        m.instructions().len(),
        ixs.len(),
        "{name}: instruction count"
    );
    for (ix, x) in m.instructions().iter().zip(ixs) {
        assert_eq!(u64::from(ix.program_id_index), num(&x["program_id_index"]));
        assert_eq!(ix.accounts, bytes_of(&x["accounts"]), "{name}: accounts");
        assert_eq!(ix.data, b64(&x["data"]), "{name}: data");
    }
    let lookups = f["address_table_lookups"].as_array().expect("lookups");
    assert_eq!(m.address_table_lookups().len(), lookups.len(), "{name}");
    for (l, x) in m.address_table_lookups().iter().zip(lookups) {
        assert_eq!(
            l.account_key.to_string(),
            x["account_key"].as_str().expect("key")
        );
        assert_eq!(l.writable_indexes, bytes_of(&x["writable_indexes"]));
        assert_eq!(l.readonly_indexes, bytes_of(&x["readonly_indexes"]));
    }
    match (m.config(), &f["config"]) {
        (None, Value::Null) => {}
        (Some(c), x) => {
            assert_eq!(u64::from(c.mask()), num(&x["mask"]), "{name}: mask");
            assert_eq!(c.priority_fee, opt(&x["priority_fee"]), "{name}");
            assert_eq!(
                c.compute_unit_limit.map(u64::from),
                opt(&x["compute_unit_limit"])
            );
            assert_eq!(
                c.loaded_accounts_data_size_limit.map(u64::from),
                opt(&x["loaded_accounts_data_size_limit"])
            );
            assert_eq!(c.heap_size.map(u64::from), opt(&x["heap_size"]), "{name}");
        }
        (c, x) => panic!("{name}: config {c:?} vs {x}"),
    }
}

fn check_view(v: &Vector, view: &TransactionView<'_>, owned: &VersionedTransaction) {
    let (name, f) = (&v.name, &v.x["fields"]);
    assert_eq!(
        view.bytes(),
        &v.bytes[..],
        "{name}: view spans the transaction"
    );
    assert_eq!(view.version(), owned.version(), "{name}");
    assert_eq!(view.num_signatures(), owned.signatures.len(), "{name}");
    assert!(view.signatures().eq(owned.signatures.iter().map(|s| &s.0)));
    assert_eq!(
        view.message_bytes(),
        &b64(&f["message_base64"])[..],
        "{name}: message"
    );
    assert_eq!(
        view.message_offset() as u64,
        num(&f["message_offset"]),
        "{name}"
    );
    assert_eq!(
        view.signatures_offset() as u64,
        num(&f["signatures_offset"]),
        "{name}"
    );
    let m = view.message();
    assert_eq!(m.version(), owned.version());
    assert_eq!(m.header(), *owned.message.header());
    assert!(
        m.account_keys()
            .eq(owned.message.account_keys().iter().map(|k| &k.0))
    );
    assert_eq!(m.recent_blockhash(), &owned.message.recent_blockhash().0);
    assert_eq!(
        m.config().as_ref(),
        owned.message.config(),
        "{name}: config"
    );
    assert_eq!(m.num_instructions(), owned.message.instructions().len());
    for (a, b) in m.instructions().zip(owned.message.instructions()) {
        assert_eq!(a.program_id_index, b.program_id_index, "{name}");
        assert_eq!(a.accounts, &b.accounts[..], "{name}");
        assert_eq!(a.data, &b.data[..], "{name}");
    }
    assert_eq!(m.num_lookups(), owned.message.address_table_lookups().len());
    assert_eq!(view.to_owned_transaction().expect("owned copy"), *owned);
}

/// Every signature verifies against its signer key over the message bytes the view found:
/// the offsets a signature verifier would use are right for every framing.
fn check_signatures_verify(v: &Vector, view: &TransactionView<'_>) {
    assert_eq!(v.x["fields"]["signatures_verify"], Value::Bool(true));
    let m = view.message();
    for (sig, key) in view.signatures().zip(m.account_keys()) {
        let key = VerifyingKey::from_bytes(key).expect("a valid ed25519 key");
        key.verify_strict(view.message_bytes(), &EdSig::from_bytes(sig))
            .unwrap_or_else(|e| panic!("{}: signature does not verify: {e}", v.name));
    }
}

#[test]
fn agave_vectors_decode_field_for_field_and_round_trip() {
    let vectors = vectors();
    let v1 = vectors
        .iter()
        .filter(|v| version_of(&v.x) == TxVersion::V1)
        .count();
    assert!(
        v1 >= 5 && vectors.len() >= v1 + 2,
        "v1, legacy and v0 vectors"
    );
    for v in &vectors {
        let (tx, used) = decode_transaction(&v.bytes).expect("Agave's bytes decode");
        assert_eq!(used, v.bytes.len(), "{}: whole transaction", v.name);
        assert_eq!(num(&v.x["len"]), used as u64);
        check_owned(v, &tx);
        let mut again = Vec::new();
        encode_transaction_into(&tx, &mut again);
        assert_eq!(again, v.bytes, "{}: byte-exact re-encode", v.name);
        assert_eq!(encoded_transaction_len(&tx), v.bytes.len(), "{}", v.name);

        let (view, used) = TransactionView::parse(&v.bytes).expect("view");
        assert_eq!(used, v.bytes.len());
        check_view(v, &view, &tx);
        check_signatures_verify(v, &view);
        assert!(
            used <= tx.version().max_transaction_bytes(),
            "{}: within its version's cap",
            v.name
        );
    }
    // Only v1 may exceed a packet; the large vector does.
    let large = vectors
        .iter()
        .find(|v| v.name == "v1_three_signers_large")
        .expect("large vector");
    assert!(large.bytes.len() > 1232, "{} bytes", large.bytes.len());
}

#[test]
fn entries_mixing_legacy_v0_and_v1_decode_both_ways() {
    let vectors = vectors();
    let txs: Vec<VersionedTransaction> = vectors
        .iter()
        .map(|v| decode_transaction(&v.bytes).expect("decodes").0)
        .collect();
    // Three entries: everything, the reverse, and a tick; then the same bytes with
    // trailing padding, as a deshredded data set ends.
    let mut rev = txs.clone();
    rev.reverse();
    let entries = vec![
        Entry {
            num_hashes: 3,
            hash: Hash([1; 32]),
            transactions: txs.clone(),
        },
        Entry {
            num_hashes: 1,
            hash: Hash([2; 32]),
            transactions: rev,
        },
        Entry {
            num_hashes: 9,
            hash: Hash([3; 32]),
            transactions: vec![],
        },
    ];
    let mut bytes = encode_entries(&entries);
    let encoded_len = bytes.len();
    bytes.extend_from_slice(&[0; 300]);
    assert_eq!(decode_entries(&bytes).expect("owned"), entries);

    let view = EntriesView::parse(&bytes).expect("view");
    assert_eq!(view.encoded_len(), encoded_len);
    assert_eq!(view.num_transactions(), 2 * txs.len());
    let order: Vec<&Vector> = vectors.iter().chain(vectors.iter().rev()).collect();
    for (tv, v) in view.transactions().zip(&order) {
        assert_eq!(tv.bytes(), &v.bytes[..], "{}: offset table", v.name);
    }
    for (e, owned) in view.iter().zip(&entries) {
        assert_eq!(e.num_transactions(), owned.transactions.len());
        let via_iter: Vec<&[u8]> = e.transactions().map(|t| t.bytes()).collect();
        assert_eq!(via_iter.len(), owned.transactions.len());
        // The PoH mixin's leaves: every signature of every transaction, in order.
        let sigs: Vec<[u8; 64]> = e.signatures().copied().collect();
        let want: Vec<[u8; 64]> = owned
            .transactions
            .iter()
            .flat_map(|t| t.signatures.iter().map(|s| s.0))
            .collect();
        assert_eq!(sigs, want);
    }
    assert_eq!(view.to_owned_entries().expect("owned copy"), entries);
    assert!(
        entries[0]
            .transactions
            .iter()
            .any(|t| matches!(t.message, VersionedMessage::V1(_)))
    );
}
