//! Positional params and the config objects of the methods (`docs/consumers.md#rpc-getblock`), with
//! Agave's
//! defaults and its legacy spellings. A wrong type or value is `InvalidParams` with serde's
//! reason, as Agave's JSON-RPC layer reports it ("Invalid params: ...").

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::RpcError;

/// A request's `params`: absent, `null` or an array (bstore's methods are positional), with
/// the count and shape errors of Agave's JSON-RPC layer (its `jsonrpc-derive`).
#[derive(Debug)]
pub struct Params(Vec<Value>);

impl Params {
    /// Wraps a request's `params`: `InvalidParams` (`` `params` should be an array ``)
    /// when they are neither absent, null nor an array.
    pub fn new(params: Option<Value>) -> Result<Self, RpcError> {
        match params {
            None | Some(Value::Null) => Ok(Self(Vec::new())),
            Some(Value::Array(items)) => Ok(Self(items)),
            Some(_) => Err(RpcError::invalid_params("`params` should be an array")),
        }
    }

    /// Fails unless there are `required` to `total` params (Agave's count: its required
    /// params are those before the first optional one).
    pub fn arity(&self, required: usize, total: usize) -> Result<(), RpcError> {
        let got = self.0.len();
        if got < required {
            return Err(RpcError::invalid_params(format!(
                "`params` should have at least {required} argument(s)"
            )));
        }
        if got > total {
            return Err(RpcError::InvalidParamsDetail {
                message: format!(
                    "Invalid parameters: Expected from {required} to {total} parameters."
                ),
                detail: format!("{:?}", format!("Got: {got}")),
            });
        }
        Ok(())
    }

    /// Param `i`, which must be present (null is parsed, and refused by any type but an
    /// option, as in Agave). After [`Self::arity`] a required param is always present; a
    /// missing one gets `arity`'s message.
    pub fn required<T: DeserializeOwned>(&self, i: usize) -> Result<T, RpcError> {
        match self.0.get(i) {
            None => Err(RpcError::invalid_params(format!(
                "`params` should have at least {} argument(s)",
                i + 1
            ))),
            Some(v) => parse(v),
        }
    }

    /// Param `i`; absent or null is `None`.
    pub fn optional<T: DeserializeOwned>(&self, i: usize) -> Result<Option<T>, RpcError> {
        match self.0.get(i) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => parse(v).map(Some),
        }
    }

    /// Param `i` as raw JSON (for params whose shape decides their meaning).
    pub fn raw(&self, i: usize) -> Option<&Value> {
        self.0.get(i).filter(|v| !v.is_null())
    }
}

/// Fails unless a method that takes no params got none (absent, null or `[]`): Agave's
/// error shows what it got, as Rust's debug text of its `Params` value.
pub fn no_params(params: Option<&Value>) -> Result<(), RpcError> {
    let got = match params {
        None | Some(Value::Null) => return Ok(()),
        Some(Value::Array(items)) if items.is_empty() => return Ok(()),
        Some(Value::Array(items)) => format!("Array({items:?})"),
        Some(Value::Object(map)) => format!("Map({map:?})"),
        // Scalars never get here: the envelope refuses them (`request.rs`).
        Some(other) => format!("{other:?}"),
    };
    Err(RpcError::InvalidParamsDetail {
        message: "Invalid parameters: No parameters were expected".into(),
        detail: got,
    })
}

/// Parses one param (or config object) with serde, mapping errors to `InvalidParams`.
pub fn parse<T: DeserializeOwned>(v: &Value) -> Result<T, RpcError> {
    T::deserialize(v).map_err(|e| RpcError::invalid_params(format!("Invalid params: {e}.")))
}

/// Parses a param Agave reads as an untagged enum (`getBlock`'s and `getTransaction`'s
/// `RpcEncodingConfigWrapper`: a bare encoding or a config object; `getBlocks`'
/// `RpcBlocksConfigWrapper`: an end slot or a config object), so whatever fails to parse
/// in it fails with that enum's one message.
pub(crate) fn parse_untagged<T: DeserializeOwned>(v: &Value, wrapper: &str) -> Result<T, RpcError> {
    T::deserialize(v).map_err(|_| {
        RpcError::invalid_params(format!(
            "Invalid params: data did not match any variant of untagged enum {wrapper}."
        ))
    })
}

/// The untagged enum Agave reads `getBlock`'s and `getTransaction`'s config as.
const ENCODING_WRAPPER: &str = "RpcEncodingConfigWrapper";

/// Reads a param Agave takes as `RpcEncodingConfigWrapper`: absent (or null), a bare
/// encoding (the config `with` makes of it), or a config object.
pub(crate) fn encoding_or_config<R: Default + DeserializeOwned>(
    v: Option<&Value>,
    with: fn(Encoding) -> R,
) -> Result<R, RpcError> {
    match v {
        None | Some(Value::Null) => Ok(R::default()),
        Some(s @ Value::String(_)) => Ok(with(parse_untagged(s, ENCODING_WRAPPER)?)),
        Some(v) => parse_untagged(v, ENCODING_WRAPPER),
    }
}

/// Commitment levels as Agave 4.x reads them: only these three names (the old aliases
/// `recent`, `single`, `singleGossip`, `root` and `max` are gone; see
/// [`lenient_commitment`] for what they mean now).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub enum Commitment {
    /// The node's latest slot, possibly on a fork; block methods refuse it.
    Processed,
    /// Voted on by a supermajority of the cluster.
    Confirmed,
    /// Rooted: cannot be rolled back; the default.
    #[default]
    Finalized,
}

/// The `commitment` member of a config object. Agave's configs hold it as a flattened
/// optional `CommitmentConfig`, and serde turns a flattened option that fails to parse
/// into `None`: an unknown level, an old alias or a value of another type is no
/// commitment at all, and the method's default (`finalized`) applies (checked against a
/// 4.4.0 validator: `"recent"` answers as `finalized`).
pub(crate) fn lenient_commitment<'de, D>(d: D) -> Result<Option<Commitment>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    let value = Value::deserialize(d)?;
    Ok(Commitment::deserialize(&value).ok())
}

impl Commitment {
    /// Block methods refuse `processed`, with Agave's message.
    pub fn at_least_confirmed(self) -> Result<Self, RpcError> {
        match self {
            Self::Processed => Err(RpcError::invalid_params(
                "Method does not support commitment below `confirmed`",
            )),
            other => Ok(other),
        }
    }
}

/// How transactions are encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub enum Encoding {
    /// JSON with account keys and instruction data as text (base58); the default.
    #[default]
    Json,
    /// Parsed keys and instructions of the programs Agave parses (`bstore_parsed`).
    JsonParsed,
    /// The serialized transaction as a base58 string (refused for transactions of version 1 or
    /// more).
    Base58,
    /// The serialized transaction as a base64 string.
    Base64,
    /// Legacy: a bare base58 string.
    Binary,
}

/// How much of each transaction a block carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub enum TransactionDetails {
    /// Transactions with their status meta (the default).
    #[default]
    Full,
    /// Only each transaction's first signature.
    Signatures,
    /// No transactions.
    None,
    /// Each transaction's account keys (with their signer and writable flags) and a shortened meta.
    Accounts,
}

/// `getBlock`'s config object (Agave `RpcBlockConfig`; unknown fields are ignored as there).
#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawBlockConfig {
    encoding: Option<Encoding>,
    transaction_details: Option<TransactionDetails>,
    rewards: Option<bool>,
    #[serde(default, deserialize_with = "lenient_commitment")]
    commitment: Option<Commitment>,
    max_supported_transaction_version: Option<u8>,
}

/// `getBlock`'s config with Agave's defaults applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BlockConfig {
    /// How transactions are encoded (default `json`).
    pub encoding: Encoding,
    /// How much of each transaction the block carries (default `full`).
    pub details: TransactionDetails,
    /// Agave's default is `true`.
    pub rewards: bool,
    /// `confirmed` or `finalized` (default); `processed` is refused.
    pub commitment: Commitment,
    /// The highest transaction version the client accepts (`None`: legacy only).
    pub max_supported_version: Option<u8>,
}

impl BlockConfig {
    /// From the second `getBlock` param: absent, a config object, or (legacy) an encoding
    /// string.
    pub fn from_param(v: Option<&Value>) -> Result<Self, RpcError> {
        let raw = encoding_or_config(v, |encoding| RawBlockConfig {
            encoding: Some(encoding),
            ..RawBlockConfig::default()
        })?;
        let encoding = raw.encoding.unwrap_or_default();
        check_base58_version(encoding, raw.max_supported_transaction_version)?;
        Ok(Self {
            encoding,
            details: raw.transaction_details.unwrap_or_default(),
            rewards: raw.rewards.unwrap_or(true),
            commitment: raw.commitment.unwrap_or_default().at_least_confirmed()?,
            max_supported_version: raw.max_supported_transaction_version,
        })
    }
}

/// Agave 4.4 refuses base58 (and its legacy alias `binary`) with a
/// `maxSupportedTransactionVersion` of 1 or more, before looking at anything else (a v1
/// transaction may be 4,096 bytes, too long for base58).
pub fn check_base58_version(encoding: Encoding, max_supported: Option<u8>) -> Result<(), RpcError> {
    let base58 = matches!(encoding, Encoding::Base58 | Encoding::Binary);
    if base58 && max_supported.is_some_and(|v| v >= 1) {
        return Err(RpcError::invalid_params(
            "base58 encoding is not supported with maxSupportedTransactionVersion >= 1",
        ));
    }
    Ok(())
}

/// The context config of the slot methods (Agave `RpcContextConfig`, whose name its
/// errors show).
#[derive(Debug, Clone, Copy, Default, Deserialize, PartialEq, Eq)]
#[serde(expecting = "struct RpcContextConfig", rename_all = "camelCase")]
pub struct ContextConfig {
    /// The commitment the answer is taken at (`None`: `finalized`).
    #[serde(default, deserialize_with = "lenient_commitment")]
    pub commitment: Option<Commitment>,
    /// Fail unless the node has reached at least this slot.
    #[serde(default)]
    pub min_context_slot: Option<u64>,
}

impl ContextConfig {
    /// The commitment asked for, `finalized` when none was given.
    pub fn commitment(&self) -> Commitment {
        self.commitment.unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn block_config_defaults_and_legacy_forms() {
        let c = BlockConfig::from_param(None).expect("default");
        assert_eq!(c.encoding, Encoding::Json);
        assert_eq!(c.details, TransactionDetails::Full);
        assert!(c.rewards);
        assert_eq!(c.commitment, Commitment::Finalized);
        assert_eq!(c.max_supported_version, None);
        let c = BlockConfig::from_param(Some(&json!("base64"))).expect("legacy string");
        assert_eq!(c.encoding, Encoding::Base64);
        let c = BlockConfig::from_param(Some(&json!({
            "encoding": "base58", "transactionDetails": "accounts", "rewards": false,
            "commitment": "confirmed", "maxSupportedTransactionVersion": 0, "unknown": 1
        })))
        .expect("full config");
        assert_eq!(c.details, TransactionDetails::Accounts);
        assert_eq!(c.max_supported_version, Some(0));
        assert!(!c.rewards);
    }

    #[test]
    fn base58_needs_a_max_version_below_1() {
        for encoding in ["base58", "binary"] {
            for max in [1, 255] {
                let e = BlockConfig::from_param(Some(&json!({
                    "encoding": encoding, "maxSupportedTransactionVersion": max,
                    "commitment": "processed"
                })))
                .expect_err("refused");
                assert_eq!(e.code(), -32602);
                assert_eq!(
                    e.to_string(),
                    "base58 encoding is not supported with maxSupportedTransactionVersion >= 1",
                    "checked before the commitment"
                );
            }
            let ok = json!({"encoding": encoding, "maxSupportedTransactionVersion": 0});
            BlockConfig::from_param(Some(&ok)).expect("version 0 is fine");
        }
        let ok = json!({"encoding": "base64", "maxSupportedTransactionVersion": 1});
        BlockConfig::from_param(Some(&ok)).expect("base64 is fine");
    }

    #[test]
    fn block_config_errors_are_invalid_params() {
        for bad in [
            json!({"commitment": "processed"}),
            json!({"encoding": "hex"}),
            json!({"maxSupportedTransactionVersion": 256}),
            json!({"rewards": "yes"}),
            json!(7),
        ] {
            let e = BlockConfig::from_param(Some(&bad)).expect_err("must fail");
            assert_eq!(e.code(), -32602, "{bad}");
        }
    }

    #[test]
    fn params_shape() {
        let p = Params::new(Some(json!([5, null]))).expect("array");
        assert_eq!(p.required::<u64>(0).expect("slot"), 5);
        assert_eq!(p.optional::<u64>(1).expect("null"), None);
        assert!(p.required::<u64>(1).is_err());
        assert!(p.required::<u64>(2).is_err());
        assert!(p.arity(1, 1).is_err());
        assert!(p.arity(3, 4).is_err());
        assert!(p.arity(0, 2).is_ok());
        assert!(Params::new(Some(json!({"slot": 5}))).is_err());
        assert!(no_params(Some(&json!([]))).is_ok());
        let e = no_params(Some(&json!([1, "a", {"b": null}]))).expect_err("params");
        assert_eq!(
            e.data(),
            Some(json!(
                r#"Array([Number(1), String("a"), Object {"b": Null}])"#
            ))
        );
        let p = Params::new(Some(json!([-1]))).expect("array");
        assert_eq!(p.required::<u64>(0).expect_err("neg").code(), -32602);
    }
}
