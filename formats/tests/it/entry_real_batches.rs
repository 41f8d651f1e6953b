//! Real deshredded data sets (testnet, mainnet, Agave's and Firedancer's shredders) decode,
//! owned and as views, to exactly the entries, transactions and signatures the folders'
//! `expected.json` list, and re-encode to the original bytes (minus trailing padding).

use crate::common;

use bstore_formats::entry::{
    EntriesView, Entry, TxVersion, decode_entries, encode_entries, encoded_transaction_len,
};
use serde_json::Value;

/// One data set file and what its folder's `expected.json` says about it.
struct Case<'j> {
    file: String,
    entry_bytes: usize,
    entry_count: usize,
    tx_count: usize,
    /// The expected entries of this data set, in order.
    entries: &'j [Value],
}

fn as_usize(v: &Value) -> usize {
    let n = v
        .as_u64()
        .unwrap_or_else(|| panic!("expected a number, got {v}"));
    usize::try_from(n).expect("count fits in usize")
}

fn as_str(v: &Value) -> &str {
    v.as_str()
        .unwrap_or_else(|| panic!("expected a string, got {v}"))
}

fn as_array(v: &Value) -> &[Value] {
    v.as_array()
        .unwrap_or_else(|| panic!("expected an array, got {v}"))
}

/// Cases from a `deshred.batches` list whose entries sit in one flat `entries` list.
fn batch_cases<'j>(folder: &str, batches: &Value, entries: &'j [Value]) -> Vec<Case<'j>> {
    as_array(batches)
        .iter()
        .map(|b| {
            let first = as_usize(&b["first_entry_index"]);
            let count = as_usize(&b["entry_count"]);
            let file = match b.get("file") {
                Some(f) => format!("{folder}/{}", as_str(f)),
                None => format!(
                    "{folder}/batches/batch_{:05}_{:05}.bin",
                    as_usize(&b["start_index"]),
                    as_usize(&b["end_index"])
                ),
            };
            Case {
                file,
                entry_bytes: as_usize(&b["entry_bytes"]),
                entry_count: count,
                tx_count: as_usize(&b["tx_count"]),
                entries: &entries[first..first + count],
            }
        })
        .collect()
}

fn check_entries(what: &str, owned: &[Entry], view: &EntriesView<'_>, expected: &[Value]) {
    assert_eq!(owned.len(), expected.len(), "{what}: entry count");
    assert_eq!(view.len(), expected.len(), "{what}: view entry count");
    for (i, ((e, v), x)) in owned.iter().zip(view.iter()).zip(expected).enumerate() {
        let at = format!("{what}: entry {i}");
        let tx_count = as_usize(&x["tx_count"]);
        assert_eq!(
            e.num_hashes,
            x["num_hashes"].as_u64().expect("num_hashes"),
            "{at}"
        );
        assert_eq!(v.num_hashes(), e.num_hashes, "{at}: view num_hashes");
        assert_eq!(e.hash.to_string(), as_str(&x["hash"]), "{at}: hash");
        assert_eq!(v.hash(), e.hash, "{at}: view hash");
        assert_eq!(e.transactions.len(), tx_count, "{at}: tx count");
        assert_eq!(v.num_transactions(), tx_count, "{at}: view tx count");
        assert_eq!(e.is_tick(), tx_count == 0, "{at}: tick");
        let Some(txs) = x.get("txs") else {
            assert_eq!(
                tx_count, 0,
                "{at}: txs listed for every entry with transactions"
            );
            continue;
        };
        let txs = as_array(txs);
        assert_eq!(
            v.transactions().count(),
            txs.len(),
            "{at}: view tx iteration"
        );
        for (j, ((t, tv), xt)) in e
            .transactions
            .iter()
            .zip(v.transactions())
            .zip(txs)
            .enumerate()
        {
            let at = format!("{at}, tx {j}");
            let sigs: Vec<String> = t.signatures.iter().map(ToString::to_string).collect();
            let want: Vec<&str> = as_array(&xt["signatures"]).iter().map(as_str).collect();
            assert_eq!(sigs, want, "{at}: signatures");
            let view_sigs: Vec<&[u8; 64]> = tv.signatures().collect();
            let owned_sigs: Vec<&[u8; 64]> = t.signatures.iter().map(|s| &s.0).collect();
            assert_eq!(view_sigs, owned_sigs, "{at}: view signatures");
            assert_eq!(tv.first_signature(), owned_sigs.first().copied(), "{at}");
            let version = match as_str(&xt["version"]) {
                "legacy" => TxVersion::Legacy,
                other => panic!("{at}: unexpected version {other}"),
            };
            assert_eq!(t.version(), version, "{at}: version");
            assert_eq!(tv.version(), version, "{at}: view version");
            let msg = tv.message();
            assert_eq!(
                t.message.account_keys().len(),
                as_usize(&xt["num_account_keys"]),
                "{at}"
            );
            assert_eq!(
                msg.num_account_keys(),
                as_usize(&xt["num_account_keys"]),
                "{at}"
            );
            assert_eq!(
                t.message.instructions().len(),
                as_usize(&xt["num_instructions"]),
                "{at}"
            );
            assert_eq!(
                msg.instructions().count(),
                as_usize(&xt["num_instructions"]),
                "{at}"
            );
            assert_eq!(msg.num_lookups(), as_usize(&xt["num_lookups"]), "{at}");
            let len = as_usize(&xt["serialized_len"]);
            assert_eq!(tv.bytes().len(), len, "{at}: serialized length (view)");
            assert_eq!(
                encoded_transaction_len(t),
                len,
                "{at}: serialized length (owned)"
            );
            assert_eq!(
                tv.to_owned_transaction().expect("view tx decodes"),
                *t,
                "{at}"
            );
        }
    }
}

fn check_case(case: &Case<'_>) {
    let bytes = std::fs::read(common::path(&case.file)).expect("readable batch");
    check_data_set(case, &bytes);
}

/// `case.file` names the data set in messages; `bytes` are its contents.
fn check_data_set(case: &Case<'_>, bytes: &[u8]) {
    let owned = decode_entries(bytes).unwrap_or_else(|e| panic!("{}: {e}", case.file));
    let view = EntriesView::parse(bytes).unwrap_or_else(|e| panic!("{}: {e}", case.file));
    assert_eq!(owned.len(), case.entry_count, "{}", case.file);
    assert_eq!(
        view.encoded_len(),
        case.entry_bytes,
        "{}: encoded length",
        case.file
    );
    let owned_txs: usize = owned.iter().map(|e| e.transactions.len()).sum();
    assert_eq!(owned_txs, case.tx_count, "{}: transactions", case.file);
    assert_eq!(view.num_transactions(), case.tx_count, "{}", case.file);
    check_entries(&case.file, &owned, &view, case.entries);
    assert_eq!(
        view.to_owned_entries().expect("view to owned"),
        owned,
        "{}",
        case.file
    );
    // The flat transaction list of the view agrees with the per-entry walk.
    let flat: Vec<&[u8]> = view.transactions().map(|t| t.bytes()).collect();
    let nested: Vec<&[u8]> = view
        .iter()
        .flat_map(|e| e.transactions())
        .map(|t| t.bytes())
        .collect();
    assert_eq!(
        flat, nested,
        "{}: flat vs per-entry transactions",
        case.file
    );
    let (encoded, trailing) = bytes.split_at(case.entry_bytes);
    assert_eq!(encode_entries(&owned), encoded, "{}: re-encode", case.file);
    assert!(
        trailing.iter().all(|&b| b == 0),
        "{}: trailing bytes are padding",
        case.file
    );
}

/// Every `batches/*.bin` in `folder` is one of the cases.
fn assert_covers_folder(folder: &str, cases: &[Case<'_>]) {
    let dir = common::path(&format!("{folder}/batches"));
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .expect("batches folder")
        .map(|e| {
            format!(
                "{folder}/batches/{}",
                e.expect("dir entry").file_name().to_string_lossy()
            )
        })
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = cases.iter().map(|c| c.file.clone()).collect();
    listed.sort();
    assert_eq!(on_disk, listed, "{folder}: every batch file is checked");
}

#[test]
fn testnet_slot_417955322_batches() {
    let folder = "sig-testnet-417955322";
    let j = common::json(&format!("{folder}/expected.json"));
    let cases = batch_cases(folder, &j["deshred"]["batches"], as_array(&j["entries"]));
    assert_covers_folder(folder, &cases);
    cases.iter().for_each(check_case);
    let totals = &j["deshred"]["totals"];
    let entries: usize = cases.iter().map(|c| c.entry_count).sum();
    let txs: usize = cases.iter().map(|c| c.tx_count).sum();
    assert_eq!(entries, as_usize(&totals["entries"]));
    assert_eq!(txs, as_usize(&totals["txs"]));
    let mut signatures = 0;
    for c in &cases {
        let bytes = std::fs::read(common::path(&c.file)).expect("readable batch");
        let view = EntriesView::parse(&bytes).expect("valid batch");
        signatures += view
            .transactions()
            .map(|t| t.num_signatures())
            .sum::<usize>();
    }
    assert_eq!(signatures, as_usize(&totals["signatures"]));
}

#[test]
fn v2_slot_410010000_fec_set_0() {
    let folder = "sig-v2-slot410010000-fec0";
    let j = common::json(&format!("{folder}/expected.json"));
    let cases = batch_cases(folder, &j["deshred"]["batches"], as_array(&j["entries"]));
    assert_covers_folder(folder, &cases);
    cases.iter().for_each(check_case);
    // The upstream (sig) assertions: counts, payload length, transactions per entry.
    let up = &j["upstream_asserted"];
    let bytes = std::fs::read(common::path(&cases[0].file)).expect("readable batch");
    let view = EntriesView::parse(&bytes).expect("valid batch");
    assert_eq!(view.len(), as_usize(&up["entry_count"]));
    assert_eq!(view.num_transactions(), as_usize(&up["transaction_count"]));
    assert_eq!(view.encoded_len(), as_usize(&up["entry_payload_len"]));
    let per_entry: Vec<usize> = view.iter().map(|e| e.num_transactions()).collect();
    let want: Vec<usize> = as_array(&up["transactions_per_entry"])
        .iter()
        .map(as_usize)
        .collect();
    assert_eq!(per_entry, want);
}

#[test]
fn mainnet_recovered_fec_set() {
    let folder = "sig-mainnet-shreds/recovery_slot284737905_fec483";
    let j = common::json(&format!("{folder}/expected.json"));
    let batches = &j["deshred_after_recovery"]["batches"];
    let cases = batch_cases(folder, batches, as_array(&j["entries"]));
    assert_covers_folder(folder, &cases);
    cases.iter().for_each(check_case);
}

#[test]
fn firedancer_localnet_batches() {
    let j = common::json("firedancer/expected.json");
    for name in ["localnet-slot0-batch0.bin", "localnet-slot210-batch6.bin"] {
        let x = &j["items"][format!("localnet-shreds/{name}")];
        let entries = as_array(&x["entries"]);
        let tx_count = x.get("tx_count").map_or(0, as_usize);
        let listed: usize = entries.iter().map(|e| as_usize(&e["tx_count"])).sum();
        assert_eq!(listed, tx_count, "{name}: expected.json is self-consistent");
        check_case(&Case {
            file: format!("firedancer/localnet-shreds/{name}"),
            entry_bytes: as_usize(x.get("entry_bytes").unwrap_or(&x["bytes"])),
            entry_count: as_usize(&x["entry_count"]),
            tx_count,
            entries,
        });
    }
}

#[test]
fn firedancer_demo_data_set() {
    let j = common::json("firedancer/expected.json");
    let x = &j["items"]["demo-shreds"];
    let cases = batch_cases(
        "firedancer",
        &x["deshred"]["batches"],
        as_array(&x["entries"]),
    );
    assert_eq!(cases.len(), 1);
    let case = Case {
        file: "firedancer/demo-shreds/demo-shreds.bin".to_string(),
        ..cases.into_iter().next().expect("one batch")
    };
    check_case(&case);
}

/// `entries.bin` holds 200 individually serialized entries; `u64(200) ‖ concat` is the
/// `Vec<Entry>` Agave's shredder consumed.
#[test]
fn agave_generated_entries() {
    let name = "agave.blockstore.test_get_rooted_block.entries.bin";
    let j = common::json("sig-agave-generated/expected.json");
    let x = &j["files"][name];
    let records = common::read_records(&format!("sig-agave-generated/{name}"));
    assert_eq!(records.len(), as_usize(&x["entry_count"]));
    let mut bytes = (records.len() as u64).to_le_bytes().to_vec();
    for r in &records {
        // Each record alone is one entry: a one-element vector decodes to exactly it.
        let mut single = 1u64.to_le_bytes().to_vec();
        single.extend_from_slice(r);
        let one = decode_entries(&single).expect("single entry decodes");
        assert_eq!(
            EntriesView::parse(&single).expect("view").encoded_len(),
            single.len()
        );
        assert_eq!(one.len(), 1);
        bytes.extend_from_slice(r);
    }
    let case = Case {
        file: format!("u64(200) ‖ {name}"),
        entry_bytes: bytes.len(),
        entry_count: as_usize(&x["entry_count"]),
        tx_count: as_usize(&x["tx_count"]),
        entries: as_array(&x["entries"]),
    };
    check_data_set(&case, &bytes);
}
