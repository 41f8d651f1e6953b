//! What can be wrong with entry bytes or with a PoH chain. Carried by
//! `FormatError::InvalidEntries` (with the byte offset) and `FormatError::Poh` (with the
//! entry position).

use std::fmt;

use crate::types::Hash;

/// One reason bytes do not decode as a bincode `Vec<Entry>` / transaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryDefect {
    /// The bytes end inside a field.
    Truncated {
        /// The field being read (`"entry hash"`, `"signature"`, ...).
        what: &'static str,
        /// Bytes the field needs.
        need: usize,
        /// Bytes left in the input at that point.
        have: usize,
    },
    /// A declared length cannot fit in the bytes that remain (length bomb) or exceeds a cap.
    LengthTooLarge {
        /// The count or length being read (`"entry count"`, `"instruction data"`, ...).
        what: &'static str,
        /// The value the bytes declare.
        declared: u64,
        /// The largest value that could fit in the remaining bytes, or the cap for that field.
        max: u64,
    },
    /// A compact-u16 (short_vec) length is non-canonical, overflows or is cut short.
    CompactU16(&'static str),
    /// A message after a signature count starts with a version byte other than v0's
    /// `0x80` (v1's `0x81` included: a v1 message is only valid in v1 framing).
    UnsupportedMessageVersion(u8),
    /// A transaction's first byte is neither a one-byte signature count (below `0x80`,
    /// legacy or v0 framing) nor `0x81` (v1 framing). Agave 4's deserializer refuses these,
    /// so a legacy transaction with 128 or more signatures is refused too.
    TransactionPrefix(u8),
    /// A v1 config mask sets bits no config value is defined for (only bits 0 to 4 are).
    UnknownConfigMaskBits(u32),
    /// A v1 config mask sets one of the two priority-fee bits (0 and 1) but not the other.
    SplitPriorityFeeBits(u32),
}

impl fmt::Display for EntryDefect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Truncated { what, need, have } => {
                write!(f, "truncated {what}: need {need} bytes, have {have}")
            }
            Self::LengthTooLarge {
                what,
                declared,
                max,
            } => {
                write!(
                    f,
                    "{what} length {declared} exceeds what can be present ({max})"
                )
            }
            Self::CompactU16(why) => write!(f, "bad compact-u16 length: {why}"),
            Self::UnsupportedMessageVersion(b) => {
                write!(f, "unsupported message version prefix {b:#04x}")
            }
            Self::TransactionPrefix(b) => write!(
                f,
                "transaction starts with {b:#04x}: neither a one-byte signature count nor the v1 prefix 0x81"
            ),
            Self::UnknownConfigMaskBits(m) => {
                write!(f, "v1 config mask {m:#010x} sets unknown bits")
            }
            Self::SplitPriorityFeeBits(m) => write!(
                f,
                "v1 config mask {m:#010x} sets only one of the two priority-fee bits"
            ),
        }
    }
}

/// One reason a chain of entries fails PoH or the tick rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PohDefect {
    /// The entry's hash is not `next_hash(previous, num_hashes, transactions)`.
    HashMismatch {
        /// The hash computed from the previous entry's hash, the entry's `num_hashes` and its
        /// transactions.
        expected: Hash,
        /// The hash the entry carries.
        found: Hash,
    },
    /// The slot has the wrong number of ticks.
    TickCount {
        /// Ticks a slot must hold (its `ticks_per_slot`).
        expected: u64,
        /// Ticks the slot's entries hold.
        found: u64,
    },
    /// The hashes between two ticks do not sum to `hashes_per_tick` (reported at the tick,
    /// or earlier at the first entry whose hashes since the last tick already exceed it).
    HashesPerTick {
        /// The slot's hashes per tick.
        expected: u64,
        /// Hashes counted since the previous tick (or the slot start).
        found: u64,
    },
    /// The slot's last entry is not a tick.
    DoesNotEndOnTick,
    /// The hashes since the last tick (this entry's included) exceed
    /// `HashLimits::max_hashes_per_tick` (hashes per tick unknown). Found before hashing.
    TickHashLimit {
        /// The most hashes allowed between two ticks.
        limit: u64,
        /// Hashes counted since the last tick, this entry's included.
        found: u64,
    },
    /// The slot's hashes so far exceed `HashLimits::max_slot_hashes` (hashes per tick
    /// unknown). Found before hashing.
    SlotHashLimit {
        /// The most hashes allowed in one slot.
        limit: u64,
        /// Hashes counted in the slot so far, this entry's included.
        found: u64,
    },
}

impl fmt::Display for PohDefect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::HashMismatch { expected, found } => {
                write!(f, "hash mismatch: computed {expected}, entry has {found}")
            }
            Self::TickCount { expected, found } => {
                write!(f, "slot has {found} ticks, expected {expected}")
            }
            Self::HashesPerTick { expected, found } => {
                write!(f, "{found} hashes in a tick, expected {expected}")
            }
            Self::DoesNotEndOnTick => write!(f, "slot does not end on a tick"),
            Self::TickHashLimit { limit, found } => write!(
                f,
                "{found} hashes since the last tick exceed the limit of {limit} (refused before hashing)"
            ),
            Self::SlotHashLimit { limit, found } => write!(
                f,
                "{found} hashes in the slot exceed the limit of {limit} (refused before hashing)"
            ),
        }
    }
}
