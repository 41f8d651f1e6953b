//! Driving the real Solana client scripts in `tests/clients/` and checking what they saw.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

use super::*;

/// The scripts' folder.
pub(crate) fn clients_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients")
}

/// A missing client tool fails the test with how to install it. There is no switch to
/// skip these tests: a test that cannot run must not pass.
pub(crate) fn missing(what: &str) -> ! {
    panic!("{what}. Install the client dependencies with scripts/rpc-client-deps.sh.");
}

/// Runs `program args...` and parses the JSON it prints.
pub(crate) fn run_script(program: &str, args: &[&str]) -> Value {
    let out = match Command::new(program).args(args).output() {
        Ok(out) => out,
        Err(e) => missing(&format!("cannot run {program}: {e}")),
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        if stderr.contains("ModuleNotFoundError") || stderr.contains("Cannot find module") {
            missing(&format!(
                "{program}: a client library is missing:\n{stderr}"
            ));
        }
        panic!("{program} {args:?} failed ({}):\n{stderr}", out.status);
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    serde_json::from_str(stdout.trim())
        .unwrap_or_else(|e| panic!("{program} printed no JSON ({e}):\n{stdout}\nstderr:\n{stderr}"))
}

/// One getBlock call for the clients, and what it must produce.
#[derive(Debug, Clone)]
pub(crate) struct Case {
    pub slot: u64,
    pub encoding: &'static str,
    pub details: &'static str,
    pub max_version: Option<u8>,
    pub rewards: Option<bool>,
    pub commitment: Option<&'static str>,
    /// `Some(code, message)` when the call must fail.
    pub error: Option<(i64, String)>,
}

impl Case {
    fn ok(slot: u64, encoding: &'static str, details: &'static str, v0: bool) -> Self {
        Self {
            slot,
            encoding,
            details,
            max_version: v0.then_some(0),
            rewards: None,
            commitment: None,
            error: None,
        }
    }

    pub(crate) fn to_json(&self) -> Value {
        json!({
            "slot": self.slot, "encoding": self.encoding, "details": self.details,
            "max_version": self.max_version, "rewards": self.rewards,
            "commitment": self.commitment,
        })
    }
}

/// Every encoding and detail level for the testnet, Agave and synthetic blocks, plus the
/// error cases a client must surface.
pub(crate) fn cases(ledger: &TestLedger) -> Vec<Case> {
    let mut out = Vec::new();
    for slot in [AGAVE_SLOTS[1], AGAVE_SLOTS[2], TESTNET_SLOT, SYNTH_FIRST] {
        let v0 = ledger.block(slot).has_v0;
        for encoding in ["json", "base58", "base64"] {
            out.push(Case::ok(slot, encoding, "full", v0));
        }
        for details in ["signatures", "none", "accounts"] {
            out.push(Case::ok(slot, "json", details, v0));
        }
    }
    out.push(Case {
        rewards: Some(false),
        ..Case::ok(AGAVE_SLOTS[2], "json", "full", false)
    });
    out.push(Case {
        commitment: Some("confirmed"),
        ..Case::ok(SYNTH_CONFIRMED, "json", "full", true)
    });
    let transaction_version = "Transaction version (0) is not supported by the requesting \
        client. Please try the request again with the following configuration parameter: \
        \"maxSupportedTransactionVersion\": 0";
    out.push(Case {
        error: Some((-32015, transaction_version.to_string())),
        ..Case::ok(SYNTH_FIRST, "json", "full", false)
    });
    out.push(Case {
        error: Some((
            -32007,
            "Slot 13 was skipped, or missing due to ledger jump to recent snapshot".into(),
        )),
        ..Case::ok(13, "json", "full", false)
    });
    out.push(Case {
        error: Some((
            -32001,
            "Block 10 cleaned up, does not exist on node. First available block: 11".into(),
        )),
        ..Case::ok(AGAVE_SLOTS[0], "json", "full", false)
    });
    let beyond = SYNTH_FIRST + 1000;
    out.push(Case {
        error: Some((-32004, format!("Block not available for slot {beyond}"))),
        ..Case::ok(beyond, "json", "full", false)
    });
    out
}

pub(crate) fn plan(ledger: &TestLedger, cases: &[Case]) -> String {
    let history = HistoryPlan::new(ledger);
    json!({
        "cases": cases.iter().map(Case::to_json).collect::<Vec<_>>(),
        "first_slot": TESTNET_SLOT,
        "time_slot": TESTNET_SLOT,
        "history": {"signatures": history.signatures, "address": history.address},
    })
    .to_string()
}

/// What the clients ask of the history methods: the newest rooted synthetic block's
/// signatures, and the key most of the rooted synthetic transactions use.
pub(crate) struct HistoryPlan {
    pub signatures: Vec<String>,
    pub address: String,
    /// The address's (signature, slot) pairs, newest first (slot, then position).
    pub address_history: Vec<(String, u64)>,
}

impl HistoryPlan {
    pub(crate) fn new(ledger: &TestLedger) -> Self {
        let newest = SYNTH_FIRST + 2;
        let signatures = ledger
            .block(newest)
            .signatures
            .iter()
            .take(4)
            .cloned()
            .collect();
        let mut uses: std::collections::BTreeMap<String, Vec<(u64, usize, String)>> =
            Default::default();
        for slot in SYNTH_FIRST..=newest {
            let e = ledger.block(slot);
            for (i, bytes) in e.transactions.iter().enumerate() {
                let (view, _) = bstore_ledger::entry::TransactionView::parse(bytes).expect("tx");
                let keys: std::collections::BTreeSet<String> = view
                    .message()
                    .account_keys()
                    .map(|k| bs58::encode(k).into_string())
                    .collect();
                for key in keys {
                    uses.entry(key)
                        .or_default()
                        .push((slot, i, e.signatures[i].clone()));
                }
            }
        }
        let (address, mut list) = uses
            .into_iter()
            .max_by_key(|(_, v)| v.len())
            .expect("transactions");
        list.sort_by_key(|e| std::cmp::Reverse((e.0, e.1)));
        Self {
            signatures,
            address,
            address_history: list.into_iter().map(|(slot, _, sig)| (sig, slot)).collect(),
        }
    }
}

/// Checks a client's view of the history methods.
pub(crate) fn check_history(client: &str, ledger: &TestLedger, got: &Value) {
    let plan = HistoryPlan::new(ledger);
    let newest = SYNTH_FIRST + 2;
    let e = ledger.block(newest);
    let statuses = e.statuses.as_ref().expect("synthetic history");
    let first = bstore_ledger::history::StatusMeta::decode(&statuses[0]).expect("status");
    assert_eq!(got["tx_slot"], newest, "{client}");
    assert_eq!(got["tx_block_time"], json!(e.block_time), "{client}");
    assert_eq!(got["tx_fee"], json!(first.fee), "{client}");
    assert_eq!(got["tx_failed"], json!(first.err.is_some()), "{client}");
    assert_eq!(
        got["tx_logs"],
        json!(first.log_messages.map_or(0, |l| l.len())),
        "{client}"
    );
    assert!(
        got["parsed_instructions"].as_u64().unwrap_or(0) >= 1,
        "{client}"
    );
    let (view, _) = bstore_ledger::entry::TransactionView::parse(&e.transactions[0]).expect("tx");
    let keys = view.message().account_keys().count()
        + first.loaded_writable.len()
        + first.loaded_readonly.len();
    assert_eq!(
        got["parsed_keys"], keys,
        "{client}: static then loaded keys"
    );
    let want: Vec<Value> = plan
        .address_history
        .iter()
        .take(5)
        .map(|(sig, slot)| json!([sig, slot]))
        .collect();
    let have: Vec<Value> = got["for_address"]
        .as_array()
        .expect("for_address")
        .iter()
        .map(|e| json!([e["signature"], e["slot"]]))
        .collect();
    assert_eq!(
        have, want,
        "{client}: getSignaturesForAddress, newest first"
    );
    let statuses = got["statuses"].as_array().expect("statuses");
    assert_eq!(statuses.len(), plan.signatures.len(), "{client}");
    for (i, st) in statuses.iter().enumerate() {
        let m =
            bstore_ledger::history::StatusMeta::decode(&e.statuses.as_ref().expect("history")[i])
                .expect("status");
        assert_eq!(st["slot"], newest, "{client} status {i}");
        assert_eq!(st["failed"], json!(m.err.is_some()), "{client} status {i}");
        assert_eq!(st["finalized"], true, "{client} status {i}");
    }
}

/// Checks one client's view of one case against the ledger's expectations.
pub(crate) fn check_case(client: &str, ledger: &TestLedger, case: &Case, got: &Value) {
    let what = format!("{client}: {case:?}");
    if let Some((code, message)) = &case.error {
        assert_eq!(got["ok"], false, "{what} must fail: {got}");
        let text = got["error"].as_str().unwrap_or_default();
        assert!(text.contains(message.as_str()), "{what}: {text}");
        if let Some(c) = got.get("code").and_then(Value::as_i64) {
            assert_eq!(c, *code, "{what}");
        }
        return;
    }
    assert_eq!(got["ok"], true, "{what}: {got}");
    let block = &got["block"];
    let e = ledger.block(case.slot);
    assert_eq!(block["blockhash"], e.blockhash.as_str(), "{what}");
    assert_eq!(
        block["previousBlockhash"],
        e.previous_blockhash.as_str(),
        "{what}"
    );
    assert_eq!(block["parentSlot"], e.parent_slot, "{what}");
    assert_eq!(block["blockTime"], json!(e.block_time), "{what}");
    assert_eq!(block["blockHeight"], json!(e.block_height), "{what}");
    // The synthetic slots carry two slot rewards (`synth::history`).
    let rewards = if case.rewards == Some(false) {
        json!(null)
    } else if e.statuses.is_some() {
        json!(2)
    } else {
        json!(0)
    };
    assert_eq!(block["rewards"], rewards, "{what}");
    match case.details {
        "signatures" => {
            let sigs: Vec<String> =
                serde_json::from_value(block["signatures"].clone()).expect("signature list");
            assert_eq!(sigs, e.signatures, "{what}");
        }
        "none" => {
            assert!(
                block.get("transactions").is_none_or(Value::is_null),
                "{what}"
            );
            assert!(block.get("signatures").is_none_or(Value::is_null), "{what}");
        }
        _ => {
            let txs = block["transactions"].as_array().expect("transactions");
            assert_eq!(txs.len(), e.signatures.len(), "{what}");
            // Every block's transaction bytes are known (the testnet block's from the
            // fixture's data sets), and every client that rebuilds a transaction must
            // report its bytes: web3.js always, Python for the binary encodings.
            assert_eq!(e.transactions.len(), txs.len(), "{what}: expected bytes");
            let reports_bytes =
                case.details == "full" && (client == "web3.js" || case.encoding != "json");
            for (i, tx) in txs.iter().enumerate() {
                assert_eq!(
                    tx["first_signature"],
                    e.signatures[i].as_str(),
                    "{what} tx {i}"
                );
                assert_eq!(tx["meta_is_none"], e.statuses.is_none(), "{what} tx {i}");
                if let Some(statuses) = &e.statuses {
                    let m =
                        bstore_ledger::history::StatusMeta::decode(&statuses[i]).expect("status");
                    assert_eq!(
                        tx["fee"],
                        json!(m.fee),
                        "{what} tx {i}: fee as the client read it"
                    );
                    assert_eq!(tx["failed"], json!(m.err.is_some()), "{what} tx {i}");
                }
                if case.details == "accounts" {
                    assert_eq!(tx["payer"], json!({"signer": true, "writable": true}));
                }
                if reports_bytes {
                    let got = tx["bytes_b64"]
                        .as_str()
                        .unwrap_or_else(|| panic!("{what} tx {i}: no transaction bytes"));
                    assert_eq!(got, b64(&e.transactions[i]), "{what} tx {i}: bytes");
                }
            }
        }
    }
}

/// Checks the slot methods as a client saw them.
pub(crate) fn check_slots(client: &str, got: &Value) {
    assert_eq!(got["getSlot"], SYNTH_FIRST + 2, "{client}");
    assert_eq!(got["getSlotConfirmed"], SYNTH_CONFIRMED, "{client}");
    assert_eq!(
        got["getBlocks"],
        json!([TESTNET_SLOT, SYNTH_FIRST, SYNTH_FIRST + 1, SYNTH_FIRST + 2]),
        "{client}"
    );
    assert_eq!(got["getFirstAvailableBlock"], 11, "{client}");
    assert_eq!(got["getBlockTime"], BLOCK_TIME, "{client}");
    assert_eq!(got["getBlockHeight"], 400_000_003, "{client}");
    assert!(got["getVersion"].is_string(), "{client}");
}
