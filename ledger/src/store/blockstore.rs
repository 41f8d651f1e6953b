//! `Blockstore`: the ledger's database behind typed getters and setters, generic over the
//! engine of the storage seam (`kv.rs`); `Blockstore` alone names the RocksDB one.
//!
//! Concurrency contract: `Blockstore` is `Send + Sync`. Any number of threads may read while
//! one thread writes. Shred insertion is serialised by an internal mutex (a second inserting
//! thread waits), and every insert call is one atomic RocksDB write batch, so a reader sees
//! either none or all of a call. The small setters (`set_roots`, `set_dead_slot`, ...)
//! touch columns insertion never reads, so they need no lock.

use std::ops::RangeBounds;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use super::agave_meta::{DuplicateSlotProof, ErasureMeta, MerkleRootMeta, SlotIndex};
use super::column::Column;
use super::columns::{
    self, BlockHeight, BlockTime, CodeShred, DataShred, DeadSlots, DuplicateSlots,
    ErasureMetaColumn, Index, MerkleRootMetaColumn, Meta, Root,
};
use super::ends_memo::{ChainKey, EndsMemo, LedgerEnd};
use super::kv::{AccessMode, Direction, KvEngine};
use super::mem_engine::MemEngine;
#[cfg(feature = "storage")]
use super::open_checks::{self, DirState};
#[cfg(feature = "storage")]
use super::open_options::OpenOptions;
use super::presence::PresenceCache;
use super::purged_ranges::PurgedRanges;
use super::read_path::ReadPathCell;
use super::roots_memo::{Bounds, RootsMemo};
use super::slot_meta::SlotMeta;
use super::tx_memo::TxMemo;
use super::typed::{Engine, RangeIter};
use crate::error::Result;
use crate::types::{ShredIndex, Slot};

/// The engine `Blockstore` means when none is named: RocksDB with feature `storage`, the
/// in-memory engine without it (then only [`Blockstore::in_memory`] makes one).
#[cfg(feature = "storage")]
pub type DefaultEngine = super::rocks::RocksEngine;
/// The engine `Blockstore` means when none is named: RocksDB with feature `storage`, the
/// in-memory engine without it (then only [`Blockstore::in_memory`] makes one).
#[cfg(not(feature = "storage"))]
pub type DefaultEngine = MemEngine;

/// An open ledger: `<ledger>/rocksdb` for the RocksDB engine, or an in-memory one.
#[derive(Debug)]
pub struct Blockstore<E: KvEngine = DefaultEngine> {
    ledger_path: PathBuf,
    pub(crate) engine: Engine<E>,
    /// Held for the whole of an insert call: the single-writer lock and its presence cache.
    pub(super) writer: Mutex<PresenceCache>,
    /// The slot ranges this process purged, merged. Extended before a purge deletes
    /// anything, never shrunk; readers check it before and after a read.
    pub(crate) purged: PurgedRanges,
    /// How fetches read data shreds (`read_path.rs`).
    pub(super) read_path: ReadPathCell,
    /// The ledger's ends, remembered between catch-ups (`ends_memo.rs`).
    ends: EndsMemo,
    /// Where the transactions of recently read blocks sit (`tx_memo.rs`).
    pub(crate) tx_memo: TxMemo,
    /// Rooted slots and their block times, on stable stores (`roots_memo.rs`).
    roots: RootsMemo,
}

/// Iterator over stored `SlotMeta`s in slot order (see [`Blockstore::slot_metas`]).
pub struct SlotMetaIter<'a, E: KvEngine = DefaultEngine>(RangeIter<'a, E, Meta, SlotMeta>);

impl<E: KvEngine> Iterator for SlotMetaIter<'_, E> {
    type Item = Result<SlotMeta>;
    fn next(&mut self) -> Option<Result<SlotMeta>> {
        self.0.next()
    }
}

impl<E: KvEngine> std::fmt::Debug for SlotMetaIter<'_, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SlotMetaIter")
    }
}

fn decode_meta(key: &[u8], value: &[u8]) -> Result<SlotMeta> {
    Meta::decode_value(Meta::decode_key(key)?, value)
}

fn decode_slot(key: &[u8], _value: &[u8]) -> Result<Slot> {
    Meta::decode_key(key)
}

#[cfg(feature = "storage")]
impl Blockstore<super::rocks::RocksEngine> {
    /// Opens the ledger at `ledger_path` (the database is `ledger_path/rocksdb`);
    /// read-write creates a database only in a missing or empty directory, and the WAL
    /// recovery mode is the default for `mode` ([`OpenOptions`] says more).
    pub fn open(ledger_path: &Path, mode: AccessMode) -> Result<Self> {
        Self::open_with(ledger_path, &OpenOptions::for_mode(mode))
    }

    /// Opens the ledger at `ledger_path` as `options` say. Damage (a missing `CURRENT`, a
    /// missing or truncated SST file, a corrupt write-ahead log) is an error naming the
    /// file in every mode; nothing is created where database files exist.
    pub fn open_with(ledger_path: &Path, options: &OpenOptions) -> Result<Self> {
        if options.mode == AccessMode::ReadWrite
            && open_checks::inspect(ledger_path, options)? == DirState::Database
        {
            Self::check_before_writing(ledger_path, options)?;
        }
        let engine = super::rocks::RocksEngine::open_with(ledger_path, options)?;
        Ok(Self::with_engine(engine, ledger_path))
    }

    /// Writes every memtable to SST files so nothing is held only in the write-ahead log
    /// (a command that wrote a ledger calls it before it exits).
    pub fn flush(&self) -> Result<()> {
        self.engine.kv().flush()
    }

    /// Refuses read-write on an existing ledger with a column family or a row format bstore
    /// does not know (`formats.rs`), checked through a read-only open (with the caller's
    /// WAL recovery mode) so nothing is written first.
    fn check_before_writing(ledger_path: &Path, options: &OpenOptions) -> Result<()> {
        let db = ledger_path.join(open_checks::ROCKSDB_DIR);
        let names = super::rocks::RocksEngine::column_names(&db)?;
        let unknown = super::formats::unknown_columns(&names);
        if !unknown.is_empty() {
            return Err(crate::error::LedgerError::UnknownFormat {
                path: db,
                reason: format!("column families {unknown:?} are unknown to bstore"),
            });
        }
        let read_only = OpenOptions::existing(AccessMode::ReadOnly)
            .with_wal_recovery(Some(options.wal_recovery_mode()));
        let existing = Self::open_with(ledger_path, &read_only)?;
        super::formats::check_row_formats(existing.kv(), &db)
    }
}

impl Blockstore<MemEngine> {
    /// An empty in-memory blockstore (model tests, fuzzing); its `ledger_path` is empty.
    pub fn in_memory() -> Self {
        Self::with_engine(MemEngine::new(), Path::new(""))
    }
}

impl<E: KvEngine> Blockstore<E> {
    /// A blockstore over an engine opened by the caller; `ledger_path` is what
    /// [`Blockstore::ledger_path`] reports.
    pub fn with_engine(engine: E, ledger_path: &Path) -> Self {
        Self {
            ledger_path: ledger_path.to_path_buf(),
            engine: Engine::new(engine),
            writer: Mutex::new(PresenceCache::default()),
            purged: PurgedRanges::default(),
            read_path: ReadPathCell::default(),
            ends: EndsMemo::default(),
            tx_memo: TxMemo::default(),
            roots: RootsMemo::default(),
        }
    }

    /// The engine underneath (inside the crate only: callers go through typed columns,
    /// `rows.rs`). Only RocksDB's space work and the tests need it.
    #[cfg(any(test, feature = "storage"))]
    pub(crate) fn kv(&self) -> &E {
        self.engine.kv()
    }

    /// The ledger directory given to `open`.
    pub fn ledger_path(&self) -> &Path {
        &self.ledger_path
    }

    /// How the store was opened.
    pub fn access_mode(&self) -> &AccessMode {
        self.engine.mode()
    }

    /// Paces this store's catch-ups: watches the ledger's database directory for the
    /// writer's changes (`CatchUpPacer`).
    #[cfg(feature = "storage")]
    pub fn catch_up_pacer(&self, pacing: super::CatchUpPacing) -> super::CatchUpPacer {
        super::CatchUpPacer::new(
            &self.ledger_path.join(super::open_checks::ROCKSDB_DIR),
            pacing,
        )
    }

    /// Bounds the memory that remembers where recently read blocks' transactions sit
    /// (`getTransaction` reads only the data set holding one, once its block was walked):
    /// estimated bytes, [`TX_MEMO_BUDGET`] by default, 0 to remember nothing. What no longer
    /// fits is dropped, lowest slots first.
    ///
    /// [`TX_MEMO_BUDGET`]: super::TX_MEMO_BUDGET
    pub fn set_transaction_memo_budget(&self, bytes: usize) {
        self.tx_memo.set_budget(bytes);
    }

    /// Bounds how many rooted slots (with their block times) a read-only or secondary
    /// store remembers across calls (`is_root`, `block_time`): [`ROOTS_MEMO_SLOTS`] by
    /// default, 0 to read every time. What no longer fits is dropped, lowest slots first.
    ///
    /// [`ROOTS_MEMO_SLOTS`]: super::ROOTS_MEMO_SLOTS
    pub fn set_roots_memo_slots(&self, slots: usize) {
        self.roots.set_capacity(slots);
    }

    /// When the transaction memo knows which data set holds the transaction whose first
    /// signature is `signature` (its block was walked): the shreds of that block's widest
    /// set, the most a lookup reading only that set reads (`find_located_transaction`).
    pub fn located_transaction_set_shreds(&self, signature: &[u8; 64]) -> Option<u32> {
        self.tx_memo.located(signature)
    }

    /// A secondary instance replays what its primary wrote since the last call; other modes
    /// return `Ok(())` at once.
    pub fn catch_up(&self) -> Result<()> {
        let caught_up = self.engine.catch_up();
        // Even a failed catch-up may have moved the view part of the way.
        self.ends.advance();
        if !self.roots.is_empty() {
            // A purge may have removed remembered roots: keep those the new view bounds.
            // Unread bounds keep nothing (each lookup checks the bounds again anyway).
            self.roots.retain_within(self.roots_bounds().ok().flatten());
        }
        caught_up
    }

    /// `end` as `read` computes it from the columns, remembered until the next catch-up
    /// when this store's view changes only by catching up (read-only and secondary
    /// stores); read every time on a read-write store (`ends_memo.rs`).
    pub fn remembered_end<Err>(
        &self,
        end: LedgerEnd,
        read: impl FnOnce() -> std::result::Result<Option<Slot>, Err>,
    ) -> std::result::Result<Option<Slot>, Err> {
        self.ends.get(self.view_is_stable(), end, read)
    }

    /// Whether this store's view changes only by catching up (read-only and secondary
    /// stores), so what it read may be remembered until then; a read-write store is
    /// changed by its own writes.
    fn view_is_stable(&self) -> bool {
        !matches!(self.access_mode(), AccessMode::ReadWrite)
    }

    /// RPC's confirmed chain as `read` computes it for `key`, remembered until the next
    /// catch-up on a read-only or secondary store (as [`Self::remembered_end`]); read every
    /// time on a read-write store.
    pub fn remembered_chain<Err>(
        &self,
        key: ChainKey,
        read: impl FnOnce() -> std::result::Result<Vec<Slot>, Err>,
    ) -> std::result::Result<std::sync::Arc<[Slot]>, Err> {
        self.ends.chain(self.view_is_stable(), key, read)
    }

    /// The writer lock. A writer that panicked mid-call may have left the cache ahead of
    /// what it committed, so a poisoned lock is taken over with an empty cache.
    pub(crate) fn lock_writer(&self) -> MutexGuard<'_, PresenceCache> {
        self.writer.lock().unwrap_or_else(|poisoned| {
            let mut guard = poisoned.into_inner();
            guard.clear();
            guard
        })
    }

    /// The slot's meta; `Ok(None)` when the store knows nothing of the slot.
    pub fn meta(&self, slot: Slot) -> Result<Option<SlotMeta>> {
        self.engine.get::<Meta>(slot)
    }

    /// Stored metas with slots in `range`, ascending.
    pub fn slot_metas(&self, range: impl RangeBounds<Slot>) -> SlotMetaIter<'_, E> {
        // An empty range by construction reads the empty key range MAX..MAX.
        let (lower, upper) = super::roots::key_bounds(&range).unwrap_or((u64::MAX, Some(u64::MAX)));
        SlotMetaIter(self.engine.range::<Meta, SlotMeta>(
            columns::slot_key(Slot(lower)),
            upper.map(|u| columns::slot_key(Slot(u))),
            Direction::Forward,
            decode_meta,
        ))
    }

    /// The highest slot with a meta.
    pub fn highest_slot(&self) -> Result<Option<Slot>> {
        self.remembered_end(LedgerEnd::HighestSlot, || {
            self.engine
                .range::<Meta, Slot>(
                    columns::slot_key(Slot(0)),
                    None,
                    Direction::Reverse,
                    decode_slot,
                )
                .next()
                .transpose()
        })
    }

    /// Marks the slot dead (replay failed on it).
    pub fn set_dead_slot(&self, slot: Slot) -> Result<()> {
        let mut batch = self.engine.batch()?;
        batch.put::<DeadSlots>(slot, &true)?;
        self.engine.write(batch)
    }

    /// Clears the slot's dead mark.
    pub fn remove_dead_slot(&self, slot: Slot) -> Result<()> {
        let mut batch = self.engine.batch()?;
        batch.delete::<DeadSlots>(slot)?;
        self.engine.write(batch)
    }

    /// Whether the slot is marked dead.
    pub fn is_dead(&self, slot: Slot) -> Result<bool> {
        Ok(self.engine.get::<DeadSlots>(slot)?.unwrap_or(false))
    }

    /// Marks the slots rooted, in one atomic write.
    pub fn set_roots(&self, slots: impl IntoIterator<Item = Slot>) -> Result<()> {
        let mut batch = self.engine.batch()?;
        for slot in slots {
            batch.put::<Root>(slot, &true)?;
        }
        self.engine.write(batch)
    }

    /// Whether the slot is rooted. On a read-only or secondary store a slot found rooted
    /// is remembered (`roots_memo.rs`).
    pub fn is_root(&self, slot: Slot) -> Result<bool> {
        let bounds = self.roots_bounds()?;
        if let Some(b) = bounds
            && self.roots.rooted(slot, b).is_some()
        {
            return Ok(true);
        }
        let rooted = self.engine.get::<Root>(slot)?.unwrap_or(false);
        if rooted && let Some(b) = bounds {
            self.roots.remember_root(slot, b);
        }
        Ok(rooted)
    }

    /// Where a remembered root counts: between the lowest and highest roots, on a store
    /// whose view changes only by catching up; `None` on a read-write store (it remembers
    /// nothing) or while nothing is rooted.
    pub(super) fn roots_bounds(&self) -> Result<Option<Bounds>> {
        if !self.view_is_stable() {
            return Ok(None);
        }
        let (Some(lowest), Some(highest)) = (self.lowest_root()?, self.max_root()?) else {
            return Ok(None);
        };
        Ok(Some(Bounds { lowest, highest }))
    }

    /// `slot`'s block time as remembered for a rooted slot (see [`Self::is_root`]).
    pub(super) fn remembered_block_time(&self, slot: Slot, bounds: Option<Bounds>) -> Option<i64> {
        bounds.and_then(|b| self.roots.rooted(slot, b).flatten())
    }

    /// Remembers `slot`'s block time if the slot is remembered as rooted.
    pub(super) fn remember_block_time(
        &self,
        slot: Slot,
        time: Option<i64>,
        bounds: Option<Bounds>,
    ) {
        if let (Some(time), Some(b)) = (time, bounds) {
            self.roots.remember_block_time(slot, time, b);
        }
    }

    /// Records the slot's block time (Unix seconds).
    pub fn set_block_time(&self, slot: Slot, unix_seconds: i64) -> Result<()> {
        let mut batch = self.engine.batch()?;
        batch.put::<BlockTime>(slot, &unix_seconds)?;
        self.engine.write(batch)
    }

    /// The slot's block time (Unix seconds); remembered for a rooted slot on a read-only
    /// or secondary store (see [`Self::is_root`]).
    pub fn block_time(&self, slot: Slot) -> Result<Option<i64>> {
        let bounds = self.roots_bounds()?;
        if let Some(time) = self.remembered_block_time(slot, bounds) {
            return Ok(Some(time));
        }
        let time = self.engine.get::<BlockTime>(slot)?;
        self.remember_block_time(slot, time, bounds);
        Ok(time)
    }

    /// Records the slot's block height.
    pub fn set_block_height(&self, slot: Slot, height: u64) -> Result<()> {
        let mut batch = self.engine.batch()?;
        batch.put::<BlockHeight>(slot, &height)?;
        self.engine.write(batch)
    }

    /// The slot's block height.
    pub fn block_height(&self, slot: Slot) -> Result<Option<u64>> {
        self.engine.get::<BlockHeight>(slot)
    }

    /// The slot's duplicate-slot proof, when one was stored (by insert, or by Agave).
    pub fn duplicate_slot_proof(&self, slot: Slot) -> Result<Option<DuplicateSlotProof>> {
        self.engine.get::<DuplicateSlots>(slot)
    }

    /// The slot's Agave `index` row: which data and coding shreds are stored.
    pub fn slot_index(&self, slot: Slot) -> Result<Option<SlotIndex>> {
        self.engine.get::<Index>(slot)
    }

    /// The `erasure_meta` row of the FEC set `fec_set_index` of `slot`.
    pub fn erasure_meta(&self, slot: Slot, fec_set_index: u32) -> Result<Option<ErasureMeta>> {
        self.engine.get::<ErasureMetaColumn>((slot, fec_set_index))
    }

    /// The `merkle_root_meta` row of the FEC set `fec_set_index` of `slot`.
    pub fn merkle_root_meta(
        &self,
        slot: Slot,
        fec_set_index: u32,
    ) -> Result<Option<MerkleRootMeta>> {
        self.engine
            .get::<MerkleRootMetaColumn>((slot, fec_set_index))
    }

    /// The stored data shred payload (one copy out of RocksDB).
    pub fn data_shred(&self, slot: Slot, index: ShredIndex) -> Result<Option<Vec<u8>>> {
        self.engine.get::<DataShred>((slot, index))
    }

    /// The stored coding shred payload (one copy out of RocksDB).
    pub fn code_shred(&self, slot: Slot, index: ShredIndex) -> Result<Option<Vec<u8>>> {
        self.engine.get::<CodeShred>((slot, index))
    }

    /// The stored data shred payload, pinned (no copy).
    pub fn data_shred_pinned(
        &self,
        slot: Slot,
        index: ShredIndex,
    ) -> Result<Option<E::Pinned<'_>>> {
        self.engine.get_pinned::<DataShred>((slot, index))
    }

    /// The data shreds `start..end` of `slot` with ONE batched multi-get over sorted keys,
    /// pinned (no copy); element `i` is index `start + i`, `None` when not stored. Storage
    /// errors name the `data_shred` column. An empty range gives an empty vector. The
    /// caller bounds the range (a slot holds at most 32,768 shreds).
    pub fn multi_get_data_shreds(
        &self,
        slot: Slot,
        start: u32,
        end: u32,
    ) -> Result<Vec<Option<E::Pinned<'_>>>> {
        let keys: Vec<[u8; 16]> = (start..end)
            .map(|i| columns::shred_key(slot, ShredIndex(i)))
            .collect();
        self.engine.multi_get_pinned::<DataShred>(&keys)
    }
}

#[cfg(all(test, feature = "storage"))]
#[path = "blockstore_tests.rs"]
mod tests;
