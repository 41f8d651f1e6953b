//! The integration tests of archive, one binary (one link of RocksDB): each module is one
//! scenario.

mod archive_damaged;
mod archive_purged;
mod archive_resume;
mod archive_round_trip;
mod common;
