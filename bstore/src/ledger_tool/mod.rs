//! The read side of agave-ledger-tool over a bstore (or Agave) ledger (`docs/ledger-tool.md`):
//! `bounds`, `roots`, `dead-slots`, `duplicate-slots`, `analyze` and `slot --verbose`.
//!
//! Invariant every command here keeps: the ledger directory is never written. The store is
//! opened as a RocksDB secondary whose own files live in a fresh temporary directory outside
//! the ledger (works beside a running validator), or read-only with `--access read-only`.
//! `tests/cli_ledger_tool.rs` compares the bytes of every file of the ledger before and after
//! each command.

pub(crate) mod analyze;
pub(crate) mod bounds;
pub(crate) mod roots;
pub(crate) mod slot_detail;
pub(crate) mod slot_lists;

use std::path::{Path, PathBuf};

use bstore_ledger::store::{AccessMode, Blockstore};
use clap::{Args, ValueEnum};
use tempfile::TempDir;

use crate::open_args::WalArgs;

/// How a read-only command opens the ledger.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Access {
    /// A RocksDB secondary with its files in a fresh temporary directory: sees what a
    /// running writer has written up to the open, including its unflushed log.
    Secondary,
    /// RocksDB read-only: the database as it was when opened.
    ReadOnly,
}

/// How a command prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// Lines for a person (agave-ledger-tool's wording where it has one).
    Text,
    /// One JSON object (field names are a stable interface for scripts).
    Json,
}

/// How much a command prints beyond its list or summary: `Full` is its `--verbose` (for
/// `bounds`, `--all`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Detail {
    Brief,
    Full,
}

impl Detail {
    /// `Full` when the command's flag is set.
    pub(crate) fn from_flag(flag: bool) -> Self {
        if flag { Self::Full } else { Self::Brief }
    }
}

/// The ledger and how to open it, shared by every command here.
#[derive(Debug, Args)]
pub(crate) struct ReadArgs {
    /// Ledger directory (the database is DIR/rocksdb). Never modified.
    #[arg(long)]
    pub ledger: PathBuf,
    /// Open as a RocksDB secondary (default: works beside a running writer) or read-only.
    #[arg(long, value_enum, default_value_t = Access::Secondary)]
    pub access: Access,
    #[command(flatten)]
    pub wal: WalArgs,
}

/// An open ledger that cannot write. Field order is drop order: the store closes before
/// its secondary directory is removed.
#[derive(Debug)]
pub(crate) struct ReadLedger {
    pub store: Blockstore,
    _secondary: Option<TempDir>,
}

impl ReadLedger {
    /// The store and the secondary's directory (`None` read-only); the caller closes the
    /// store before it drops the directory.
    pub(crate) fn into_parts(self) -> (Blockstore, Option<TempDir>) {
        (self.store, self._secondary)
    }
}

impl ReadArgs {
    /// Opens the ledger as asked.
    pub(crate) fn open(&self) -> Result<ReadLedger, Box<dyn std::error::Error>> {
        open(&self.ledger, self.access, self.wal)
    }
}

/// The database directory `ledger/rocksdb`; an error when it is missing (commands that
/// need an existing ledger never create one).
pub(crate) fn require_ledger(ledger: &Path) -> Result<PathBuf, Box<dyn std::error::Error>> {
    let db = ledger.join("rocksdb");
    if !db.is_dir() {
        return Err(format!(
            "no ledger at {} (missing {})",
            ledger.display(),
            db.display()
        )
        .into());
    }
    Ok(db)
}

/// Opens `ledger` without write access: a missing `ledger/rocksdb` is an error, never a
/// new empty database; damage (a missing file, a corrupt log) is an error naming the file.
pub(crate) fn open(
    ledger: &Path,
    access: Access,
    wal: WalArgs,
) -> Result<ReadLedger, Box<dyn std::error::Error>> {
    require_ledger(ledger)?;
    let (mode, secondary) = match access {
        Access::ReadOnly => (AccessMode::ReadOnly, None),
        Access::Secondary => {
            let dir = tempfile::Builder::new()
                .prefix("bstore-secondary-")
                .tempdir()?;
            let mode = AccessMode::Secondary {
                secondary_path: dir.path().to_path_buf(),
            };
            (mode, Some(dir))
        }
    };
    let store = Blockstore::open_with(ledger, &wal.existing(mode))?;
    // A secondary replays its primary's log at open; catching up once more picks up what
    // a live writer added while the open ran.
    store.catch_up()?;
    Ok(ReadLedger {
        store,
        _secondary: secondary,
    })
}
