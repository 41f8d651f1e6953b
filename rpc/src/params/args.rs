//! Method name + params → a typed call, before any ledger access. Every method's params are
//! read here (and only here), so the fuzz target covers exactly what the server parses.
//! Errors are Agave's: an unknown method is -32601, wrong params -32602.

use bstore_ledger::Slot;
use serde_json::Value;

use crate::error::RpcError;
use crate::params::config::parse_untagged;
use crate::params::history::{self, SignaturesConfig, TransactionConfig};
use crate::params::{BlockConfig, ContextConfig, Params, no_params, parse};

/// A request the server knows how to answer, with its params parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Call {
    /// `getBlock`: one block with its transactions.
    GetBlock {
        /// The block's slot.
        slot: Slot,
        /// Encoding, transaction details, rewards, commitment and highest transaction version.
        config: BlockConfig,
    },
    /// `getBlocks`: the slots in a range that hold blocks.
    GetBlocks {
        /// First slot of the range (inclusive).
        start: Slot,
        /// Last slot of the range (inclusive); `None`: up to the highest slot at the commitment, at
        /// most 500,000 slots past `start`.
        end: Option<Slot>,
        /// Commitment and `minContextSlot`.
        config: ContextConfig,
    },
    /// `getBlocksWithLimit`: the first slots from a start that hold blocks.
    GetBlocksWithLimit {
        /// First slot to look at (inclusive).
        start: Slot,
        /// Most slots to return.
        limit: usize,
        /// Commitment and `minContextSlot`.
        config: ContextConfig,
    },
    /// `getBlockTime`: a block's estimated production time.
    GetBlockTime {
        /// The block's slot.
        slot: Slot,
    },
    /// `getBlockHeight`: the height of the highest block at the commitment.
    GetBlockHeight {
        /// Commitment and `minContextSlot`.
        config: ContextConfig,
    },
    /// `getFirstAvailableBlock`: the lowest slot the ledger (or the archive) still holds.
    GetFirstAvailableBlock,
    /// `getSlot`: the highest slot at the commitment.
    GetSlot {
        /// Commitment and `minContextSlot`.
        config: ContextConfig,
    },
    /// `getMaxShredInsertSlot`: the highest slot any shred was stored for.
    GetMaxShredInsertSlot,
    /// `getTransaction`: one transaction and its status meta, by signature.
    GetTransaction {
        /// The transaction's first signature (decoded from base58).
        signature: [u8; 64],
        /// Encoding, commitment and highest transaction version.
        config: TransactionConfig,
    },
    /// `getSignaturesForAddress`: the signatures of transactions that touched an address, newest
    /// first.
    GetSignaturesForAddress {
        /// The address (decoded from base58).
        address: [u8; 32],
        /// `before`, `until`, `limit`, commitment and `minContextSlot`.
        config: SignaturesConfig,
    },
    /// `getSignatureStatuses`: the status of each signature.
    GetSignatureStatuses {
        /// The signatures asked for, in request order (decoded from base58).
        signatures: Vec<[u8; 64]>,
        /// Also look past the recent status cache, in the whole ledger (Agave's
        /// `searchTransactionHistory`).
        search_transaction_history: bool,
    },
    /// `getHealth`: whether the node is serving.
    GetHealth,
    /// `getVersion`: the software version this server reports.
    GetVersion,
}

/// The untagged enum Agave reads `getBlocks`' second param as.
const BLOCKS_WRAPPER: &str = "RpcBlocksConfigWrapper";

fn context_config(params: &Params, i: usize) -> Result<ContextConfig, RpcError> {
    Ok(params.optional::<ContextConfig>(i)?.unwrap_or_default())
}

impl Call {
    /// Parses `params` for `method`.
    pub fn parse(method: &str, params: Option<Value>) -> Result<Self, RpcError> {
        if !Self::is_known(method) {
            return Err(RpcError::MethodNotFound {
                method: method.to_string(),
            });
        }
        // Agave's methods without params.
        let none = match method {
            "getFirstAvailableBlock" => Some(Self::GetFirstAvailableBlock),
            "getMaxShredInsertSlot" => Some(Self::GetMaxShredInsertSlot),
            "getHealth" => Some(Self::GetHealth),
            "getVersion" => Some(Self::GetVersion),
            _ => None,
        };
        if let Some(call) = none {
            no_params(params.as_ref())?;
            return Ok(call);
        }
        // Agave's one method here whose params are all required reads them as a tuple
        // (serde's messages for a wrong count or shape, null and absent params included).
        if method == "getBlockTime" {
            let (slot,): (u64,) = parse(&params.unwrap_or(Value::Null))?;
            return Ok(Self::GetBlockTime { slot: Slot(slot) });
        }
        let p = Params::new(params)?;
        Ok(match method {
            "getBlock" => {
                p.arity(1, 2)?;
                Self::GetBlock {
                    slot: Slot(p.required(0)?),
                    config: BlockConfig::from_param(p.raw(1))?,
                }
            }
            // `[startSlot, endSlot?, config?]`; as in Agave the second may be the config
            // (its untagged `RpcBlocksConfigWrapper`), which then wins over the third.
            "getBlocks" => {
                p.arity(1, 3)?;
                let start = Slot(p.required(0)?);
                let (end, second) = match p.raw(1) {
                    None => (None, None),
                    Some(v @ Value::Object(_)) => (
                        None,
                        Some(parse_untagged::<ContextConfig>(v, BLOCKS_WRAPPER)?),
                    ),
                    Some(v) => (Some(Slot(parse_untagged::<u64>(v, BLOCKS_WRAPPER)?)), None),
                };
                let third = p.optional::<ContextConfig>(2)?;
                let config = second.or(third).unwrap_or_default();
                Self::GetBlocks { start, end, config }
            }
            "getBlocksWithLimit" => {
                p.arity(2, 3)?;
                Self::GetBlocksWithLimit {
                    start: Slot(p.required(0)?),
                    limit: p.required(1)?,
                    config: context_config(&p, 2)?,
                }
            }
            "getBlockHeight" => {
                p.arity(0, 1)?;
                Self::GetBlockHeight {
                    config: context_config(&p, 0)?,
                }
            }
            "getSlot" => {
                p.arity(0, 1)?;
                Self::GetSlot {
                    config: context_config(&p, 0)?,
                }
            }
            "getTransaction" => {
                p.arity(1, 2)?;
                let text: String = p.required(0)?;
                Self::GetTransaction {
                    signature: history::signature(&text)?,
                    config: TransactionConfig::from_param(p.raw(1))?,
                }
            }
            "getSignaturesForAddress" => {
                p.arity(1, 2)?;
                let text: String = p.required(0)?;
                Self::GetSignaturesForAddress {
                    address: history::pubkey(&text)?,
                    config: SignaturesConfig::from_param(p.raw(1))?,
                }
            }
            "getSignatureStatuses" => {
                p.arity(1, 2)?;
                let list: Value = p.required(0)?;
                let (signatures, search) = history::signature_statuses(&list, p.raw(1))?;
                Self::GetSignatureStatuses {
                    signatures,
                    search_transaction_history: search,
                }
            }
            // Unreachable: `is_known` above names only methods handled here or before.
            _ => {
                return Err(RpcError::MethodNotFound {
                    method: method.to_string(),
                });
            }
        })
    }

    fn is_known(method: &str) -> bool {
        matches!(
            method,
            "getBlock"
                | "getBlocks"
                | "getBlocksWithLimit"
                | "getBlockTime"
                | "getBlockHeight"
                | "getFirstAvailableBlock"
                | "getSlot"
                | "getMaxShredInsertSlot"
                | "getTransaction"
                | "getSignaturesForAddress"
                | "getSignatureStatuses"
                | "getHealth"
                | "getVersion"
        )
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn typed_calls_and_errors() {
        let c = Call::parse("getBlocks", Some(json!([5, {"commitment": "confirmed"}])));
        assert!(matches!(c, Ok(Call::GetBlocks { end: None, .. })), "{c:?}");
        let c = Call::parse("getBlocks", Some(json!([5, 9])));
        assert!(
            matches!(
                c,
                Ok(Call::GetBlocks {
                    end: Some(Slot(9)),
                    ..
                })
            ),
            "{c:?}"
        );
        assert_eq!(
            Call::parse("getBlok", None).expect_err("unknown").code(),
            -32601
        );
        assert_eq!(
            Call::parse("getSlot", Some(json!([{}, 1])))
                .expect_err("too many")
                .code(),
            -32602
        );
        assert_eq!(
            Call::parse("getHealth", Some(json!(null))).expect("ok"),
            Call::GetHealth
        );
    }
}
