//! `--wal-recovery-mode`, shared by every command that opens a ledger
//! (`docs/damage-and-repair.md#wal-recovery-modes`).

use bstore_ledger::store::{AccessMode, OpenOptions, WalRecoveryMode};
use clap::Args;

/// How a damaged write-ahead log is treated at open.
#[derive(Debug, Clone, Copy, Default, Args)]
pub(crate) struct WalArgs {
    /// What to do with a damaged write-ahead-log record (Agave's names):
    /// tolerate_corrupted_tail_records, absolute_consistency, point_in_time or
    /// skip_any_corrupted_record. Default: absolute_consistency (read-only:
    /// tolerate_corrupted_tail_records); no default drops a complete record.
    #[arg(long, value_name = "MODE")]
    pub wal_recovery_mode: Option<WalRecoveryMode>,
}

impl WalArgs {
    /// Options to open an existing ledger in `mode`; never creates one.
    pub(crate) fn existing(self, mode: AccessMode) -> OpenOptions {
        OpenOptions::existing(mode).with_wal_recovery(self.wal_recovery_mode)
    }

    /// Options to open read-write, creating the database in a missing or empty directory.
    pub(crate) fn create_if_missing(self) -> OpenOptions {
        OpenOptions::create_if_missing().with_wal_recovery(self.wal_recovery_mode)
    }
}
