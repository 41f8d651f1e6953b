//! Reads of the Agave 4.x families for ledger tools: the other versions of a slot Agave
//! repaired by block id (`alt_meta`), and a block's `double_merkle_meta` row. A family
//! missing from the disk (a ledger no 4.x validator or read-write bstore opened) has no rows.

use super::alt_columns::{AltMeta, BlockLocation, DoubleMerkleMeta, DoubleMerkleMetaColumn};
use super::blockstore::Blockstore;
use super::column::Column;
use super::kv::{Direction, KvEngine};
use super::slot_meta::SlotMeta;
use crate::error::Result;
use crate::types::{Hash, Slot};

fn decode_alt_meta(key: &[u8], value: &[u8]) -> Result<(Hash, SlotMeta)> {
    let key = AltMeta::decode_key(key)?;
    Ok((key.1, AltMeta::decode_value(key, value)?))
}

impl<E: KvEngine> Blockstore<E> {
    /// Every alternate version of `slot` (`alt_meta` rows) as `(block_id, meta)`, by block id.
    pub fn alternate_slot_metas(&self, slot: Slot) -> Result<Vec<(Hash, SlotMeta)>> {
        let upper = slot
            .0
            .checked_add(1)
            .map(|next| (Slot(next), Hash::default()));
        self.engine
            .range::<AltMeta, (Hash, SlotMeta)>(
                AltMeta::encode_key((slot, Hash::default())),
                upper.map(AltMeta::encode_key),
                Direction::Forward,
                decode_alt_meta,
            )
            .collect()
    }

    /// The `double_merkle_meta` row of the block of `slot` at `location`.
    pub fn double_merkle_meta(
        &self,
        slot: Slot,
        location: BlockLocation,
    ) -> Result<Option<DoubleMerkleMeta>> {
        self.engine.get::<DoubleMerkleMetaColumn>((slot, location))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::kv::{KvBatch, KvWrite};

    #[test]
    fn alternate_versions_of_one_slot_only() {
        let store = Blockstore::in_memory();
        let mut batch = store.kv().batch().expect("batch");
        for (slot, id) in [(4u64, 9u8), (5, 2), (5, 7), (6, 1)] {
            let mut meta = SlotMeta::new(Slot(slot), Some(Slot(slot - 1)));
            meta.received = u64::from(id);
            let key = AltMeta::encode_key((Slot(slot), Hash([id; 32])));
            batch.put(AltMeta::NAME, &key, &meta.encode()).expect("put");
        }
        let double = DoubleMerkleMeta {
            double_merkle_root: Hash([3; 32]),
            fec_set_count: 2,
            proofs: Vec::new(),
        };
        let key = DoubleMerkleMetaColumn::encode_key((Slot(5), BlockLocation::Original));
        batch
            .put(DoubleMerkleMetaColumn::NAME, &key, &double.encode())
            .expect("put");
        store.kv().write(batch).expect("write");
        let found: Vec<(Hash, u64)> = store
            .alternate_slot_metas(Slot(5))
            .expect("list")
            .into_iter()
            .map(|(id, m)| (id, m.received))
            .collect();
        assert_eq!(found, vec![(Hash([2; 32]), 2), (Hash([7; 32]), 7)]);
        assert_eq!(
            store
                .double_merkle_meta(Slot(5), BlockLocation::Original)
                .expect("read"),
            Some(double)
        );
        let other = BlockLocation::Alternate {
            block_id: Hash([2; 32]),
        };
        assert_eq!(
            store.double_merkle_meta(Slot(5), other).expect("read"),
            None
        );
    }
}
