//! What can be wrong with a shred. Carried by `FormatError::InvalidShred`, which adds the slot
//! and index when the header was readable far enough to know them.

use std::fmt;

/// One reason a shred packet or stored shred payload was rejected. Each variant names the
/// field and the offending value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShredDefect {
    /// The bytes end before the structure does.
    TooShort {
        /// Bytes present.
        len: usize,
        /// Bytes the structure needs.
        need: usize,
    },
    /// The variant byte (offset 64) is not one `docs/formats-shreds.md#variant-byte` describes.
    InvalidVariant(u8),
    /// Data flags with bit 7 (last in slot) set but not bit 6 (data complete).
    InvalidFlags(u8),
    /// The data header's `size` field is outside `88 ..= 88 + capacity`.
    SizeOutOfRange {
        /// The `size` field's value.
        size: u16,
        /// The smallest valid size (88, the headers alone).
        min: usize,
        /// The largest valid size (88 plus the variant's data capacity).
        max: usize,
    },
    /// Shred index at or past the per-slot maximum (32,768).
    IndexTooLarge(u32),
    /// `fec_set_index` is greater than the shred's own index.
    FecSetIndexAfterIndex {
        /// The `fec_set_index` field's value.
        fec_set_index: u32,
        /// The shred's own index.
        index: u32,
    },
    /// `parent_offset` is zero in a slot other than 0.
    ParentOffsetZero,
    /// `parent_offset` is larger than the slot itself.
    ParentOffsetBeyondSlot {
        /// The `parent_offset` field's value.
        parent_offset: u16,
        /// The shred's slot.
        slot: u64,
    },
    /// A coding header field is out of range (`num_data`, `num_code` or `position`).
    InvalidCodeHeader {
        /// Which field is out of range (`"num_data"`, `"num_code"` or `"position"`).
        field: &'static str,
        /// The field's value.
        value: u16,
    },
    /// The Merkle proof cannot be evaluated (e.g. the leaf position does not fit the proof).
    InvalidMerkleProof,
    /// The leader signature does not verify against the Merkle root (or legacy payload).
    InvalidSignature,
    /// A shred of the wrong kind was given (e.g. a code shred where data is required).
    WrongKind {
        /// The kind that was required (`"data"`, `"code"` or `"Merkle"`).
        expected: &'static str,
    },
}

impl ShredDefect {
    /// A stable snake_case name of the defect (for grouping and metrics tags).
    pub fn kind(&self) -> &'static str {
        match self {
            Self::TooShort { .. } => "too_short",
            Self::InvalidVariant(_) => "invalid_variant",
            Self::InvalidFlags(_) => "invalid_flags",
            Self::SizeOutOfRange { .. } => "size_out_of_range",
            Self::IndexTooLarge(_) => "index_too_large",
            Self::FecSetIndexAfterIndex { .. } => "fec_set_index_after_index",
            Self::ParentOffsetZero => "parent_offset_zero",
            Self::ParentOffsetBeyondSlot { .. } => "parent_offset_beyond_slot",
            Self::InvalidCodeHeader { .. } => "invalid_code_header",
            Self::InvalidMerkleProof => "invalid_merkle_proof",
            Self::InvalidSignature => "invalid_signature",
            Self::WrongKind { .. } => "wrong_kind",
        }
    }
}

impl fmt::Display for ShredDefect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::TooShort { len, need } => write!(f, "too short: {len} bytes, need {need}"),
            Self::InvalidVariant(b) => write!(f, "invalid variant byte {b:#04x}"),
            Self::InvalidFlags(b) => {
                write!(
                    f,
                    "invalid flags {b:#04x}: last-in-slot without data-complete"
                )
            }
            Self::SizeOutOfRange { size, min, max } => {
                write!(f, "size field {size} outside {min}..={max}")
            }
            Self::IndexTooLarge(i) => write!(f, "index {i} is not below 32768"),
            Self::FecSetIndexAfterIndex {
                fec_set_index,
                index,
            } => {
                write!(f, "fec_set_index {fec_set_index} is after index {index}")
            }
            Self::ParentOffsetZero => write!(f, "parent_offset 0 in a slot other than 0"),
            Self::ParentOffsetBeyondSlot {
                parent_offset,
                slot,
            } => {
                write!(
                    f,
                    "parent_offset {parent_offset} is larger than slot {slot}"
                )
            }
            Self::InvalidCodeHeader { field, value } => {
                write!(f, "invalid coding header field {field} = {value}")
            }
            Self::InvalidMerkleProof => write!(f, "Merkle proof does not fit the shred"),
            Self::InvalidSignature => write!(f, "leader signature does not verify"),
            Self::WrongKind { expected } => write!(f, "not a {expected} shred"),
        }
    }
}
