//! Params of the history methods (`getTransaction`, `getSignaturesForAddress`,
//! `getSignatureStatuses`), with Agave's defaults, limits and messages
//! (`solana-rpc` `rpc.rs`: `verify_signature`, `verify_pubkey`, the `MAX_*` constants).

use serde::Deserialize;
use serde_json::Value;

use crate::error::RpcError;
use crate::params::base58::{self, Base58Error};
use crate::params::config::{encoding_or_config, lenient_commitment};
use crate::params::{Commitment, Encoding, check_base58_version, parse};

/// `getSignatureStatuses` accepts at most this many signatures.
pub const MAX_SIGNATURE_STATUSES: usize = 256;
/// `getSignaturesForAddress` returns at most this many (and this many by default).
pub const MAX_SIGNATURES_FOR_ADDRESS: usize = 1000;

/// A base58 value of `N` bytes, refused as Agave refuses it: `WrongSize` when too long
/// before or after decoding, `Invalid` when not base58.
fn decode_fixed<const N: usize>(text: &str, max_text: usize) -> Result<[u8; N], RpcError> {
    let invalid = |what: &str| RpcError::invalid_params(format!("Invalid param: {what}"));
    if text.len() > max_text {
        return Err(invalid("WrongSize"));
    }
    base58::decode_fixed::<N>(text).map_err(|e| match e {
        Base58Error::Invalid => invalid("Invalid"),
        Base58Error::WrongSize => invalid("WrongSize"),
    })
}

/// A signature param (at most 88 base58 characters).
pub fn signature(text: &str) -> Result<[u8; 64], RpcError> {
    decode_fixed::<64>(text, 88)
}

/// An address param (at most 44 base58 characters).
pub fn pubkey(text: &str) -> Result<[u8; 32], RpcError> {
    decode_fixed::<32>(text, 44)
}

/// `getTransaction`'s config (`RpcTransactionConfig`), or a legacy bare encoding string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TransactionConfig {
    /// How the transaction is encoded (default `json`).
    pub encoding: Encoding,
    /// `confirmed` or `finalized` (default); `processed` is refused.
    pub commitment: Commitment,
    /// The highest transaction version the client accepts (`None`: legacy only).
    pub max_supported_version: Option<u8>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawTransactionConfig {
    encoding: Option<Encoding>,
    #[serde(default, deserialize_with = "lenient_commitment")]
    commitment: Option<Commitment>,
    max_supported_transaction_version: Option<u8>,
}

impl TransactionConfig {
    /// From the second `getTransaction` param: absent, null, a config object, or (legacy) an
    /// encoding string. Errors are Agave's `InvalidParams`: an unknown field value, `processed`, or
    /// base58 with a version of 1 or more.
    pub fn from_param(v: Option<&Value>) -> Result<Self, RpcError> {
        let raw = encoding_or_config(v, |encoding| RawTransactionConfig {
            encoding: Some(encoding),
            ..RawTransactionConfig::default()
        })?;
        check_base58_version(
            raw.encoding.unwrap_or_default(),
            raw.max_supported_transaction_version,
        )?;
        Ok(Self {
            encoding: raw.encoding.unwrap_or_default(),
            commitment: raw.commitment.unwrap_or_default().at_least_confirmed()?,
            max_supported_version: raw.max_supported_transaction_version,
        })
    }
}

/// `getSignaturesForAddress`'s config (`RpcSignaturesForAddressConfig`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SignaturesConfig {
    /// Start below this signature (`None`: from the newest).
    pub before: Option<[u8; 64]>,
    /// Stop at this signature, excluded (`None`: go back as far as the ledger does).
    pub until: Option<[u8; 64]>,
    /// Most signatures to return, 1 to 1,000 (default 1,000).
    pub limit: usize,
    /// `confirmed` or `finalized` (default); `processed` is refused.
    pub commitment: Commitment,
    /// Fail unless the node has reached at least this slot.
    pub min_context_slot: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(
    expecting = "struct RpcSignaturesForAddressConfig",
    rename_all = "camelCase"
)]
struct RawSignaturesConfig {
    before: Option<String>,
    until: Option<String>,
    limit: Option<usize>,
    #[serde(default, deserialize_with = "lenient_commitment")]
    commitment: Option<Commitment>,
    min_context_slot: Option<u64>,
}

impl SignaturesConfig {
    /// From the second `getSignaturesForAddress` param: absent, null or a config object. Errors are
    /// Agave's `InvalidParams`: a limit of 0 or above 1,000, a signature that is not base58 of 64
    /// bytes, or `processed`.
    pub fn from_param(v: Option<&Value>) -> Result<Self, RpcError> {
        let raw = match v {
            None | Some(Value::Null) => RawSignaturesConfig::default(),
            Some(v) => parse::<RawSignaturesConfig>(v)?,
        };
        let limit = raw.limit.unwrap_or(MAX_SIGNATURES_FOR_ADDRESS);
        if limit == 0 || limit > MAX_SIGNATURES_FOR_ADDRESS {
            return Err(RpcError::invalid_params(format!(
                "Invalid limit; max {MAX_SIGNATURES_FOR_ADDRESS}"
            )));
        }
        Ok(Self {
            before: raw.before.as_deref().map(signature).transpose()?,
            until: raw.until.as_deref().map(signature).transpose()?,
            limit,
            commitment: raw.commitment.unwrap_or_default().at_least_confirmed()?,
            min_context_slot: raw.min_context_slot,
        })
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(
    expecting = "struct RpcSignatureStatusConfig",
    rename_all = "camelCase"
)]
struct RawStatusConfig {
    #[serde(default)]
    search_transaction_history: bool,
}

/// `getSignatureStatuses`' `[signatures, {searchTransactionHistory}]`.
pub fn signature_statuses(
    list: &Value,
    config: Option<&Value>,
) -> Result<(Vec<[u8; 64]>, bool), RpcError> {
    let texts: Vec<String> = parse(list)?;
    if texts.len() > MAX_SIGNATURE_STATUSES {
        return Err(RpcError::invalid_params(format!(
            "Too many inputs provided; max {MAX_SIGNATURE_STATUSES}"
        )));
    }
    let signatures = texts
        .iter()
        .map(|t| signature(t))
        .collect::<Result<_, _>>()?;
    let search = match config {
        None | Some(Value::Null) => false,
        Some(v) => parse::<RawStatusConfig>(v)?.search_transaction_history,
    };
    Ok((signatures, search))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn base58_params_fail_as_agaves() {
        let sig = bs58::encode([7u8; 64]).into_string();
        assert_eq!(signature(&sig).expect("valid"), [7u8; 64]);
        let msg = |e: RpcError| (e.code(), e.to_string());
        assert_eq!(
            msg(signature("0OIl").expect_err("not base58")),
            (-32602, "Invalid param: Invalid".into())
        );
        assert_eq!(
            msg(signature("abc").expect_err("short")),
            (-32602, "Invalid param: WrongSize".into())
        );
        assert_eq!(
            msg(pubkey(&"1".repeat(45)).expect_err("long")),
            (-32602, "Invalid param: WrongSize".into())
        );
        assert_eq!(
            pubkey("11111111111111111111111111111111").expect("system"),
            [0u8; 32]
        );
    }

    #[test]
    fn limits_and_defaults() {
        let c = SignaturesConfig::from_param(None).expect("default");
        assert_eq!((c.limit, c.before, c.until), (1000, None, None));
        for bad in [
            json!({"limit": 0}),
            json!({"limit": 1001}),
            json!({"commitment": "processed"}),
            json!({"before": "x"}),
        ] {
            assert_eq!(
                SignaturesConfig::from_param(Some(&bad))
                    .expect_err("bad")
                    .code(),
                -32602,
                "{bad}"
            );
        }
        assert_eq!(
            SignaturesConfig::from_param(Some(&json!({"limit": 1001})))
                .expect_err("limit")
                .to_string(),
            "Invalid limit; max 1000"
        );
        let many = json!(vec![bs58::encode([1u8; 64]).into_string(); 257]);
        assert_eq!(
            signature_statuses(&many, None)
                .expect_err("257")
                .to_string(),
            "Too many inputs provided; max 256"
        );
        let (sigs, search) =
            signature_statuses(&json!([]), Some(&json!({"searchTransactionHistory": true})))
                .expect("ok");
        assert!(sigs.is_empty() && search);
        let t = TransactionConfig::from_param(Some(&json!("base64"))).expect("legacy string");
        assert_eq!(t.encoding, Encoding::Base64);
        let t = TransactionConfig::from_param(Some(&json!({"maxSupportedTransactionVersion": 0})))
            .expect("config");
        assert_eq!(
            (t.encoding, t.max_supported_version),
            (Encoding::Json, Some(0))
        );
    }
}
