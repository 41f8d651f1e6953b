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
    /// Read-only: a static view of the ledger as it was when opened, beside a writer. Agave
    /// 4.x dropped its secondary access type; `secondary` is kept as another name for this.
    #[value(alias = "secondary")]
    ReadOnly,
}

pub fn blockstore(ledger: &Path, access: Access) -> Result<Blockstore> {
    let access_type = match access {
        Access::Primary => AccessType::Primary,
        Access::ReadOnly => AccessType::ReadOnly,
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
