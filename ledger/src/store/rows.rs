//! Typed row access for tools and tests that work on columns directly (`bstore ledger
//! analyze`, the archive benchmark's synthetic history, fixtures written byte for byte):
//! every key goes through its column's codec, every family is named by its [`Column`] type
//! or by the declaration (`columns::FAMILIES`). The engine itself stays inside the crate.
//!
//! These writes bypass insert's writer lock and presence cache: they are for columns insert
//! does not own, or for a store nothing is inserting into.

use std::ops::ControlFlow;

use super::blockstore::Blockstore;
use super::column::Column;
use super::fault_engine::{FaultEngine, FaultHandle};
use super::kv::{Direction, KvCursor, KvEngine};
use super::typed::RowBatch;
use crate::error::Result;

impl<E: KvEngine> Blockstore<E> {
    /// The decoded value of column `C` at `key`; `Ok(None)` when there is no row.
    pub fn row<C: Column>(&self, key: C::Key) -> Result<Option<C::Value>> {
        self.engine.get::<C>(key)
    }

    /// The stored bytes of column `C` at `key`, without a copy where the engine can.
    pub fn row_bytes<C: Column>(&self, key: C::Key) -> Result<Option<E::Pinned<'_>>> {
        self.engine.get_pinned::<C>(key)
    }

    /// An empty batch of typed writes; `NotWritable` unless opened read-write.
    pub fn row_batch(&self) -> Result<RowBatch<'_, E>> {
        self.engine.batch()
    }

    /// Applies `batch` atomically.
    pub fn write_rows(&self, batch: RowBatch<'_, E>) -> Result<()> {
        self.engine.write(batch)
    }

    /// Walks the rows of column `C` with keys in `from..to` (`None`: from the first / to the
    /// end) in `direction`, handing each decoded key and its stored bytes to `each` until it
    /// breaks. A key that does not decode is a `CorruptKey` error and ends the walk.
    pub fn for_each_row<C: Column>(
        &self,
        from: Option<C::Key>,
        to: Option<C::Key>,
        direction: Direction,
        mut each: impl FnMut(C::Key, &[u8]) -> ControlFlow<()>,
    ) -> Result<()> {
        let lower = from.map(C::encode_key);
        let upper = to.map(C::encode_key);
        let mut cursor = self.engine.cursor::<C>(
            lower.as_ref().map_or(&[][..], AsRef::as_ref),
            upper.as_ref().map(AsRef::as_ref),
            direction,
        );
        while let Some(entry) = cursor.advance() {
            let (key, value) = entry?;
            if each(C::decode_key(key)?, value).is_break() {
                break;
            }
        }
        Ok(())
    }

    /// Walks every row of the column family `family` in key order, raw bytes, until `each`
    /// breaks: a declared family (`columns::FAMILIES`), or one the engine found on disk that
    /// bstore does not declare (a retired family, RocksDB's `default`). A family the engine
    /// did not open has no rows.
    pub fn for_each_family_row(
        &self,
        family: &'static str,
        mut each: impl FnMut(&[u8], &[u8]) -> ControlFlow<()>,
    ) -> Result<()> {
        let mut cursor = self
            .engine
            .kv()
            .cursor(family, &[], None, Direction::Forward);
        while let Some(entry) = cursor.advance() {
            let (key, value) = entry?;
            if each(key, value).is_break() {
                break;
            }
        }
        Ok(())
    }
}

impl<E: KvEngine> Blockstore<FaultEngine<E>> {
    /// The fault schedule of the engine underneath (fault tests arm and count with it).
    pub fn faults(&self) -> &FaultHandle {
        self.engine.kv().faults()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::columns::{AddressSignatures, BlockTime, Root};
    use crate::store::keys::AddressRowKey;
    use crate::types::{Pubkey, Signature, Slot};

    #[test]
    fn typed_writes_read_back_typed_raw_and_in_key_order() {
        let store = Blockstore::in_memory();
        let mut batch = store.row_batch().expect("writable");
        for slot in [9u64, 3, 5] {
            batch.put::<Root>(Slot(slot), &true).expect("put");
        }
        batch.put_bytes::<BlockTime>(Slot(4), &[1; 7]).expect("put");
        let row = AddressRowKey {
            address: Pubkey([2; 32]),
            slot: Slot(7),
            transaction_index: 1,
            signature: Signature([3; 64]),
        };
        batch.put::<AddressSignatures>(row, &true).expect("put");
        store.write_rows(batch).expect("write");

        assert_eq!(store.row::<Root>(Slot(5)).expect("read"), Some(true));
        assert_eq!(store.row::<Root>(Slot(6)).expect("read"), None);
        assert!(
            store.row::<BlockTime>(Slot(4)).is_err(),
            "7 bytes are corrupt"
        );
        assert_eq!(
            store
                .row_bytes::<BlockTime>(Slot(4))
                .expect("read")
                .as_deref(),
            Some(&[1u8; 7][..])
        );
        assert_eq!(
            store.row::<AddressSignatures>(row).expect("read"),
            Some(true)
        );

        let mut seen = Vec::new();
        store
            .for_each_row::<Root>(Some(Slot(4)), None, Direction::Reverse, |slot, _| {
                seen.push(slot.0);
                ControlFlow::Continue(())
            })
            .expect("walk");
        assert_eq!(seen, vec![9, 5]);
        let mut keys = Vec::new();
        store
            .for_each_family_row("address_signatures", |key, value| {
                keys.push((key.len(), value.to_vec()));
                ControlFlow::Break(())
            })
            .expect("walk");
        assert_eq!(keys, vec![(108, vec![1])]);
    }
}
