//! `history`: the answers file (`--out`) recording Agave's RPC answers over a ledger it
//! wrote, and the command's printed summary. Requests and answers are kept as Agave's
//! JSON (`J`, serde_json's `Value` on both sides): bstore must reproduce them value for
//! value, so they are compared, not interpreted.

use serde::{Deserialize, Serialize};

use crate::present::present;

/// The answers file: every recorded request beside Agave's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HistoryAnswers<J> {
    /// The seed every key and hash was drawn from (`--seed`).
    pub seed: u64,
    /// The ledger's highest root: what finalized commitment reaches.
    pub highest_root: u64,
    /// Agave's `get_first_available_block`.
    pub first_available_block: u64,
    /// What each slot of the range holds, ascending.
    pub slots: Vec<HistorySlot>,
    /// `getBlock` of every slot in every encoding, detail level, rewards and version option.
    #[serde(rename = "getBlock")]
    pub get_block: Vec<BlockCase<J>>,
    /// `getTransaction` of every signature (and one unknown) in every encoding.
    #[serde(rename = "getTransaction")]
    pub get_transaction: Vec<TransactionCase<J>>,
    /// `getSignaturesForAddress` of every address, with paging windows.
    #[serde(rename = "getSignaturesForAddress")]
    pub get_signatures_for_address: Vec<SignaturesCase<J>>,
    /// `getSignatureStatuses` of every signature at once.
    #[serde(rename = "getSignatureStatuses")]
    pub get_signature_statuses: Vec<StatusesCase<J>>,
}

/// A slot of the history range.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum HistorySlot {
    /// A slot the ledger holds, rooted.
    Written(WrittenSlot),
    /// A slot with no block: skipped, or past the highest root.
    Gap(GapSlot),
}

/// A slot the ledger holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WrittenSlot {
    /// The slot.
    pub slot: u64,
    /// Its parent.
    pub parent: u64,
    /// Always true.
    pub rooted: bool,
    /// What the slot is there to cover.
    pub note: String,
    /// Its transactions' signatures (base58), in block order.
    pub signatures: Vec<String>,
    /// The signatures among them written without a status row.
    pub without_status: Vec<String>,
    /// Its block time (Unix seconds), when written.
    pub block_time: Option<i64>,
    /// Its block height, when written.
    pub block_height: Option<u64>,
}

/// A slot with no block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GapSlot {
    /// The slot.
    pub slot: u64,
    /// Always false.
    pub rooted: bool,
    /// Why it has no block.
    pub note: String,
}

/// What Agave answered a recorded request.
#[derive(Debug, PartialEq, Eq)]
pub enum Answer<'a, J> {
    /// The JSON-RPC `result` (`null` included).
    Result(&'a J),
    /// The JSON-RPC `error` object.
    Error(&'a J),
}

// By hand: a derive would ask `J: Copy`, but only references are copied.
impl<J> Clone for Answer<'_, J> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<J> Copy for Answer<'_, J> {}

/// The answer of a case holding exactly one of `result` and `error`.
fn answer<'a, J>(result: &'a Option<J>, error: &'a Option<J>) -> Option<Answer<'a, J>> {
    match (result, error) {
        (Some(result), None) => Some(Answer::Result(result)),
        (None, Some(error)) => Some(Answer::Error(error)),
        _ => None,
    }
}

/// One `getBlock` request and its answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound(deserialize = "J: Deserialize<'de>"))]
pub struct BlockCase<J> {
    /// The slot asked for.
    pub slot: u64,
    /// The request's config object.
    pub config: BlockConfig,
    /// Agave's `result`, when it answered one.
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub result: Option<J>,
    /// Agave's `error`, when it refused.
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub error: Option<J>,
}

impl<J> BlockCase<J> {
    /// Agave's answer; `None` unless exactly one of `result` and `error` is there.
    pub fn answer(&self) -> Option<Answer<'_, J>> {
        answer(&self.result, &self.error)
    }
}

/// `getBlock`'s config object as the request sends it (a `None` version is left out).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct BlockConfig {
    /// `json`, `jsonParsed`, `base58` or `base64`.
    pub encoding: String,
    /// `full`, `accounts`, `signatures` or `none`.
    pub transaction_details: String,
    /// Whether rewards are shown.
    pub rewards: bool,
    /// The highest transaction version the client takes; `None`: legacy only.
    pub max_supported_transaction_version: Option<u8>,
}

/// One `getTransaction` request and its answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound(deserialize = "J: Deserialize<'de>"))]
pub struct TransactionCase<J> {
    /// The signature asked for (base58).
    pub signature: String,
    /// The request's config object.
    pub config: TransactionConfig,
    /// Agave's `result` (`null`: not found), when it answered one.
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub result: Option<J>,
    /// Agave's `error`, when it refused.
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub error: Option<J>,
}

impl<J> TransactionCase<J> {
    /// Agave's answer; `None` unless exactly one of `result` and `error` is there.
    pub fn answer(&self) -> Option<Answer<'_, J>> {
        answer(&self.result, &self.error)
    }
}

/// `getTransaction`'s config object as the request sends it (a `None` version is left
/// out).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TransactionConfig {
    /// `json`, `jsonParsed`, `base58` or `base64`.
    pub encoding: String,
    /// The highest transaction version the client takes; `None`: legacy only.
    pub max_supported_transaction_version: Option<u8>,
}

/// One `getSignaturesForAddress` request and its answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound(deserialize = "J: Deserialize<'de>"))]
pub struct SignaturesCase<J> {
    /// The address asked for (base58).
    pub address: String,
    /// The request's config object.
    pub config: SignaturesConfig,
    /// Agave's `result`, when it answered one.
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub result: Option<J>,
    /// Agave's `error`, when it refused.
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub error: Option<J>,
}

impl<J> SignaturesCase<J> {
    /// Agave's answer; `None` unless exactly one of `result` and `error` is there.
    pub fn answer(&self) -> Option<Answer<'_, J>> {
        answer(&self.result, &self.error)
    }
}

/// `getSignaturesForAddress`'s config object; members not set are left out.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignaturesConfig {
    /// Start below this signature (base58).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<String>,
    /// Stop at this signature (base58).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<String>,
    /// At most this many signatures.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
}

/// The `getSignatureStatuses` request and its answer's `value` (the context slot is the
/// node's, so it is not recorded).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound(deserialize = "J: Deserialize<'de>"))]
pub struct StatusesCase<J> {
    /// The signatures asked for (base58).
    pub signatures: Vec<String>,
    /// The request's config object.
    pub config: StatusesConfig,
    /// The `value` of Agave's `result`, when it answered one.
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub value: Option<J>,
    /// Agave's `error`, when it refused.
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub error: Option<J>,
}

impl<J> StatusesCase<J> {
    /// Agave's answer (`Result` holds the `value`); `None` unless exactly one of `value`
    /// and `error` is there.
    pub fn answer(&self) -> Option<Answer<'_, J>> {
        answer(&self.value, &self.error)
    }
}

/// `getSignatureStatuses`' config object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct StatusesConfig {
    /// Look past the status cache, in the ledger.
    pub search_transaction_history: bool,
}

/// What `history` printed: where it wrote, and how the answers came out per method.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HistorySummary {
    /// The ledger written (`--ledger`).
    pub ledger: String,
    /// The answers file written (`--out`).
    pub out: String,
    /// `--seed`.
    pub seed: u64,
    /// Slots written.
    pub slots: u64,
    /// Transactions written.
    pub transactions: u64,
    /// `getBlock` answers.
    #[serde(rename = "getBlock")]
    pub get_block: MethodCount,
    /// `getTransaction` answers.
    #[serde(rename = "getTransaction")]
    pub get_transaction: MethodCount,
    /// `getSignaturesForAddress` answers.
    #[serde(rename = "getSignaturesForAddress")]
    pub get_signatures_for_address: MethodCount,
    /// `getSignatureStatuses` answers.
    #[serde(rename = "getSignatureStatuses")]
    pub get_signature_statuses: MethodCount,
}

/// How one method's recorded requests were answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MethodCount {
    /// Requests recorded.
    pub requests: u64,
    /// Answered with an `error`.
    pub errors: u64,
    /// Answered with a `null` result.
    #[serde(rename = "null")]
    pub nulls: u64,
}
