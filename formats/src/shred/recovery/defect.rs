//! Why an FEC set could not be recovered. Carried by `FormatError::Recovery`, which adds the
//! slot and fec_set_index; every variant that concerns one shred names its index.

use std::fmt;

use crate::shred::ShredDefect;

/// One reason erasure recovery of an FEC set was refused. Recovery never returns a partial
/// result: any of these rejects the whole set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecoveryDefect {
    /// No shreds were given.
    NoShreds,
    /// No code shred was given, so `num_data` / `num_code` are unknown.
    NoCodeShred,
    /// Fewer distinct shreds than `num_data` are present.
    TooFewShreds {
        /// Distinct shreds given.
        present: usize,
        /// Distinct shreds recovery needs: the set's `num_data`.
        needed: usize,
    },
    /// A shred of another slot, shred version or FEC set.
    ForeignShred {
        /// Index of the shred that does not belong to the set.
        index: u32,
    },
    /// Legacy and Merkle shreds mixed, or Merkle shreds with different proof size /
    /// chained / resigned bits, or a proof size that does not fit `num_data + num_code`.
    VariantMismatch {
        /// Index of the shred whose variant does not fit the set.
        index: u32,
    },
    /// A code shred whose `num_data`, `num_code` or first code index (`index − position`)
    /// differs from the set's.
    CodeHeaderMismatch {
        /// Index of the code shred whose header differs from the set's.
        index: u32,
    },
    /// The set's only code shred is legacy and states position 0 away from the set's index,
    /// and both of its readings (placed at position 0, or by its index as leaders before
    /// Solana 1.7 meant) rebuild valid but different shreds: more shreds, or the leader's
    /// key, are needed to tell which is right.
    AmbiguousCodePosition {
        /// Index of the legacy code shred.
        index: u32,
    },
    /// A data shred whose position (`index − fec_set_index`) is not below `num_data`.
    OutsideSet {
        /// Index of the data shred outside the set.
        index: u32,
    },
    /// `num_data + num_code` exceeds the 256 shards GF(2^8) allows.
    UnsupportedShape {
        /// Number of data shreds the code headers declare.
        num_data: u16,
        /// Number of code shreds the code headers declare.
        num_code: u16,
    },
    /// Two different shreds claim the same erasure position (their erasure shards differ).
    ConflictingShreds {
        /// Index of the second shred at an already taken position.
        index: u32,
    },
    /// A Merkle shred whose leader signature differs from the set's (the leader signs the
    /// one root, so all shreds of a set carry the same signature).
    LeaderSignatureMismatch {
        /// Index of the shred with the different signature.
        index: u32,
    },
    /// A present Merkle shred's proof cannot be evaluated.
    InvalidProof {
        /// Index of the shred whose proof cannot be evaluated.
        index: u32,
    },
    /// A present Merkle shred's proof leads to another root than the set's.
    MerkleRootMismatch {
        /// Index of the shred whose proof leads elsewhere.
        index: u32,
    },
    /// The Reed–Solomon decoder refused the shards (its own error text).
    ReedSolomon(&'static str),
    /// A recovered data shred's header field does not match the set (wrong shard bytes).
    RecoveredHeaderMismatch {
        /// Index of the recovered data shred.
        index: u32,
        /// The header field that does not match (`"slot"`, `"version"`, `"fec_set_index"`, ...).
        field: &'static str,
    },
    /// A recovered data shred fails header validation.
    RecoveredShredInvalid {
        /// Index of the recovered data shred.
        index: u32,
        /// What its header validation found.
        defect: ShredDefect,
    },
    /// A recovered legacy data shred has non-zero bytes after `size` (leaders zero-pad).
    RecoveredPaddingNotZero {
        /// Index of the recovered legacy data shred.
        index: u32,
    },
    /// The Merkle tree rebuilt over present and recovered shreds has another root than the
    /// set's: some shard was wrong.
    RecoveredRootMismatch,
    /// The leader signature does not verify for the set's root (Merkle) or for a recovered
    /// legacy shred (only checked when the caller gives the leader's key).
    InvalidLeaderSignature {
        /// Index of the shred whose signature was checked.
        index: u32,
    },
    /// The retransmitter signature put on recovered shreds of a resigned set does not verify
    /// for the set's root (only checked when the caller gives the retransmitter's key).
    InvalidRetransmitterSignature,
}

impl RecoveryDefect {
    /// A stable snake_case name of the defect (for grouping and metrics tags).
    pub fn kind(&self) -> &'static str {
        match self {
            Self::NoShreds => "no_shreds",
            Self::NoCodeShred => "no_code_shred",
            Self::TooFewShreds { .. } => "too_few_shreds",
            Self::ForeignShred { .. } => "foreign_shred",
            Self::VariantMismatch { .. } => "variant_mismatch",
            Self::CodeHeaderMismatch { .. } => "code_header_mismatch",
            Self::AmbiguousCodePosition { .. } => "ambiguous_code_position",
            Self::OutsideSet { .. } => "outside_set",
            Self::UnsupportedShape { .. } => "unsupported_shape",
            Self::ConflictingShreds { .. } => "conflicting_shreds",
            Self::LeaderSignatureMismatch { .. } => "leader_signature_mismatch",
            Self::InvalidProof { .. } => "invalid_proof",
            Self::MerkleRootMismatch { .. } => "merkle_root_mismatch",
            Self::ReedSolomon(_) => "reed_solomon",
            Self::RecoveredHeaderMismatch { .. } => "recovered_header_mismatch",
            Self::RecoveredShredInvalid { .. } => "recovered_shred_invalid",
            Self::RecoveredPaddingNotZero { .. } => "recovered_padding_not_zero",
            Self::RecoveredRootMismatch => "recovered_root_mismatch",
            Self::InvalidLeaderSignature { .. } => "invalid_leader_signature",
            Self::InvalidRetransmitterSignature => "invalid_retransmitter_signature",
        }
    }
}

impl fmt::Display for RecoveryDefect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::NoShreds => write!(f, "no shreds given"),
            Self::NoCodeShred => write!(f, "no code shred: num_data and num_code are unknown"),
            Self::TooFewShreds { present, needed } => {
                write!(f, "{present} distinct shreds present, {needed} needed")
            }
            Self::ForeignShred { index } => {
                write!(
                    f,
                    "shred {index} belongs to another slot, version or FEC set"
                )
            }
            Self::VariantMismatch { index } => {
                write!(f, "shred {index} has a variant inconsistent with the set")
            }
            Self::CodeHeaderMismatch { index } => {
                write!(f, "code shred {index} has a coding header unlike the set's")
            }
            Self::AmbiguousCodePosition { index } => write!(
                f,
                "code shred {index} (position 0) reads two ways and both rebuild valid shreds"
            ),
            Self::OutsideSet { index } => {
                write!(f, "data shred {index} lies past the set's num_data")
            }
            Self::UnsupportedShape { num_data, num_code } => {
                write!(f, "{num_data} data + {num_code} code shards exceed 256")
            }
            Self::ConflictingShreds { index } => {
                write!(f, "two different shreds at the position of shred {index}")
            }
            Self::LeaderSignatureMismatch { index } => {
                write!(f, "shred {index} carries another leader signature")
            }
            Self::InvalidProof { index } => write!(f, "shred {index}: Merkle proof unusable"),
            Self::MerkleRootMismatch { index } => {
                write!(f, "shred {index}: Merkle proof leads to another root")
            }
            Self::ReedSolomon(e) => write!(f, "Reed-Solomon decoder: {e}"),
            Self::RecoveredHeaderMismatch { index, field } => {
                write!(f, "recovered shred {index}: {field} does not match the set")
            }
            Self::RecoveredShredInvalid { index, defect } => {
                write!(f, "recovered shred {index} is invalid: {defect}")
            }
            Self::RecoveredPaddingNotZero { index } => {
                write!(f, "recovered legacy shred {index} has non-zero padding")
            }
            Self::RecoveredRootMismatch => {
                write!(f, "rebuilt Merkle tree has another root than the set")
            }
            Self::InvalidLeaderSignature { index } => {
                write!(f, "leader signature does not verify (shred {index})")
            }
            Self::InvalidRetransmitterSignature => {
                write!(f, "retransmitter signature does not verify for the root")
            }
        }
    }
}
