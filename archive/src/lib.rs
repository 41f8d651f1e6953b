//! bstore's archive tier: rooted blocks and a signature index on S3-compatible object
//! storage (`docs/archive.md`).
//!
//! Where to start reading: [`keys`] (object names) and [`layout`] (parameters and read
//! limits), then the three object formats — [`block_object`] (the commit point of a slot),
//! [`sig_table`] (per-slot signatures) and [`range_index`] (a sealed range, with [`bloom`]) —
//! then [`writer`] (the archive run) and [`reader`] (what `bstore serve --archive` asks).
//! [`location`] turns `s3://BUCKET/PREFIX` plus flags or the standard `AWS_*` variables into
//! a client.
//!
//! Invariants kept by every writer and checked by every reader: an object is visible only
//! once complete (one PUT each); a slot's block object is written after its signature table,
//! so a visible block always has its table; index objects name only slots whose block
//! object was listed before the index was built; every object is immutable once written,
//! except a `sigs/` table of a slot whose block is not there yet (rewritten with the same
//! bytes by a rerun).

pub mod block_object;
pub mod bloom;
pub mod error;
pub mod keys;
pub mod layout;
pub mod location;
pub mod range_index;
pub mod reader;
pub mod sig_table;
pub mod store;
pub mod writer;

pub use error::{ArchiveError, Result};
pub use layout::{Layout, ReadLimits};
pub use location::{ArchiveLocation, S3Options};
pub use reader::ArchiveReader;
pub use sig_table::TxLocation;
pub use store::Archive;
pub use writer::{ArchiveOptions, ArchiveSummary, Progress};
