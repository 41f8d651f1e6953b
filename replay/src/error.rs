//! `ReplayError`: why a slot could not be replayed, with the slot and the cause.
//!
//! Two families: the slot's own data is bad (the slot is marked dead: [`ReplayError::marks_dead`])
//! and replay cannot start it (its parent is dead or unknown, or it is dead already: it is
//! refused and left as it is). Storage failures are neither: they are returned as `Err` and
//! stop the caller, since no slot is at fault.

use bstore_ledger::entry::PohDefect;
use bstore_ledger::{FormatError, LedgerError, ShredIndex, Slot};

use crate::alpenglow::ComponentViolation;

/// Everything that can stop the replay of one slot.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The fetch failed on the slot's bytes: a shred missing inside a completed data set,
    /// shreds that do not deshred, or entries that do not decode.
    #[error("slot {slot}: {source}")]
    InvalidData {
        /// The slot being replayed.
        slot: Slot,
        /// The fetch's error, naming the shred range and the defect.
        source: LedgerError,
    },

    /// An entry's hash does not follow from the previous one (`entry` counts from 0 within
    /// the slot; the first entry chains from the parent's blockhash).
    #[error("slot {slot}: PoH verification failed at entry {entry}: {defect}")]
    Poh {
        /// The slot being replayed.
        slot: Slot,
        /// Position of the failing entry in the slot (0-based).
        entry: usize,
        /// The expected and found hashes.
        defect: PohDefect,
    },

    /// The slot breaks the tick rules: too many or too few ticks, wrong hashes between
    /// ticks, or it does not end on a tick; or it asks for more hashes than the limits
    /// allow (`TickHashLimit` / `SlotHashLimit`, found before hashing, kind `hash_limit`).
    #[error("slot {slot}: tick rules broken at entry {entry}: {defect}")]
    Ticks {
        /// The slot being replayed.
        slot: Slot,
        /// Position of the entry where the rule broke (0-based in the slot).
        entry: usize,
        /// Which tick rule broke, with the expected and found counts.
        defect: PohDefect,
    },

    /// The slot's block components break Agave's order rules, or a block marker sits in a
    /// slot that is not an Alpenglow block (`docs/block-components.md#replay`).
    #[error("slot {slot}: {violation}")]
    Component {
        /// The slot being replayed.
        slot: Slot,
        /// Which order rule the components break.
        violation: ComponentViolation,
    },

    /// The executor refused a transaction.
    #[error("slot {slot}: entry {entry}, transaction {transaction}: {reason}")]
    Execute {
        /// The slot being replayed.
        slot: Slot,
        /// Position of the transaction's entry in the slot (0-based).
        entry: usize,
        /// Position of the transaction in its entry (0-based).
        transaction: usize,
        /// The executor's reason.
        reason: String,
    },

    /// Replaying a finished ledger (no more shreds will come), the slot stops at a hole:
    /// shred `missing` is absent and the slot cannot become full.
    #[error(
        "slot {slot} is incomplete: shred {missing} is missing (last index {})",
        last_index.map_or_else(|| "unknown".to_string(), |i| i.to_string())
    )]
    Incomplete {
        /// The incomplete slot.
        slot: Slot,
        /// The first absent data shred: the slot's consumed count.
        missing: ShredIndex,
        /// The slot's last shred index, when a last-in-slot shred was stored.
        last_index: Option<u64>,
    },

    /// Refused: the parent slot is dead, so this slot cannot be built on it.
    #[error("slot {slot}: parent slot {parent} is dead")]
    ParentDead {
        /// The refused slot.
        slot: Slot,
        /// Its dead parent.
        parent: Slot,
    },

    /// Refused: the parent's blockhash is not known (it was not replayed and no blockhash
    /// was given for it), so the first entry cannot be verified.
    #[error(
        "slot {slot}: parent slot {parent} has not been replayed and its blockhash was not given"
    )]
    ParentUnknown {
        /// The refused slot.
        slot: Slot,
        /// Its parent, whose blockhash is unknown.
        parent: Slot,
    },

    /// Refused: the slot's meta names no parent (an orphan placeholder).
    #[error("slot {slot} has no parent in its meta (no shred of it has been stored)")]
    NoParent {
        /// The refused slot.
        slot: Slot,
    },

    /// Refused: the slot has no meta at all.
    #[error("slot {slot} is not in the ledger")]
    UnknownSlot {
        /// The slot that was asked for.
        slot: Slot,
    },

    /// Refused: the slot was marked dead before this replay.
    #[error("slot {slot} is already marked dead")]
    AlreadyDead {
        /// The dead slot.
        slot: Slot,
    },

    /// Refused: the slot was replayed before by this driver.
    #[error("slot {slot} was already replayed")]
    AlreadyReplayed {
        /// The slot replayed before.
        slot: Slot,
    },

    /// The store failed (not the slot's fault; nothing is marked).
    #[error("slot {slot}: storage failure: {source}")]
    Storage {
        /// The slot being replayed when the store failed.
        slot: Slot,
        /// The store's error.
        source: LedgerError,
    },
}

impl ReplayError {
    /// The slot the error is about.
    pub fn slot(&self) -> Slot {
        match self {
            Self::InvalidData { slot, .. }
            | Self::Poh { slot, .. }
            | Self::Ticks { slot, .. }
            | Self::Component { slot, .. }
            | Self::Execute { slot, .. }
            | Self::Incomplete { slot, .. }
            | Self::ParentDead { slot, .. }
            | Self::ParentUnknown { slot, .. }
            | Self::NoParent { slot }
            | Self::UnknownSlot { slot }
            | Self::AlreadyDead { slot }
            | Self::AlreadyReplayed { slot }
            | Self::Storage { slot, .. } => *slot,
        }
    }

    /// True when the slot's own data is at fault, so replay marks it dead.
    pub fn marks_dead(&self) -> bool {
        matches!(
            self,
            Self::InvalidData { .. }
                | Self::Poh { .. }
                | Self::Ticks { .. }
                | Self::Component { .. }
                | Self::Execute { .. }
                | Self::Incomplete { .. }
        )
    }

    /// A short, stable name for the cause (the `reason` tag of the error datapoint).
    pub fn kind(&self) -> &'static str {
        match self {
            Self::InvalidData {
                source: LedgerError::MissingShred { .. },
                ..
            } => "missing_shred",
            Self::InvalidData {
                source: LedgerError::BlockAborted { .. },
                ..
            } => "block_aborted",
            Self::InvalidData { .. } => "invalid_data",
            Self::Poh { .. } => "poh",
            Self::Ticks {
                defect: PohDefect::TickHashLimit { .. } | PohDefect::SlotHashLimit { .. },
                ..
            } => "hash_limit",
            Self::Ticks { .. } => "ticks",
            Self::Component { violation, .. } => violation.name(),
            Self::Execute { .. } => "execute",
            Self::Incomplete { .. } => "incomplete",
            Self::ParentDead { .. } => "parent_dead",
            Self::ParentUnknown { .. } => "parent_unknown",
            Self::NoParent { .. } => "no_parent",
            Self::UnknownSlot { .. } => "unknown_slot",
            Self::AlreadyDead { .. } => "already_dead",
            Self::AlreadyReplayed { .. } => "already_replayed",
            Self::Storage { .. } => "storage",
        }
    }

    /// Sorts a fetch error: bad bytes of the slot, a slot already dead, or the store.
    pub(crate) fn from_fetch(slot: Slot, source: LedgerError) -> Self {
        match source {
            LedgerError::DeadSlot { .. } => Self::AlreadyDead { slot },
            LedgerError::MissingShred { .. }
            | LedgerError::InvalidShredData { .. }
            | LedgerError::BlockAborted { .. }
            | LedgerError::Format(
                FormatError::InvalidEntries { .. }
                | FormatError::InvalidShred { .. }
                | FormatError::InvalidBlockMarker { .. }
                | FormatError::BlockAborted,
            ) => Self::InvalidData { slot, source },
            other => Self::Storage {
                slot,
                source: other,
            },
        }
    }
}
