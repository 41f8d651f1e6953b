//! Listings for ledger tools (agave-ledger-tool's `dead-slots`, `duplicate-slots`, `slot -v`):
//! the slots marked in `dead_slots` or holding a proof in `duplicate_slots` from a start
//! slot up, and every `erasure_meta` / `merkle_root_meta` row of one slot.
//!
//! All are key-range scans in key order, which is slot (then FEC set) order because keys
//! are big-endian. A key or value that does not decode is an `Err` item and ends the walk.

use super::agave_meta::{ErasureMeta, MerkleRootMeta};
use super::blockstore::{Blockstore, DefaultEngine};
use super::column::Column;
use super::columns::{self, DeadSlots, DuplicateSlots, ErasureMetaColumn, MerkleRootMetaColumn};
use super::kv::{Direction, KvEngine};
use super::typed::RangeIter;
use crate::error::Result;
use crate::types::Slot;

/// Slots marked dead, ascending (see [`Blockstore::dead_slots_from`]). A `dead_slots`
/// entry whose value is `false` is skipped, as [`Blockstore::is_dead`] reads it.
pub struct DeadSlotIter<'a, E: KvEngine = DefaultEngine>(RangeIter<'a, E, DeadSlots, Option<Slot>>);

impl<E: KvEngine> Iterator for DeadSlotIter<'_, E> {
    type Item = Result<Slot>;
    fn next(&mut self) -> Option<Result<Slot>> {
        loop {
            match self.0.next()? {
                Ok(Some(slot)) => return Some(Ok(slot)),
                Ok(None) => continue,
                Err(e) => return Some(Err(e)),
            }
        }
    }
}

impl<E: KvEngine> std::fmt::Debug for DeadSlotIter<'_, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DeadSlotIter")
    }
}

/// Slots with a stored duplicate-slot proof, ascending (see
/// [`Blockstore::duplicate_slots_from`]). Only keys are decoded: the proofs stay unread.
pub struct DuplicateSlotIter<'a, E: KvEngine = DefaultEngine>(
    RangeIter<'a, E, DuplicateSlots, Slot>,
);

impl<E: KvEngine> Iterator for DuplicateSlotIter<'_, E> {
    type Item = Result<Slot>;
    fn next(&mut self) -> Option<Result<Slot>> {
        self.0.next()
    }
}

impl<E: KvEngine> std::fmt::Debug for DuplicateSlotIter<'_, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DuplicateSlotIter")
    }
}

fn decode_dead(key: &[u8], value: &[u8]) -> Result<Option<Slot>> {
    let slot = DeadSlots::decode_key(key)?;
    Ok(DeadSlots::decode_value(slot, value)?.then_some(slot))
}

fn decode_duplicate(key: &[u8], _value: &[u8]) -> Result<Slot> {
    DuplicateSlots::decode_key(key)
}

fn decode_erasure(key: &[u8], value: &[u8]) -> Result<ErasureMeta> {
    ErasureMetaColumn::decode_value(ErasureMetaColumn::decode_key(key)?, value)
}

fn decode_merkle(key: &[u8], value: &[u8]) -> Result<(u32, MerkleRootMeta)> {
    let key = MerkleRootMetaColumn::decode_key(key)?;
    Ok((key.1, MerkleRootMetaColumn::decode_value(key, value)?))
}

impl<E: KvEngine> Blockstore<E> {
    /// Slots marked dead at or above `start`, ascending (Agave's `dead_slots_iterator`).
    pub fn dead_slots_from(&self, start: Slot) -> DeadSlotIter<'_, E> {
        DeadSlotIter(self.engine.range::<DeadSlots, Option<Slot>>(
            columns::slot_key(start),
            None,
            Direction::Forward,
            decode_dead,
        ))
    }

    /// Slots with a duplicate-slot proof at or above `start`, ascending (Agave's
    /// `duplicate_slots_iterator`).
    pub fn duplicate_slots_from(&self, start: Slot) -> DuplicateSlotIter<'_, E> {
        DuplicateSlotIter(self.engine.range::<DuplicateSlots, Slot>(
            columns::slot_key(start),
            None,
            Direction::Forward,
            decode_duplicate,
        ))
    }

    /// Every `erasure_meta` row of `slot`, by FEC set index (each row names its set).
    pub fn erasure_metas(&self, slot: Slot) -> Result<Vec<ErasureMeta>> {
        let upper = slot.0.checked_add(1).map(|next| (Slot(next), 0));
        self.engine
            .range::<ErasureMetaColumn, ErasureMeta>(
                ErasureMetaColumn::encode_key((slot, 0)),
                upper.map(ErasureMetaColumn::encode_key),
                Direction::Forward,
                decode_erasure,
            )
            .collect()
    }

    /// Every `merkle_root_meta` row of `slot` as `(fec_set_index, row)`, by set index.
    pub fn merkle_root_metas(&self, slot: Slot) -> Result<Vec<(u32, MerkleRootMeta)>> {
        let upper = slot.0.checked_add(1).map(|next| (Slot(next), 0));
        self.engine
            .range::<MerkleRootMetaColumn, (u32, MerkleRootMeta)>(
                MerkleRootMetaColumn::encode_key((slot, 0)),
                upper.map(MerkleRootMetaColumn::encode_key),
                Direction::Forward,
                decode_merkle,
            )
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shred::ShredKind;
    use crate::store::DuplicateSlotProof;
    use crate::types::Hash;

    fn erasure(fec_set_index: u32) -> ErasureMeta {
        ErasureMeta {
            fec_set_index,
            first_coding_index: u64::from(fec_set_index),
            first_received_coding_index: 0,
            num_data: 32,
            num_coding: 32,
        }
    }

    fn merkle(index: u32) -> MerkleRootMeta {
        MerkleRootMeta {
            merkle_root: Some(Hash([index as u8; 32])),
            first_received_shred_index: index,
            first_received_shred_kind: ShredKind::Data,
        }
    }

    #[test]
    fn dead_and_duplicate_slots_list_from_the_start_slot() {
        let store = Blockstore::in_memory();
        for slot in [4, 9, u64::MAX] {
            store.set_dead_slot(Slot(slot)).expect("dead");
        }
        // A `false` entry is not dead (Agave never writes one; `is_dead` agrees).
        let mut batch = store.engine.batch().expect("batch");
        batch.put::<DeadSlots>(Slot(6), &false).expect("put");
        let proof = DuplicateSlotProof {
            shred1: vec![1; 3],
            shred2: vec![2; 3],
        };
        for slot in [2, 7] {
            batch
                .put::<DuplicateSlots>(Slot(slot), &proof)
                .expect("put");
        }
        store.engine.write(batch).expect("write");

        let dead: Vec<u64> = store
            .dead_slots_from(Slot(5))
            .map(|s| s.expect("slot").0)
            .collect();
        assert_eq!(dead, vec![9, u64::MAX]);
        let all_dead = store.dead_slots_from(Slot(0)).count();
        assert_eq!(all_dead, 3);
        let dups: Vec<u64> = store
            .duplicate_slots_from(Slot(0))
            .map(|s| s.expect("slot").0)
            .collect();
        assert_eq!(dups, vec![2, 7]);
        assert_eq!(store.duplicate_slots_from(Slot(8)).count(), 0);
    }

    #[test]
    fn set_rows_are_listed_for_one_slot_only() {
        let store = Blockstore::in_memory();
        let mut batch = store.engine.batch().expect("batch");
        for (slot, fec) in [(4, 0), (5, 64), (5, 0), (5, 32), (6, 0), (u64::MAX, 7)] {
            batch
                .put::<ErasureMetaColumn>((Slot(slot), fec), &erasure(fec))
                .expect("put");
            batch
                .put::<MerkleRootMetaColumn>((Slot(slot), fec), &merkle(fec))
                .expect("put");
        }
        store.engine.write(batch).expect("write");

        let sets: Vec<u32> = store
            .erasure_metas(Slot(5))
            .expect("rows")
            .iter()
            .map(|m| m.fec_set_index)
            .collect();
        assert_eq!(sets, vec![0, 32, 64]);
        let roots = store.merkle_root_metas(Slot(5)).expect("rows");
        assert_eq!(
            roots,
            vec![(0, merkle(0)), (32, merkle(32)), (64, merkle(64))]
        );
        assert_eq!(store.erasure_metas(Slot(u64::MAX)).expect("rows").len(), 1);
        assert_eq!(store.merkle_root_metas(Slot(7)).expect("rows"), vec![]);
    }

    #[test]
    fn a_corrupt_row_is_an_error() {
        let store = Blockstore::in_memory();
        let mut batch = store.engine.batch().expect("batch");
        batch
            .put::<ErasureMetaColumn>((Slot(3), 0), &erasure(32))
            .expect("put");
        store.engine.write(batch).expect("write");
        assert!(store.erasure_metas(Slot(3)).is_err());
    }
}
