//! `MemEngine`: an in-memory [`KvEngine`] for model tests and the model-based fuzz target.
//! It keeps the seam's contract (atomic batches, sorted keys, consistent cursors) with
//! ordered maps behind one lock, so the insert, chaining and fetch rules can be exercised
//! without RocksDB. Not a production engine: nothing is persisted and every read copies.

use std::collections::BTreeMap;
use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};

use super::columns;
use super::kv::{AccessMode, Direction, KvBatch, KvCursor, KvEngine, KvRead, KvScan, KvWrite};
use crate::error::{LedgerError, Result};

type ColumnMap = BTreeMap<Vec<u8>, Arc<[u8]>>;

/// Every known column, keyed by name. Values are shared, so a read hands out a reference
/// count, not a copy of the bytes.
#[derive(Debug, Default)]
struct Tables {
    columns: BTreeMap<&'static str, ColumnMap>,
}

/// An in-memory engine holding every column of [`columns::FAMILIES`].
#[derive(Debug)]
pub struct MemEngine {
    tables: RwLock<Tables>,
    mode: AccessMode,
}

impl Default for MemEngine {
    fn default() -> Self {
        Self::new()
    }
}

impl MemEngine {
    /// An empty, writable engine.
    pub fn new() -> Self {
        let mut tables = Tables::default();
        for family in &columns::FAMILIES {
            tables.columns.insert(family.name, ColumnMap::new());
        }
        Self {
            tables: RwLock::new(tables),
            mode: AccessMode::ReadWrite,
        }
    }

    /// A lock poisoned by a panicking writer still holds consistent maps: batches are applied
    /// only after they are complete, so the maps are never seen half-written.
    fn read(&self) -> RwLockReadGuard<'_, Tables> {
        self.tables.read().unwrap_or_else(|p| p.into_inner())
    }

    fn write_lock(&self) -> RwLockWriteGuard<'_, Tables> {
        self.tables.write().unwrap_or_else(|p| p.into_inner())
    }

    /// Number of keys in column `cf` (tests compare sizes after purges).
    pub fn len(&self, cf: &'static str) -> usize {
        self.read().columns.get(cf).map_or(0, BTreeMap::len)
    }
}

/// A value shared with the engine's map.
#[derive(Debug, Clone)]
pub struct MemBytes(Arc<[u8]>);

impl std::ops::Deref for MemBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl AsRef<[u8]> for MemBytes {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl KvRead for MemEngine {
    type Pinned<'a> = MemBytes;

    fn get_pinned(&self, cf: &'static str, key: &[u8]) -> Result<Option<MemBytes>> {
        let tables = self.read();
        Ok(tables
            .columns
            .get(cf)
            .and_then(|c| c.get(key))
            .map(|v| MemBytes(Arc::clone(v))))
    }

    fn multi_get_pinned<K: AsRef<[u8]>>(
        &self,
        cf: &'static str,
        keys: &[K],
    ) -> Result<Vec<Option<MemBytes>>> {
        let tables = self.read();
        let column = tables.columns.get(cf);
        Ok(keys
            .iter()
            .map(|k| {
                column
                    .and_then(|c| c.get(k.as_ref()))
                    .map(|v| MemBytes(Arc::clone(v)))
            })
            .collect())
    }
}

/// A snapshot of a key range, taken when the cursor is made (a consistent view).
#[derive(Debug)]
pub struct MemCursor {
    /// The range in walking order (descending for a reverse cursor).
    entries: Vec<(Vec<u8>, Arc<[u8]>)>,
    direction: Direction,
    /// Entries handed out so far; the current one is `next - 1`.
    next: usize,
}

impl KvCursor for MemCursor {
    fn advance(&mut self) -> Option<Result<(&[u8], &[u8])>> {
        let (key, value) = self.entries.get(self.next)?;
        self.next += 1;
        Some(Ok((key.as_slice(), &value[..])))
    }

    fn seek(&mut self, target: &[u8]) {
        // `entries` is sorted in walking order, so the entries to skip form a prefix.
        self.next = match self.direction {
            Direction::Forward => self.entries.partition_point(|(k, _)| k.as_slice() < target),
            Direction::Reverse => self.entries.partition_point(|(k, _)| k.as_slice() > target),
        };
    }
}

impl KvScan for MemEngine {
    type Cursor<'a> = MemCursor;

    fn cursor(
        &self,
        cf: &'static str,
        lower: &[u8],
        upper: Option<&[u8]>,
        direction: Direction,
    ) -> MemCursor {
        let tables = self.read();
        let below_upper = |k: &[u8]| upper.is_none_or(|u| k < u);
        let mut entries: Vec<(Vec<u8>, Arc<[u8]>)> = tables
            .columns
            .get(cf)
            .map(|c| {
                c.range(lower.to_vec()..)
                    .take_while(|(k, _)| below_upper(k))
                    .map(|(k, v)| (k.clone(), Arc::clone(v)))
                    .collect()
            })
            .unwrap_or_default();
        if direction == Direction::Reverse {
            entries.reverse();
        }
        MemCursor {
            entries,
            direction,
            next: 0,
        }
    }
}

/// One write of a batch, applied in order.
#[derive(Debug)]
enum Op {
    Put(&'static str, Vec<u8>, Arc<[u8]>),
    Delete(&'static str, Vec<u8>),
    DeleteRange(&'static str, Vec<u8>, Vec<u8>),
}

/// Why a batch holding `delete_range(lower, upper)` with `upper < lower` was refused.
#[derive(Debug, thiserror::Error)]
#[error("delete range end key {upper:02x?} comes before its start key {lower:02x?}")]
struct InvertedRange {
    lower: Vec<u8>,
    upper: Vec<u8>,
}

/// Writes collected for one atomic apply.
#[derive(Debug, Default)]
pub struct MemBatch {
    ops: Vec<Op>,
}

fn known(cf: &'static str) -> Result<()> {
    if columns::family(cf).is_some() {
        Ok(())
    } else {
        Err(LedgerError::ColumnNotOpen { column: cf })
    }
}

impl KvBatch for MemBatch {
    fn put(&mut self, cf: &'static str, key: &[u8], value: &[u8]) -> Result<()> {
        known(cf)?;
        self.ops.push(Op::Put(cf, key.to_vec(), Arc::from(value)));
        Ok(())
    }

    fn delete(&mut self, cf: &'static str, key: &[u8]) -> Result<()> {
        known(cf)?;
        self.ops.push(Op::Delete(cf, key.to_vec()));
        Ok(())
    }

    fn delete_range(&mut self, cf: &'static str, lower: &[u8], upper: &[u8]) -> Result<()> {
        known(cf)?;
        self.ops
            .push(Op::DeleteRange(cf, lower.to_vec(), upper.to_vec()));
        Ok(())
    }
}

impl KvWrite for MemEngine {
    type Batch<'a> = MemBatch;

    fn batch(&self) -> Result<MemBatch> {
        Ok(MemBatch::default())
    }

    /// Applied under the write lock: readers see none or all of the batch. A batch with an
    /// inverted delete range is refused whole before anything is applied, as RocksDB
    /// refuses it.
    fn write(&self, batch: MemBatch) -> Result<()> {
        for op in &batch.ops {
            if let Op::DeleteRange(cf, lower, upper) = op
                && lower > upper
            {
                return Err(LedgerError::Storage {
                    column: cf,
                    source: Box::new(InvertedRange {
                        lower: lower.clone(),
                        upper: upper.clone(),
                    }),
                });
            }
        }
        let mut tables = self.write_lock();
        for op in batch.ops {
            match op {
                Op::Put(cf, key, value) => {
                    tables.columns.entry(cf).or_default().insert(key, value);
                }
                Op::Delete(cf, key) => {
                    if let Some(c) = tables.columns.get_mut(cf) {
                        c.remove(&key);
                    }
                }
                // Inverted ranges were refused above; `BTreeMap::range` would panic on one,
                // and an empty one deletes nothing.
                Op::DeleteRange(cf, lower, upper) if lower < upper => {
                    if let Some(c) = tables.columns.get_mut(cf) {
                        let doomed: Vec<Vec<u8>> =
                            c.range(lower..upper).map(|(k, _)| k.clone()).collect();
                        for k in doomed {
                            c.remove(&k);
                        }
                    }
                }
                Op::DeleteRange(..) => {}
            }
        }
        Ok(())
    }
}

impl KvEngine for MemEngine {
    fn mode(&self) -> &AccessMode {
        &self.mode
    }

    fn catch_up(&self) -> Result<()> {
        Ok(())
    }

    fn compact_range(&self, _cf: &'static str, _lower: &[u8], _upper: &[u8]) -> Result<()> {
        Ok(())
    }

    fn estimate_num_keys(&self, cf: &'static str) -> Result<u64> {
        Ok(self.len(cf) as u64)
    }
}
