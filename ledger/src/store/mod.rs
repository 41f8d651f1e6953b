//! The blockstore: Agave-compatible column families in RocksDB
//! (`docs/on-disk-layout.md#column-families`).
//!
//! Always built (pure codecs, usable by fuzz targets without RocksDB):
//! - [`column`](mod@column): the one [`Column`] trait: name, key bytes, value codec.
//! - [`columns`]: every column family, declared once (one `columns!` line each) with its
//!   key layout ([`keys`]) and value type (`values.rs`); every list of families is derived
//!   from it. [`alt_columns`]: the value types of the ones Agave 4.x added; [`families`]:
//!   Agave 4.x's family set and the retired ones.
//! - [`SlotMeta`] (`docs/on-disk-layout.md#slotmeta`) and its [`CompletedDataIndexes`] bitset.
//! - [`InsertDefect`]: why a well-formed shred was refused by the store.
//!
//! - [`Blockstore`]: typed getters and setters and [`Blockstore::insert_shreds`]
//!   (`docs/on-disk-layout.md#inserting-shreds`)
//!   over any engine of the storage seam ([`kv`]: small traits over raw bytes). Two engines:
//!   [`MemEngine`] (in memory, always built: model tests and the model-based fuzz target)
//!   and, with feature `storage`, [`RocksEngine`] (`rocks.rs`, the only file that names
//!   `rocksdb::` types; open read-write, read-only or as a secondary, with [`OpenOptions`]).
//!   [`FaultEngine`] wraps either and fails a chosen write, read, cursor step or
//!   compaction (fault tests and the fuzz target).
//! - Damage (`docs/damage-and-repair.md`): `open_checks.rs` (never create over existing
//!   files; every live SST file present), [`WalRecoveryMode`], [`check`] and [`repair`].
//! - A full disk (`docs/damage-and-repair.md#a-full-disk`): `rocks_space.rs` (opens write
//!   no table file), [`space_reserve`] (room held back for a purge); the purge that frees
//!   what needs no room first is `retention/purge_space.rs`.
//!
//! Start reading at [`Blockstore`], then `insert/mod.rs`.

mod agave_meta;
pub mod alt_columns;
mod alt_listing;
pub mod column;
pub mod columns;
pub mod families;
mod index_set;
pub mod keys;
mod slot_meta;
mod slot_work;

mod blockstore;
#[cfg(feature = "storage")]
mod catch_up_pacer;
mod chain;
mod checks;
mod data_scan;
mod data_sets;
mod duplicates;
mod ends_memo;
mod erasure_check;
mod fault_engine;
#[cfg(feature = "storage")]
mod formats;
mod history_rows;
mod history_scan;
mod insert;
pub mod kv;
mod listing;
mod mem_engine;
#[cfg(feature = "storage")]
mod open_checks;
mod open_options;
mod optimistic;
mod parent_info;
mod presence;
mod purge;
mod purged_ranges;
mod read_path;
mod recover;
#[cfg(feature = "storage")]
mod rocks;
#[cfg(feature = "storage")]
mod rocks_check;
#[cfg(feature = "storage")]
mod rocks_repair;
mod roots;
mod roots_memo;
mod rows;
mod sets;
mod shape_rules;
pub mod space_reserve;
mod tx_memo;
mod typed;
mod values;
mod wal_mode;
pub mod wal_tail;

pub use crate::defect::{InsertDefect, ParentInfoDefect};
pub use agave_meta::{DuplicateSlotProof, ErasureMeta, MerkleRootMeta, SlotIndex};
pub use alt_columns::{BlockLocation, DoubleMerkleMeta};
pub use checks::{InsertOptions, LeaderCheck, MerkleCheck};
pub use column::{Column, Family, KeyStart, Values};
pub use duplicates::{DuplicateKind, DuplicateSlot};
pub use ends_memo::{ChainKey, LedgerEnd};
pub use fault_engine::{FaultCursor, FaultEngine, FaultHandle, FaultPoint, InjectedFault};
pub use index_set::{CompletedDataIndexes, ShredIndexSet};
pub use roots_memo::MAX_SLOTS as ROOTS_MEMO_SLOTS;
pub use shape_rules::ShapeRules;
pub use slot_meta::{MAX_NEXT_SLOTS, SlotMeta, SlotMetaFormat};
pub use tx_memo::MEMO_BUDGET as TX_MEMO_BUDGET;
pub use values::{RewardsProto, StatusProto};

pub use blockstore::{Blockstore, DefaultEngine, SlotMetaIter};
#[cfg(feature = "storage")]
pub use catch_up_pacer::{CatchUpPacer, CatchUpPacing};
pub(crate) use data_scan::DataShredScan;
pub use history_scan::{AddressSignature, MAX_SLOTS_PER_SIGNATURE, StatusLookup};
pub use insert::{CompletedDataSet, InsertOutcome, RejectedShred};
pub use kv::{AccessMode, KvEngine};
pub use listing::{DeadSlotIter, DuplicateSlotIter};
pub use mem_engine::{MemBytes, MemEngine};
pub use open_options::{Create, OpenOptions};
pub use optimistic::OptimisticSlotIter;
pub use purge::PurgeStats;
#[cfg(feature = "storage")]
pub(crate) use purge::last_key;
pub(crate) use purge::{Chaining, purged_columns, upper_key};
pub use read_path::ReadPath;
#[cfg(feature = "storage")]
pub use rocks::{PinnedBytes, RocksEngine};
#[cfg(feature = "storage")]
pub use rocks_check::{CheckReport, ColumnCheck, Damage, SstFile, check};
#[cfg(feature = "storage")]
pub use rocks_repair::{RepairReport, repair};
pub use roots::RootIter;
pub(crate) use tx_memo::{Hint, MemoKey, SetHint, signature_prefix};
pub use typed::RowBatch;
pub use wal_mode::WalRecoveryMode;
