//! `store-duplicate` and `duplicate-proof`: a slot's duplicate-slot proof through Agave's
//! own calls, its two shreds checked with Agave's shred API.

use serde::{Deserialize, Serialize};

/// Why two shreds of a slot are a leader's equivocation, by the names bstore's
/// `DuplicateKind` uses (`same_payload` only in `insert`'s report: the same shred again,
/// not a duplicate).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DuplicateKind {
    /// Two payloads at one (slot, index, type) position.
    SamePosition,
    /// Two Merkle roots in one FEC set.
    MerkleRootConflict,
    /// A FEC set that does not chain from the previous set's Merkle root.
    ChainedMerkleRootConflict,
    /// A data shred past the slot's last index, or two last indices.
    LastIndexConflict,
    /// Two code shreds of one FEC set with different erasure configs.
    ErasureConfigConflict,
    /// The same payload again (Agave reports it; no conflict).
    SamePayload,
}

impl DuplicateKind {
    /// The name on the wire (and bstore's `DuplicateKind` name).
    pub fn name(self) -> &'static str {
        match self {
            Self::SamePosition => "same_position",
            Self::MerkleRootConflict => "merkle_root_conflict",
            Self::ChainedMerkleRootConflict => "chained_merkle_root_conflict",
            Self::LastIndexConflict => "last_index_conflict",
            Self::ErasureConfigConflict => "erasure_config_conflict",
            Self::SamePayload => "same_payload",
        }
    }
}

/// What `store-duplicate` stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DuplicateStored {
    /// The slot.
    pub slot: u64,
    /// Always true: Agave's `store_duplicate_slot` succeeded (a failure is an error exit).
    pub stored: bool,
    /// Bytes of the first shred of the proof file.
    pub shred1_len: u64,
    /// Bytes of the second shred.
    pub shred2_len: u64,
    /// Agave's `has_duplicate_shreds_in_slot` afterwards.
    pub has_duplicate: bool,
}

/// What `duplicate-proof` read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DuplicateProofRead {
    /// The slot.
    pub slot: u64,
    /// Agave's `has_duplicate_shreds_in_slot`.
    pub has_duplicate: bool,
    /// Agave's `get_duplicate_slot`, checked; `None` when there is no proof.
    pub proof: Option<ProofCheck>,
}

/// The two shreds of a stored proof, each checked, and the conflicts they show.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProofCheck {
    /// The stored shred.
    pub shred1: ShredCheck,
    /// The conflicting shred.
    pub shred2: ShredCheck,
    /// Every reason the pair is a proof (empty: none).
    pub conflicts: Vec<DuplicateKind>,
    /// Both parse, pass `sanitize`, are of the slot, are signed by `--leader` when given,
    /// differ, and show at least one conflict.
    pub valid: bool,
    /// Why the proof is not valid, one line each (empty when valid).
    pub problems: Vec<String>,
}

/// One shred of a proof through Agave's shred API.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ShredCheck {
    /// `Shred::new_from_serialized_shred` took it.
    Parsed(ParsedShred),
    /// It refused it.
    Unparsable(UnparsableShred),
}

impl ShredCheck {
    /// The parsed shred, if it parsed.
    pub fn parsed(&self) -> Option<&ParsedShred> {
        match self {
            Self::Parsed(shred) => Some(shred),
            Self::Unparsable(_) => None,
        }
    }
}

/// A proof shred Agave parsed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParsedShred {
    /// Payload bytes.
    pub len: u64,
    /// sha256 of the payload (hex).
    pub sha256: String,
    /// The shred's slot.
    pub slot: u64,
    /// Its index within its kind.
    pub index: u32,
    /// Data or code.
    #[serde(rename = "type")]
    pub shred_type: crate::slot::ShredType,
    /// Index of its FEC set's first data shred.
    pub fec_set_index: u32,
    /// Its shred version.
    pub version: u16,
    /// Its FEC set's Merkle root (base58), when Agave derives one.
    pub merkle_root: Option<String>,
    /// The Merkle root it chains from (base58), when it carries one.
    pub chained_merkle_root: Option<String>,
    /// Agave's `Shred::sanitize` accepts it.
    pub sanitize_ok: bool,
    /// Its signature verifies against `--leader`; `None` without `--leader`.
    pub signed_by_leader: Option<bool>,
}

/// A proof shred Agave refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnparsableShred {
    /// Payload bytes.
    pub len: u64,
    /// sha256 of the payload (hex).
    pub sha256: String,
    /// Agave's reason.
    pub error: String,
}
