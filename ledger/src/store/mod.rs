//! The blockstore: Agave-compatible column families in RocksDB (SPEC 2).
//!
//! Always built (pure codecs, usable by fuzz targets without RocksDB):
//! - [`column`]: the one [`Column`] trait: name, key bytes, value codec.
//! - [`columns`]: every column family, declared once with its key and value byte layout.
//! - [`SlotMeta`] (SPEC 2.1) and its [`CompletedDataIndexes`] bitset.
//! - [`InsertDefect`]: why a well-formed shred was refused by the store.
//!
//! With feature `storage`:
//! - [`Blockstore`]: open (read-write, read-only, secondary), typed getters and setters,
//!   [`Blockstore::insert_shreds`] (SPEC 2.2).
//! - `engine` is the only file that names `rocksdb::` types.
//!
//! Start reading at [`Blockstore`], then `insert.rs`.

pub mod column;
pub mod columns;
mod defect;
mod index_set;
mod slot_meta;

#[cfg(feature = "storage")]
mod blockstore;
#[cfg(feature = "storage")]
mod chain;
#[cfg(feature = "storage")]
mod data_sets;
#[cfg(feature = "storage")]
mod engine;
#[cfg(feature = "storage")]
mod insert;
#[cfg(feature = "storage")]
mod presence;
#[cfg(feature = "storage")]
mod roots;

pub use column::Column;
pub use defect::InsertDefect;
pub use index_set::{CompletedDataIndexes, ShredIndexSet};
pub use slot_meta::{CompletedIndexesFormat, SlotMeta};

#[cfg(feature = "storage")]
pub use blockstore::{Blockstore, SlotMetaIter};
#[cfg(feature = "storage")]
pub use engine::{AccessMode, PinnedBytes};
#[cfg(feature = "storage")]
pub use insert::{CompletedDataSet, InsertOutcome, RejectedShred};
#[cfg(feature = "storage")]
pub use roots::RootIter;
