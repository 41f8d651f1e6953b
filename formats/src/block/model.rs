//! The typed block components of an Alpenglow slot (`docs/block-components.md`). Field
//! order is wire order; every integer is little-endian.

use std::fmt;

use crate::types::{Hash, Slot};

/// Bytes of an uncompressed BLS signature (a G2 affine point), as the genesis certificate
/// carries it.
pub const BLS_SIGNATURE_BYTES: usize = 192;
/// Bytes of a compressed BLS signature, as the footer's aggregates carry it.
pub const BLS_SIGNATURE_COMPRESSED_BYTES: usize = 96;
/// Most bytes of a footer's user agent (its length is one byte).
pub const MAX_USER_AGENT_BYTES: usize = 255;
/// Most bitmap bytes a genesis certificate may carry for Agave to turn it into a
/// certificate (4,096 validators). Not a parse rule: a longer bitmap parses, as in Agave.
pub const MAX_GENESIS_BITMAP_BYTES: usize = 512;
/// The only `VersionedBlockMarker` version Agave 4.x knows.
pub const MARKER_VERSION: u16 = 1;

/// An uncompressed BLS signature, kept as bytes (never checked to be a curve point, as
/// Agave does not at parse time).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct BlsSignature(pub [u8; BLS_SIGNATURE_BYTES]);

/// A compressed BLS signature, kept as bytes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct BlsSignatureCompressed(pub [u8; BLS_SIGNATURE_COMPRESSED_BYTES]);

impl fmt::Debug for BlsSignature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "BlsSignature({})",
            bs58::encode(&self.0[..]).into_string()
        )
    }
}

impl fmt::Debug for BlsSignatureCompressed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "BlsSignatureCompressed({})",
            bs58::encode(&self.0[..]).into_string()
        )
    }
}

/// Which of the four marker variants (its `u8` tag on the wire).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MarkerKind {
    /// 0: the block footer.
    Footer,
    /// 1: the block header.
    Header,
    /// 2: UpdateParent (fast leader handover: the block switches to another parent).
    UpdateParent,
    /// 3: the Alpenglow genesis certificate.
    GenesisCertificate,
}

impl MarkerKind {
    /// The variant's tag byte.
    pub fn tag(self) -> u8 {
        match self {
            Self::Footer => 0,
            Self::Header => 1,
            Self::UpdateParent => 2,
            Self::GenesisCertificate => 3,
        }
    }

    /// The variant of a tag byte; `None` for an unknown one.
    pub fn from_tag(tag: u8) -> Option<Self> {
        match tag {
            0 => Some(Self::Footer),
            1 => Some(Self::Header),
            2 => Some(Self::UpdateParent),
            3 => Some(Self::GenesisCertificate),
            _ => None,
        }
    }

    /// A stable lower-case name (JSON, logs).
    pub fn name(self) -> &'static str {
        match self {
            Self::Footer => "footer",
            Self::Header => "header",
            Self::UpdateParent => "update_parent",
            Self::GenesisCertificate => "genesis_certificate",
        }
    }
}

impl fmt::Display for MarkerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A block marker: a data set whose entry count is zero. Only version 1 exists. The two
/// large variants are boxed so a marker is small to move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BlockMarker {
    /// The block footer (last component before the final tick).
    Footer(Box<BlockFooter>),
    /// The block header (first component).
    Header(BlockHeader),
    /// UpdateParent: from here on the block builds on another parent.
    UpdateParent(UpdateParent),
    /// The Alpenglow genesis certificate (only right after the header of the first
    /// Alpenglow block).
    GenesisCertificate(Box<GenesisCertificate>),
}

impl BlockMarker {
    /// A footer marker.
    pub fn footer(footer: BlockFooter) -> Self {
        Self::Footer(Box::new(footer))
    }

    /// A genesis certificate marker.
    pub fn genesis_certificate(cert: GenesisCertificate) -> Self {
        Self::GenesisCertificate(Box::new(cert))
    }

    /// The variant.
    pub fn kind(&self) -> MarkerKind {
        match self {
            Self::Footer(_) => MarkerKind::Footer,
            Self::Header(_) => MarkerKind::Header,
            Self::UpdateParent(_) => MarkerKind::UpdateParent,
            Self::GenesisCertificate(_) => MarkerKind::GenesisCertificate,
        }
    }

    /// The UpdateParent, if this is one.
    pub fn as_update_parent(&self) -> Option<&UpdateParent> {
        match self {
            Self::UpdateParent(u) => Some(u),
            _ => None,
        }
    }

    /// The footer, if this is one.
    pub fn as_footer(&self) -> Option<&BlockFooter> {
        match self {
            Self::Footer(f) => Some(f.as_ref()),
            _ => None,
        }
    }

    /// The header, if this is one.
    pub fn as_header(&self) -> Option<&BlockHeader> {
        match self {
            Self::Header(h) => Some(h),
            _ => None,
        }
    }
}

/// `BlockHeaderV1`: the parent the block is built on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockHeader {
    /// The parent's slot.
    pub parent_slot: Slot,
    /// The parent's block id (its Merkle root).
    pub parent_block_id: Hash,
}

/// `UpdateParentV1`: the block switches to a new parent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UpdateParent {
    /// The new parent's slot.
    pub new_parent_slot: Slot,
    /// The new parent's block id.
    pub new_parent_block_id: Hash,
}

/// `BlockFooterV1`: production metadata and the certificates the leader includes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockFooter {
    /// The bank hash of the block.
    pub bank_hash: Hash,
    /// The producer's wall clock when it made the block, nanoseconds since the Unix epoch.
    pub producer_time_nanos: u64,
    /// Free-form producer identification, at most 255 bytes (not required to be UTF-8).
    pub user_agent: Vec<u8>,
    /// The finalization certificate of an earlier block, if included.
    pub final_cert: Option<FinalizationCert>,
    /// The skip reward certificate, if included.
    pub skip_reward_cert: Option<SkipRewardCert>,
    /// The notarization reward certificate, if included.
    pub notar_reward_cert: Option<NotarRewardCert>,
}

/// `BlockFinalizationCert`: a fast finalization (final aggregate only) or a slow one
/// (final and notarization aggregates).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinalizationCert {
    /// The finalized slot.
    pub slot: Slot,
    /// The finalized block id.
    pub block_id: Hash,
    /// The finalization votes.
    pub final_aggregate: VotesAggregate,
    /// The notarization votes (slow finalization only).
    pub notar_aggregate: Option<VotesAggregate>,
}

/// `VotesAggregate`: an aggregate signature and the bitmap of its signers (`u16` length).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VotesAggregate {
    /// The aggregate signature.
    pub signature: BlsSignatureCompressed,
    /// The signers' bitmap.
    pub bitmap: Vec<u8>,
}

/// `SkipRewardCertificate`: the validators that voted skip for `slot` (compact-u16 bitmap
/// length).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkipRewardCert {
    /// The slot.
    pub slot: Slot,
    /// The aggregate signature.
    pub signature: BlsSignatureCompressed,
    /// The signers' bitmap.
    pub bitmap: Vec<u8>,
}

/// `NotarRewardCertificate`: the validators that voted to notarize `block_id`
/// (compact-u16 bitmap length).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotarRewardCert {
    /// The slot.
    pub slot: Slot,
    /// The notarized block id.
    pub block_id: Hash,
    /// The aggregate signature.
    pub signature: BlsSignatureCompressed,
    /// The signers' bitmap.
    pub bitmap: Vec<u8>,
}

/// `GenesisCertBlockMarker`: the certificate that finalized the Alpenglow genesis block
/// (no inner version byte; `u64` bitmap length).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenesisCertificate {
    /// The genesis block's slot.
    pub slot: Slot,
    /// The genesis block's id.
    pub block_id: Hash,
    /// The aggregate signature, uncompressed.
    pub signature: BlsSignature,
    /// The signers' bitmap.
    pub bitmap: Vec<u8>,
}
