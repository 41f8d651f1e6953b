//! The vote payloads of `VoteInstruction` and their JSON: `Vote`, `VoteStateUpdate` (plain
//! bincode and the compact form) and `TowerSync` (compact only).
//!
//! The compact forms (`serde_compact_vote_state_update`, `serde_tower_sync`) carry the
//! root as a `u64` (`u64::MAX` = none), then a `ShortU16`-counted list of lockout offsets
//! (`VarInt` slot offset from the previous slot, starting at the root or 0, and a `u8`
//! confirmation count), the hash, an optional timestamp and, for a tower sync, the block
//! id. An offset that overflows the slot is an error, as in Agave.

use serde_json::{Value, json};

use super::b58;
use super::reader::Reader;

/// `Lockout` as serde writes it (its field names are not camel-cased).
fn lockout(slot: u64, confirmation_count: u32) -> Value {
    json!({"slot": slot, "confirmation_count": confirmation_count})
}

/// `Vote { slots: Vec<Slot>, hash, timestamp: Option<UnixTimestamp> }`.
pub(super) fn vote(r: &mut Reader<'_>) -> Option<Value> {
    let n = r.bincode_len(8)?;
    let mut slots = Vec::with_capacity(n);
    for _ in 0..n {
        slots.push(r.u64()?);
    }
    let hash = r.pubkey()?;
    let timestamp = r.option(Reader::i64)?;
    Some(json!({"slots": slots, "hash": b58(&hash), "timestamp": timestamp}))
}

/// `VoteStateUpdate` in plain bincode: a `u64`-counted `VecDeque<Lockout>` (`u64` slot,
/// `u32` confirmation count), `Option<Slot>` root, hash, `Option<UnixTimestamp>`.
pub(super) fn vote_state_update(r: &mut Reader<'_>) -> Option<Value> {
    let n = r.bincode_len(12)?;
    let mut lockouts = Vec::with_capacity(n);
    for _ in 0..n {
        lockouts.push(lockout(r.u64()?, r.u32()?));
    }
    let root = r.option(Reader::u64)?;
    update(r, lockouts, root)
}

/// The compact `VoteStateUpdate`.
pub(super) fn compact_vote_state_update(r: &mut Reader<'_>) -> Option<Value> {
    let (lockouts, root) = compact_lockouts(r)?;
    update(r, lockouts, root)
}

/// The compact `TowerSync`: a compact update followed by the block id.
pub(super) fn tower_sync(r: &mut Reader<'_>) -> Option<Value> {
    let mut tower = compact_vote_state_update(r)?;
    let block_id = r.pubkey()?;
    if let Value::Object(map) = &mut tower {
        map.insert("blockId".into(), b58(&block_id).into());
    }
    Some(tower)
}

/// The update's JSON, reading the hash and timestamp that follow the lockouts and root.
fn update(r: &mut Reader<'_>, lockouts: Vec<Value>, root: Option<u64>) -> Option<Value> {
    let hash = r.pubkey()?;
    let timestamp = r.option(Reader::i64)?;
    Some(json!({
        "lockouts": lockouts,
        "root": root,
        "hash": b58(&hash),
        "timestamp": timestamp,
    }))
}

/// The root and the lockouts (absolute slots) of a compact encoding.
fn compact_lockouts(r: &mut Reader<'_>) -> Option<(Vec<Value>, Option<u64>)> {
    let root = r.u64()?;
    let root = (root != u64::MAX).then_some(root);
    let n = usize::from(r.short_u16()?);
    // Each offset takes at least two bytes: never reserve for more than are present.
    let mut lockouts = Vec::with_capacity(n.min(r.rest().len() / 2));
    let mut slot = root.unwrap_or_default();
    for _ in 0..n {
        let offset = r.varint_u64()?;
        let confirmation_count = r.u8()?;
        // An overflowing offset fails the whole decoding, as in Agave.
        slot = slot.checked_add(offset)?;
        lockouts.push(lockout(slot, u32::from(confirmation_count)));
    }
    Some((lockouts, root))
}

#[cfg(test)]
#[path = "tests/vote_state.rs"]
mod tests;
