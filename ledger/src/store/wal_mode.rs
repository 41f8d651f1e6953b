//! How a damaged write-ahead log (WAL) is treated when a ledger is opened, under Agave's
//! names (`BlockstoreRecoveryMode`, `--wal-recovery-mode`). See `docs/damage-and-repair.md`.
//!
//! Invariant: no default drops a complete WAL record. Read-write and secondary opens default
//! to `absolute_consistency` (any damage, even an incomplete last record, is an error that
//! names the log); read-only defaults to `tolerate_corrupted_tail_records`, because a
//! read-only open beside a live writer may catch the writer's last record half-written and
//! a read-only open changes nothing on disk. The two modes that skip records
//! (`point_in_time`, `skip_any_corrupted_record`) are only used when asked for.

use std::fmt;
use std::str::FromStr;

use super::kv::AccessMode;
use crate::error::LedgerError;

/// What RocksDB does with a damaged WAL record while it replays the log at open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WalRecoveryMode {
    /// An incomplete record at the end of a log (a write cut off by a crash) is ignored;
    /// any other damage is an error.
    TolerateCorruptedTailRecords,
    /// Any damage is an error, including an incomplete last record.
    AbsoluteConsistency,
    /// Replay stops at the first damaged record: it and everything after it are dropped,
    /// and a read-write open then deletes the log, making the loss permanent.
    PointInTime,
    /// Damaged records are skipped and the records after them replayed (salvage; a batch
    /// may then be applied while an earlier one is not).
    SkipAnyCorruptedRecord,
}

impl WalRecoveryMode {
    /// Every mode, in Agave's order.
    pub const ALL: [Self; 4] = [
        Self::TolerateCorruptedTailRecords,
        Self::AbsoluteConsistency,
        Self::PointInTime,
        Self::SkipAnyCorruptedRecord,
    ];

    /// Agave's name of the mode (`--wal-recovery-mode` value).
    pub fn name(self) -> &'static str {
        match self {
            Self::TolerateCorruptedTailRecords => "tolerate_corrupted_tail_records",
            Self::AbsoluteConsistency => "absolute_consistency",
            Self::PointInTime => "point_in_time",
            Self::SkipAnyCorruptedRecord => "skip_any_corrupted_record",
        }
    }

    /// The mode used when none is given (see the module invariant).
    pub fn default_for(mode: &AccessMode) -> Self {
        match mode {
            AccessMode::ReadOnly => Self::TolerateCorruptedTailRecords,
            AccessMode::ReadWrite | AccessMode::Secondary { .. } => Self::AbsoluteConsistency,
        }
    }

    /// Whether the mode may drop complete records (it must be asked for explicitly).
    pub fn drops_records(self) -> bool {
        matches!(self, Self::PointInTime | Self::SkipAnyCorruptedRecord)
    }
}

impl fmt::Display for WalRecoveryMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for WalRecoveryMode {
    type Err = LedgerError;

    fn from_str(s: &str) -> Result<Self, LedgerError> {
        Self::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| LedgerError::UnknownWalRecoveryMode {
                given: s.to_string(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_are_refused() {
        for mode in WalRecoveryMode::ALL {
            assert_eq!(
                mode.name().parse::<WalRecoveryMode>().expect("parses"),
                mode
            );
        }
        let err = "pointintime"
            .parse::<WalRecoveryMode>()
            .expect_err("unknown");
        assert!(err.to_string().contains("pointintime"), "{err}");
    }

    #[test]
    fn no_default_drops_records() {
        let secondary = AccessMode::Secondary {
            secondary_path: "s".into(),
        };
        for mode in [AccessMode::ReadWrite, AccessMode::ReadOnly, secondary] {
            assert!(!WalRecoveryMode::default_for(&mode).drops_records());
        }
    }
}
