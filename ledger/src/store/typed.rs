//! Typed access per [`Column`] over any [`KvEngine`]: keys and values are encoded and
//! decoded here, once, so the insert, chaining and fetch code never touches raw bytes of a
//! key or a meta.

use std::marker::PhantomData;

use super::column::Column;
use super::kv::{AccessMode, Direction, KvBatch, KvCursor, KvEngine, KvScan, KvWrite};
use crate::error::Result;

/// An engine seen through typed columns.
#[derive(Debug)]
pub(crate) struct Engine<E> {
    kv: E,
}

impl<E: KvEngine> Engine<E> {
    pub(crate) fn new(kv: E) -> Self {
        Self { kv }
    }

    pub(crate) fn kv(&self) -> &E {
        &self.kv
    }

    pub(crate) fn mode(&self) -> &AccessMode {
        self.kv.mode()
    }

    pub(crate) fn catch_up(&self) -> Result<()> {
        self.kv.catch_up()
    }

    /// The value at `key`, without a copy where the engine can.
    pub(crate) fn get_pinned<C: Column>(&self, key: C::Key) -> Result<Option<E::Pinned<'_>>> {
        self.kv.get_pinned(C::NAME, C::encode_key(key).as_ref())
    }

    /// The decoded value at `key`.
    pub(crate) fn get<C: Column>(&self, key: C::Key) -> Result<Option<C::Value>> {
        match self.get_pinned::<C>(key)? {
            Some(bytes) => C::decode_value(key, &bytes).map(Some),
            None => Ok(None),
        }
    }

    /// One batched read over sorted keys; values in key order.
    pub(crate) fn multi_get_pinned<C: Column>(
        &self,
        keys: &[C::KeyBytes],
    ) -> Result<Vec<Option<E::Pinned<'_>>>> {
        debug_assert!(keys.windows(2).all(|w| w[0].as_ref() <= w[1].as_ref()));
        self.kv.multi_get_pinned(C::NAME, keys)
    }

    /// Entries of `C` in `lower..upper` (upper `None`: to the end), decoded with `decode`.
    pub(crate) fn range<C: Column, T>(
        &self,
        lower: C::KeyBytes,
        upper: Option<C::KeyBytes>,
        direction: Direction,
        decode: fn(&[u8], &[u8]) -> Result<T>,
    ) -> RangeIter<'_, E, C, T> {
        let cursor = self.kv.cursor(
            C::NAME,
            lower.as_ref(),
            upper.as_ref().map(AsRef::as_ref),
            direction,
        );
        RangeIter {
            cursor: Some(cursor),
            decode,
            _column: PhantomData,
        }
    }

    /// A raw cursor over `lower..upper` of column `C` (bounds as bytes: a key prefix bounds
    /// a scan of the keys starting with it).
    pub(crate) fn cursor<C: Column>(
        &self,
        lower: &[u8],
        upper: Option<&[u8]>,
        direction: Direction,
    ) -> E::Cursor<'_> {
        self.kv.cursor(C::NAME, lower, upper, direction)
    }

    /// A write batch; `NotWritable` unless the engine may write.
    pub(crate) fn batch(&self) -> Result<RowBatch<'_, E>> {
        Ok(RowBatch {
            inner: self.kv.batch()?,
        })
    }

    /// [`Self::batch`] with room for about `bytes` of rows (`KvWrite::batch_with_capacity`).
    pub(crate) fn batch_with_capacity(&self, bytes: usize) -> Result<RowBatch<'_, E>> {
        Ok(RowBatch {
            inner: self.kv.batch_with_capacity(bytes)?,
        })
    }

    /// Applies `batch` atomically.
    pub(crate) fn write(&self, batch: RowBatch<'_, E>) -> Result<()> {
        self.kv.write(batch.inner)
    }
}

/// Typed puts and deletes collected for one atomic write: every key goes through its
/// column's codec, so a row can only land where its column's key layout puts it.
pub struct RowBatch<'e, E: KvWrite + 'e> {
    inner: E::Batch<'e>,
}

impl<'e, E: KvWrite + 'e> std::fmt::Debug for RowBatch<'e, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RowBatch")
    }
}

impl<'e, E: KvWrite + 'e> RowBatch<'e, E> {
    /// Puts an encoded value.
    pub fn put<C: Column>(&mut self, key: C::Key, value: &C::Value) -> Result<()> {
        self.put_bytes::<C>(key, &C::encode_value(value))
    }

    /// Puts value bytes as given (a shred payload, a protobuf row; or, in a test, bytes the
    /// codec would refuse) without an intermediate copy.
    pub fn put_bytes<C: Column>(&mut self, key: C::Key, value: &[u8]) -> Result<()> {
        self.inner.put(C::NAME, C::encode_key(key).as_ref(), value)
    }

    /// Deletes the value at `key`.
    pub fn delete<C: Column>(&mut self, key: C::Key) -> Result<()> {
        self.inner.delete(C::NAME, C::encode_key(key).as_ref())
    }

    /// Deletes the value at raw `key` of column `cf` (see [`Self::delete_range_raw`]).
    pub(crate) fn delete_raw(&mut self, cf: &'static str, key: &[u8]) -> Result<()> {
        self.inner.delete(cf, key)
    }

    /// Deletes the keys `lower..upper` of column `cf` (raw bytes: a purge spans columns
    /// whose keys differ in type but all start with the slot).
    pub(crate) fn delete_range_raw(
        &mut self,
        cf: &'static str,
        lower: &[u8],
        upper: &[u8],
    ) -> Result<()> {
        self.inner.delete_range(cf, lower, upper)
    }
}

/// Iterator over a key range of column `C`, yielding `decode(key, value)`. The first error
/// (storage or decode) is yielded and ends it.
pub(crate) struct RangeIter<'a, E: KvScan + 'a, C, T> {
    cursor: Option<E::Cursor<'a>>,
    decode: fn(&[u8], &[u8]) -> Result<T>,
    _column: PhantomData<C>,
}

impl<'a, E: KvScan + 'a, C: Column, T> Iterator for RangeIter<'a, E, C, T> {
    type Item = Result<T>;

    fn next(&mut self) -> Option<Result<T>> {
        let cursor = self.cursor.as_mut()?;
        let item = match cursor.advance() {
            None => None,
            Some(Ok((key, value))) => Some((self.decode)(key, value)),
            Some(Err(e)) => Some(Err(e)),
        };
        if !matches!(item, Some(Ok(_))) {
            self.cursor = None;
        }
        item
    }
}
