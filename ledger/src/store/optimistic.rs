//! The `optimistic_slots` column: the validator's record of each slot it saw optimistically
//! confirmed (votes of more than two thirds of the stake), written by its vote listener
//! right after it tells the RPC's confirmed-bank tracker (Agave's
//! `Blockstore::insert_optimistic_slot`). RPC's `confirmed` commitment is read from it
//! (`rpc/src/methods/chain.rs`): bstore has no votes of its own.
//!
//! Value (Agave's bincode `OptimisticSlotMetaVersioned::V0`): u32 LE variant 0, the slot's
//! bank hash (32 bytes), the Unix time in milliseconds it was recorded (i64 LE): 44 bytes.
//! Only the keys are read here; the value is kept as written.

use std::ops::RangeBounds;

use super::blockstore::{Blockstore, DefaultEngine};
use super::column::Column;
use super::columns::{self, OptimisticSlots};
use super::ends_memo::LedgerEnd;
use super::kv::{Direction, KvEngine};
use super::roots::key_bounds;
use super::typed::RangeIter;
use crate::error::Result;
use crate::types::{Hash, Slot};

/// Optimistically confirmed slots in slot order, highest first (see
/// [`Blockstore::optimistic_slots_rev`]); a key that does not decode is an `Err` item.
pub struct OptimisticSlotIter<'a, E: KvEngine = DefaultEngine>(
    RangeIter<'a, E, OptimisticSlots, Slot>,
);

impl<E: KvEngine> Iterator for OptimisticSlotIter<'_, E> {
    type Item = Result<Slot>;
    fn next(&mut self) -> Option<Result<Slot>> {
        self.0.next()
    }
}

impl<E: KvEngine> std::fmt::Debug for OptimisticSlotIter<'_, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OptimisticSlotIter")
    }
}

fn decode_slot(key: &[u8], _value: &[u8]) -> Result<Slot> {
    OptimisticSlots::decode_key(key)
}

/// Agave's value for a slot confirmed with bank hash `hash` at `unix_ms`.
fn encode_value(hash: &Hash, unix_ms: i64) -> Vec<u8> {
    let mut value = Vec::with_capacity(44);
    value.extend_from_slice(&0u32.to_le_bytes());
    value.extend_from_slice(&hash.0);
    value.extend_from_slice(&unix_ms.to_le_bytes());
    value
}

impl<E: KvEngine> Blockstore<E> {
    /// Records `slot` as optimistically confirmed with bank hash `hash` at `unix_ms`
    /// (Unix milliseconds), as Agave's `insert_optimistic_slot` does.
    pub fn set_optimistic_slot(&self, slot: Slot, hash: &Hash, unix_ms: i64) -> Result<()> {
        let mut batch = self.engine.batch()?;
        batch.put_bytes::<OptimisticSlots>(slot, &encode_value(hash, unix_ms))?;
        self.engine.write(batch)
    }

    /// Optimistically confirmed slots in `range`, descending.
    pub fn optimistic_slots_rev(&self, range: impl RangeBounds<Slot>) -> OptimisticSlotIter<'_, E> {
        // An empty range by construction reads the empty key range MAX..MAX.
        let (lower, upper) = key_bounds(&range).unwrap_or((u64::MAX, Some(u64::MAX)));
        OptimisticSlotIter(self.engine.range::<OptimisticSlots, Slot>(
            columns::slot_key(Slot(lower)),
            upper.map(|u| columns::slot_key(Slot(u))),
            Direction::Reverse,
            decode_slot,
        ))
    }

    /// The highest optimistically confirmed slot recorded, `None` when the writer records
    /// none (remembered until the next catch-up on a read-only or secondary store).
    pub fn highest_optimistic_slot(&self) -> Result<Option<Slot>> {
        self.remembered_end(LedgerEnd::HighestOptimisticSlot, || {
            self.optimistic_slots_rev(..).next().transpose()
        })
    }
}

#[cfg(test)]
mod tests {
    use std::ops::Bound;

    use super::*;

    #[test]
    fn rows_are_agaves_and_iterate_highest_first() {
        let store = Blockstore::in_memory();
        assert_eq!(store.highest_optimistic_slot().expect("read"), None);
        for slot in [5, 9, 7] {
            store
                .set_optimistic_slot(Slot(slot), &Hash([slot as u8; 32]), 1_700_000_000_123)
                .expect("write");
        }
        assert_eq!(
            store.highest_optimistic_slot().expect("read"),
            Some(Slot(9))
        );
        let all: Vec<Slot> = store
            .optimistic_slots_rev(..)
            .map(|s| s.expect("slot"))
            .collect();
        assert_eq!(all, vec![Slot(9), Slot(7), Slot(5)]);
        let below: Vec<Slot> = store
            .optimistic_slots_rev((Bound::Excluded(Slot(5)), Bound::Excluded(Slot(9))))
            .map(|s| s.expect("slot"))
            .collect();
        assert_eq!(below, vec![Slot(7)]);
        let row = store
            .engine
            .get_pinned::<OptimisticSlots>(Slot(7))
            .expect("read")
            .expect("row");
        let mut want = vec![0, 0, 0, 0];
        want.extend_from_slice(&[7; 32]);
        want.extend_from_slice(&1_700_000_000_123i64.to_le_bytes());
        assert_eq!(&*row, want.as_slice(), "Agave's 44-byte V0 value");
    }
}
