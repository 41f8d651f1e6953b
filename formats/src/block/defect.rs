//! What can be wrong with the bytes of a block marker. Carried by
//! `FormatError::InvalidBlockMarker` together with the byte offset inside the data set.

use std::fmt;

use super::model::MarkerKind;

/// One reason a data set that starts with a zero entry count (a block marker) does not
/// parse, or a marker that cannot be encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarkerDefect {
    /// The bytes end inside a field.
    Truncated {
        /// The field being read.
        field: &'static str,
        /// Bytes the field needs.
        need: usize,
        /// Bytes that remain.
        have: usize,
    },
    /// The first 8 bytes are not a zero entry count: the data set is an entry batch.
    NotAMarker,
    /// The marker's `u16` version is not 1 (the only version Agave 4.x knows).
    UnknownVersion(u16),
    /// The `u8` variant of a version-1 marker is not footer (0), header (1), UpdateParent
    /// (2) or genesis certificate (3).
    UnknownVariant(u8),
    /// The `u8` version inside a footer, header or UpdateParent is not 1.
    UnknownInnerVersion {
        /// The marker variant.
        kind: MarkerKind,
        /// The version byte found.
        version: u8,
    },
    /// The marker's `u16` length prefix is not the serialized size of what follows it
    /// (Agave 4.4 rejects this; 4.2 ignored the prefix).
    LengthMismatch {
        /// The marker variant.
        kind: MarkerKind,
        /// The length prefix.
        declared: u16,
        /// The size the inner value actually has.
        actual: usize,
    },
    /// An `Option` tag byte is neither 0 (absent) nor 1 (present).
    InvalidOptionTag {
        /// The optional field.
        field: &'static str,
        /// The tag byte found.
        tag: u8,
    },
    /// A length prefix declares more bytes than remain in the data set (length bomb);
    /// refused before anything is allocated.
    LengthExceedsInput {
        /// The length-prefixed field.
        field: &'static str,
        /// The declared length.
        declared: u64,
        /// Bytes that remain.
        have: usize,
    },
    /// A compact-u16 length is non-canonical, overflows or is cut short.
    CompactU16 {
        /// The length-prefixed field.
        field: &'static str,
        /// Why it is rejected.
        reason: &'static str,
    },
    /// Bytes follow a complete marker where an exact parse was asked for (Agave's data set
    /// fetch ignores them; its genesis-certificate-from-shred path refuses them).
    TrailingBytes {
        /// How many bytes follow.
        count: usize,
    },
    /// Encoding only: a field is longer than its length prefix can say.
    TooLong {
        /// The field.
        field: &'static str,
        /// Its length.
        len: usize,
        /// The most its prefix allows.
        max: usize,
    },
}

impl MarkerDefect {
    /// A stable one-word name of the defect, for metrics tags and grouping.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Truncated { .. } => "marker_truncated",
            Self::NotAMarker => "not_a_marker",
            Self::UnknownVersion(_) => "marker_unknown_version",
            Self::UnknownVariant(_) => "marker_unknown_variant",
            Self::UnknownInnerVersion { .. } => "marker_unknown_inner_version",
            Self::LengthMismatch { .. } => "marker_length_mismatch",
            Self::InvalidOptionTag { .. } => "marker_invalid_option_tag",
            Self::LengthExceedsInput { .. } => "marker_length_exceeds_input",
            Self::CompactU16 { .. } => "marker_compact_u16",
            Self::TrailingBytes { .. } => "marker_trailing_bytes",
            Self::TooLong { .. } => "marker_too_long",
        }
    }
}

impl fmt::Display for MarkerDefect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Truncated { field, need, have } => {
                write!(f, "truncated {field}: need {need} bytes, have {have}")
            }
            Self::NotAMarker => write!(f, "entry count is not zero: not a block marker"),
            Self::UnknownVersion(v) => write!(f, "unknown block marker version {v}"),
            Self::UnknownVariant(v) => write!(f, "unknown block marker variant {v}"),
            Self::UnknownInnerVersion { kind, version } => {
                write!(f, "unknown {kind} version {version}")
            }
            Self::LengthMismatch {
                kind,
                declared,
                actual,
            } => write!(
                f,
                "{kind} length prefix {declared} but its serialized size is {actual}"
            ),
            Self::InvalidOptionTag { field, tag } => {
                write!(f, "invalid option tag {tag} for {field}")
            }
            Self::LengthExceedsInput {
                field,
                declared,
                have,
            } => write!(
                f,
                "{field} declares {declared} bytes but only {have} remain"
            ),
            Self::CompactU16 { field, reason } => {
                write!(f, "bad compact-u16 length of {field}: {reason}")
            }
            Self::TrailingBytes { count } => {
                write!(f, "{count} trailing bytes after the marker")
            }
            Self::TooLong { field, len, max } => {
                write!(f, "{field} is {len} bytes, its length prefix allows {max}")
            }
        }
    }
}
