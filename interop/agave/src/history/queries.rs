//! Which requests FILE.json answers, and the answers, each beside its request.

use bstore_interop_protocol::{
    BlockCase, BlockConfig, GapSlot, HistorySlot, SignaturesCase, SignaturesConfig as ShownConfig,
    StatusesCase, StatusesConfig, TransactionCase, TransactionConfig, WrittenSlot,
};
use serde_json::Value;
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

/// The name a request gives an option (an encoding, a detail level): its JSON string.
fn name<T: serde::Serialize>(option: &T) -> Result<String> {
    match json(option)? {
        Value::String(name) => Ok(name),
        other => Err(crate::error::Error::new(format!(
            "an RPC option serializes as {other}, not a string"
        ))),
    }
}

/// The answer as the protocol's (result, error) pair: exactly one is there.
fn answered<T: serde::Serialize>(answer: Answer<T>) -> Result<(Option<Value>, Option<Value>)> {
    Ok(match answer {
        Ok(result) => (Some(json(&result)?), None),
        Err(error) => (None, Some(json(&error)?)),
    })
}

/// A signature no ledger holds.
pub fn unknown_signature(keys: &Keys) -> Signature {
    keys.payer.sign_message(b"never sent")
}

/// Every slot from the lowest root to one past the highest, in every configuration.
pub fn get_block(rpc: &Rpc<'_>) -> Result<Vec<BlockCase<Value>>> {
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
                        let config = BlockConfig {
                            encoding: name(&encoding)?,
                            transaction_details: name(&details)?,
                            rewards,
                            max_supported_transaction_version: version,
                        };
                        let (result, error) = answered(rpc.get_block(slot, encoding, options)?)?;
                        out.push(BlockCase {
                            slot,
                            config,
                            result,
                            error,
                        });
                    }
                }
            }
        }
    }
    Ok(out)
}

pub fn get_transaction(
    rpc: &Rpc<'_>,
    signatures: &[Signature],
) -> Result<Vec<TransactionCase<Value>>> {
    let mut out = Vec::new();
    for signature in signatures {
        for encoding in ENCODINGS {
            for version in MAX_VERSIONS {
                let config = TransactionConfig {
                    encoding: name(&encoding)?,
                    max_supported_transaction_version: version,
                };
                let (result, error) =
                    answered(rpc.get_transaction(*signature, encoding, version)?)?;
                out.push(TransactionCase {
                    signature: signature.to_string(),
                    config,
                    result,
                    error,
                });
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
) -> Result<Vec<SignaturesCase<Value>>> {
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
            let shown = ShownConfig {
                before: config.before.map(|s| s.to_string()),
                until: config.until.map(|s| s.to_string()),
                limit: config.limit.map(|n| n as u64),
            };
            let (result, error) = answered(rpc.get_signatures_for_address(address, config))?;
            Ok(SignaturesCase {
                address: address.to_string(),
                config: shown,
                result,
                error,
            })
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

pub fn get_signature_statuses(
    rpc: &Rpc<'_>,
    signatures: &[Signature],
) -> Result<Vec<StatusesCase<Value>>> {
    let (value, error) = answered(rpc.get_signature_statuses(signatures))?;
    Ok(vec![StatusesCase {
        signatures: signatures.iter().map(ToString::to_string).collect(),
        config: StatusesConfig {
            search_transaction_history: true,
        },
        value,
        error,
    }])
}

/// The `slots` list: what each slot of the range holds and is there to cover.
pub fn slots_view(slots: &[PlannedSlot], skipped: u64) -> Vec<HistorySlot> {
    let mut out: Vec<HistorySlot> = slots
        .iter()
        .map(|s| {
            HistorySlot::Written(WrittenSlot {
                slot: s.slot,
                parent: s.parent,
                rooted: true,
                note: s.note.to_string(),
                signatures: s.txs.iter().map(|t| t.signature().to_string()).collect(),
                without_status: s
                    .txs
                    .iter()
                    .filter(|t| t.meta.is_none())
                    .map(|t| t.signature().to_string())
                    .collect(),
                block_time: s.block_time,
                block_height: s.block_height,
            })
        })
        .collect();
    let gap = |slot, note: &str| {
        HistorySlot::Gap(GapSlot {
            slot,
            rooted: false,
            note: note.to_string(),
        })
    };
    out.push(gap(skipped, "skipped: no shreds, not rooted"));
    out.push(gap(LATE_SLOT, "past the highest root"));
    out.sort_by_key(|s| match s {
        HistorySlot::Written(w) => w.slot,
        HistorySlot::Gap(g) => g.slot,
    });
    out
}
