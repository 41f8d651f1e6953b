//! `--wal-recovery-mode`, shared by every command that opens a ledger
//! (`docs/damage-and-repair.md#wal-recovery-modes`), and the catch-up flags of the commands
//! that follow a live writer.

use std::time::Duration;

use bstore_ledger::store::{AccessMode, CatchUpPacing, OpenOptions, WalRecoveryMode};
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

/// How a secondary (`serve`, `replay --follow`) keeps up with the ledger's writer
/// (`docs/live-validator.md#what-catching-up-costs`).
#[derive(Debug, Clone, Copy, Args)]
pub(crate) struct CatchUpArgs {
    /// Shortest time between two catch-ups with the writer, in milliseconds: a catch-up
    /// runs at the writer's first change after it (the ledger's files are watched). With
    /// `--catch-up-poll`, the fixed interval instead.
    #[arg(long, default_value_t = 10)]
    pub catch_up_ms: u64,
    /// With no change seen, catch up anyway this often, in milliseconds (for changes the
    /// file watch cannot see, e.g. on a network filesystem).
    #[arg(long, default_value_t = 1000)]
    pub catch_up_idle_ms: u64,
    /// Catch up every `--catch-up-ms` whether or not the writer wrote (no file watch).
    #[arg(long)]
    pub catch_up_poll: bool,
}

impl CatchUpArgs {
    /// The pacing these flags ask for (intervals of at least one millisecond).
    pub(crate) fn pacing(self) -> CatchUpPacing {
        let min_gap = Duration::from_millis(self.catch_up_ms.max(1));
        if self.catch_up_poll {
            CatchUpPacing::Poll(min_gap)
        } else {
            CatchUpPacing::OnChange {
                min_gap,
                idle: Duration::from_millis(self.catch_up_idle_ms.max(1)),
            }
        }
    }
}
