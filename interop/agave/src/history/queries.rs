//! Which requests FILE.json answers, and the answers, each beside its request.

use serde_json::{Map, Value, json};
use solana_pubkey::Pubkey;
use solana_signature::Signature;
use solana_signer::Signer;
use solana_transaction_status::{BlockEncodingOptions, TransactionDetails, UiTransactionEncoding};

use super::keys::Keys;
use super::plan::PlannedSlot;
use super::rpc::{Answer, Rpc, SignaturesConfig};
use super::scenario::{FIRST_SLOT, LATE_SLOT};
use crate::error::{Context, Result};

const ENCODINGS: [UiTransactionEncoding; 4] = [
    UiTransactionEncoding::Json,
    UiTransactionEncoding::JsonParsed,
    UiTransactionEncoding::Base58,
    UiTransactionEncoding::Base64,
];
const DETAILS: [TransactionDetails; 4] = [
    TransactionDetails::Full,
    TransactionDetails::Accounts,
    TransactionDetails::Signatures,
    TransactionDetails::None,
];
const MAX_VERSIONS: [Option<u8>; 2] = [None, Some(0)];

fn json<T: serde::Serialize>(value: &T) -> Result<Value> {
    serde_json::to_value(value).context("serialize a request or answer")
}

/// `request` with the answer added as `result` or `error`.
fn answered<T: serde::Serialize>(
    mut request: Map<String, Value>,
    answer: Answer<T>,
) -> Result<Value> {
    match answer {
        Ok(result) => request.insert("result".into(), json(&result)?),
        Err(error) => request.insert("error".into(), json(&error)?),
    };
    Ok(Value::Object(request))
}

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// A signature no ledger holds.
pub fn unknown_signature(keys: &Keys) -> Signature {
    keys.payer.sign_message(b"never sent")
}

/// Every slot from the lowest root to one past the highest, in every configuration.
pub fn get_block(rpc: &Rpc<'_>) -> Result<Vec<Value>> {
    let mut out = Vec::new();
    for slot in FIRST_SLOT..=LATE_SLOT {
        for encoding in ENCODINGS {
            for details in DETAILS {
                for rewards in [true, false] {
                    for version in MAX_VERSIONS {
                        let options = BlockEncodingOptions {
                            transaction_details: details,
                            show_rewards: rewards,
                            max_supported_transaction_version: version,
                        };
                        let request = json!({"slot": slot, "config": {
                            "encoding": encoding,
                            "transactionDetails": details,
                            "rewards": rewards,
                            "maxSupportedTransactionVersion": version,
                        }});
                        out.push(answered(
                            object(request),
                            rpc.get_block(slot, encoding, options)?,
                        )?);
                    }
                }
            }
        }
    }
    Ok(out)
}

pub fn get_transaction(rpc: &Rpc<'_>, signatures: &[Signature]) -> Result<Vec<Value>> {
    let mut out = Vec::new();
    for signature in signatures {
        for encoding in ENCODINGS {
            for version in MAX_VERSIONS {
                let request = json!({"signature": signature.to_string(), "config": {
                    "encoding": encoding,
                    "maxSupportedTransactionVersion": version,
                }});
                out.push(answered(
                    object(request),
                    rpc.get_transaction(*signature, encoding, version)?,
                )?);
            }
        }
    }
    Ok(out)
}

/// Per address: no config, limits 1 and 2, then the windows of [`window_configs`] over
/// its full answer; then the `extra` configurations.
pub fn get_signatures_for_address(
    rpc: &Rpc<'_>,
    addresses: &[Pubkey],
    extra: &[(Pubkey, SignaturesConfig)],
) -> Result<Vec<Value>> {
    let mut queries: Vec<(Pubkey, SignaturesConfig)> = Vec::new();
    for &address in addresses {
        let limit = |n| SignaturesConfig {
            limit: Some(n),
            ..Default::default()
        };
        queries.extend([
            (address, SignaturesConfig::default()),
            (address, limit(1)),
            (address, limit(2)),
        ]);
        let all: Vec<Signature> = rpc
            .get_signatures_for_address(address, SignaturesConfig::default())
            .unwrap_or_default()
            .iter()
            .filter_map(|item| item.signature.parse().ok())
            .collect();
        queries.extend(window_configs(&all).into_iter().map(|c| (address, c)));
    }
    queries.extend_from_slice(extra);
    queries
        .into_iter()
        .map(|(address, config)| {
            let mut shown = Map::new();
            if let Some(before) = config.before {
                shown.insert("before".into(), json!(before.to_string()));
            }
            if let Some(until) = config.until {
                shown.insert("until".into(), json!(until.to_string()));
            }
            if let Some(limit) = config.limit {
                shown.insert("limit".into(), json!(limit));
            }
            let request = json!({"address": address.to_string(), "config": shown});
            answered(
                object(request),
                rpc.get_signatures_for_address(address, config),
            )
        })
        .collect()
}

/// `before` the newest, `until` the oldest, and both; with four or more signatures,
/// also the window between the second and the second-last, limit 1.
fn window_configs(all: &[Signature]) -> Vec<SignaturesConfig> {
    let config = |before, until, limit| SignaturesConfig {
        before,
        until,
        limit,
    };
    let mut out = Vec::new();
    if let [newest, .., oldest] = all {
        out.push(config(Some(*newest), None, None));
        out.push(config(None, Some(*oldest), None));
        out.push(config(Some(*newest), Some(*oldest), None));
    }
    if let [_, second, .., second_last, _] = all {
        out.push(config(Some(*second), Some(*second_last), Some(1)));
    }
    out
}

pub fn get_signature_statuses(rpc: &Rpc<'_>, signatures: &[Signature]) -> Result<Vec<Value>> {
    let request = json!({
        "signatures": signatures.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "config": {"searchTransactionHistory": true},
    });
    let mut request = object(request);
    match rpc.get_signature_statuses(signatures) {
        Ok(value) => request.insert("value".into(), json(&value)?),
        Err(error) => request.insert("error".into(), json(&error)?),
    };
    Ok(vec![Value::Object(request)])
}

/// The `slots` list: what each slot of the range holds and is there to cover.
pub fn slots_json(slots: &[PlannedSlot], skipped: u64) -> Vec<Value> {
    let mut out: Vec<Value> = slots
        .iter()
        .map(|s| {
            let signatures: Vec<String> = s.txs.iter().map(|t| t.signature().to_string()).collect();
            let without_status: Vec<String> = s
                .txs
                .iter()
                .filter(|t| t.meta.is_none())
                .map(|t| t.signature().to_string())
                .collect();
            json!({
                "slot": s.slot,
                "parent": s.parent,
                "rooted": true,
                "note": s.note,
                "signatures": signatures,
                "without_status": without_status,
                "block_time": s.block_time,
                "block_height": s.block_height,
            })
        })
        .collect();
    out.push(json!({"slot": skipped, "rooted": false, "note": "skipped: no shreds, not rooted"}));
    out.push(json!({"slot": LATE_SLOT, "rooted": false, "note": "past the highest root"}));
    out.sort_by_key(|v| v.get("slot").and_then(Value::as_u64));
    out
}
