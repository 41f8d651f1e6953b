//! bstore's archive tier: rooted blocks and a signature index on S3-compatible object
//! storage (`docs/archive.md`).
//!
//! The public surface is what the CLI and the tests use: [`Archive`] (one archive on an
//! object store, opened from an [`ArchiveLocation`] and [`S3Options`]), [`archive()`] (the
//! upload run, with [`ArchiveOptions`], [`Progress`] and [`ArchiveSummary`]) and
//! [`ArchiveReader`] (what `bstore serve --archive` asks), with [`ArchiveError`]. The object
//! formats stay inside the crate.
//!
//! Where to start reading: `keys.rs` (object names) and `layout.rs` (parameters and read
//! limits), then the three object formats — `block_object.rs` (the commit point of a slot),
//! `sig_table.rs` (per-slot signatures) and `range_index.rs` (a sealed range, with
//! `bloom.rs`) — then `writer.rs` (the archive run) and `reader.rs`. `location.rs` turns
//! `s3://BUCKET/PREFIX` plus flags or the standard `AWS_*` variables into a client.
//!
//! Invariants kept by every writer and checked by every reader: an object is visible only
//! once complete (one PUT each); a slot's block object is written after its signature table,
//! so a visible block always has its table; index objects name only slots whose block
//! object was listed before the index was built; every object is immutable once written,
//! except a `sigs/` table of a slot whose block is not there yet (rewritten with the same
//! bytes by a rerun).

mod block_object;
mod bloom;
mod error;
mod keys;
mod layout;
mod location;
mod range_index;
mod reader;
mod sig_table;
mod store;
mod writer;

pub use error::{ArchiveError, Result};
pub use keys::Keys;
pub use layout::{DEFAULT_RANGE_SLOTS, Layout, ReadLimits};
pub use location::{ArchiveLocation, S3Options};
/// Builds a sealed range's index object from its signature tables (the tests forge seals
/// with it).
pub use range_index::build as build_range_index;
pub use reader::{ArchiveReader, first_signature};
pub use sig_table::{SigTable, TxLocation, first_signatures};
pub use store::{Archive, RequestCounts};
pub use writer::{ArchiveOptions, ArchiveSummary, Progress, archive};
