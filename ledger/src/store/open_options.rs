//! [`OpenOptions`]: how a ledger is opened — access mode, whether a new database may be
//! created, and the WAL recovery mode (`docs/damage-and-repair.md`).

use super::kv::AccessMode;
use super::wal_mode::WalRecoveryMode;

/// Whether an open may create a new, empty database.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Create {
    /// Read-write only: create the database when the ledger directory is missing or holds
    /// no database files (never where database files exist, see `open_checks.rs`).
    IfMissing,
    /// The database must exist; a missing one is `LedgerError::NoLedger`.
    Never,
}

/// Everything [`Blockstore::open_with`](super::Blockstore::open_with) needs to know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenOptions {
    /// Read-write, read-only or secondary.
    pub mode: AccessMode,
    /// Whether a missing database may be created (only honoured read-write).
    pub create: Create,
    /// How a damaged WAL is treated; `None` = [`WalRecoveryMode::default_for`] the mode.
    pub wal_recovery: Option<WalRecoveryMode>,
}

impl OpenOptions {
    /// Opens an existing ledger in `mode`; never creates one.
    pub fn existing(mode: AccessMode) -> Self {
        Self {
            mode,
            create: Create::Never,
            wal_recovery: None,
        }
    }

    /// `Blockstore::open`'s options: read-write may create a database (only where no
    /// database file exists), the other modes never do; the default WAL recovery mode.
    pub fn for_mode(mode: AccessMode) -> Self {
        let create = if mode == AccessMode::ReadWrite {
            Create::IfMissing
        } else {
            Create::Never
        };
        Self {
            mode,
            create,
            wal_recovery: None,
        }
    }

    /// Opens read-write, creating the database in a missing or empty directory.
    pub fn create_if_missing() -> Self {
        Self {
            mode: AccessMode::ReadWrite,
            create: Create::IfMissing,
            wal_recovery: None,
        }
    }

    /// The same options with the WAL recovery mode `mode` (`None` = the default).
    pub fn with_wal_recovery(mut self, mode: Option<WalRecoveryMode>) -> Self {
        self.wal_recovery = mode;
        self
    }

    /// The WAL recovery mode in force.
    pub fn wal_recovery_mode(&self) -> WalRecoveryMode {
        self.wal_recovery
            .unwrap_or_else(|| WalRecoveryMode::default_for(&self.mode))
    }

    /// Whether this open may create a database.
    pub fn may_create(&self) -> bool {
        self.mode == AccessMode::ReadWrite && self.create == Create::IfMissing
    }
}
