//! Members that may hold `null` and may also be absent (a JSON-RPC answer is `result` or
//! `error`, and a `null` result is an answer).

use serde::{Deserialize, Deserializer};

/// Deserializes a member that is there to `Some`, even when it is `null`. With
/// `#[serde(default)]` an absent member stays `None`, so `{"result": null}` and `{}` differ.
pub(crate) fn present<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(deserializer).map(Some)
}
