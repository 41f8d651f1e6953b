//! Opening Agave's `Blockstore` in the access modes the commands take.

use std::path::Path;

use solana_ledger::blockstore::Blockstore;
use solana_ledger::blockstore_options::{AccessType, BlockstoreOptions};

use crate::error::{Context, Result};

/// `--access`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Access {
    /// Read-write; the only writer of the ledger.
    Primary,
    /// A RocksDB secondary (`<ledger>/rocksdb/solana-secondary`): reads beside a writer.
    Secondary,
}

pub fn blockstore(ledger: &Path, access: Access) -> Result<Blockstore> {
    let access_type = match access {
        Access::Primary => AccessType::Primary,
        Access::Secondary => AccessType::Secondary,
    };
    let options = BlockstoreOptions {
        access_type,
        ..BlockstoreOptions::default()
    };
    Blockstore::open_with_options(ledger, options).context(format!(
        "Agave Blockstore::open({}, {access:?})",
        ledger.display()
    ))
}
