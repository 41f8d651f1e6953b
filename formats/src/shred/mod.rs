//! The shred wire format (`docs/formats-shreds.md#shreds-on-the-wire`).
//!
//! - [`ShredRef::parse`] validates a packet or stored payload and exposes its header fields.
//! - [`merkle_root`], [`merkle_leaf`], [`chained_merkle_root`] evaluate the Merkle proof;
//!   [`merkle_root_with`] and a [`NodeMemo`] share inner nodes across the shreds of a set.
//! - [`verify_signature`] checks the leader's signature.
//! - [`recover_fec_set`] rebuilds the missing shreds of an FEC set with Reed–Solomon.
//! - [`Shredder`] turns serialized data sets into signed, chained Merkle data shreds.
//!
//! Layout constants live in `layout`, the variant byte in `variant`.

mod defect;
mod erasure;
mod fec_set;
mod layout;
mod merkle;
mod merkle_memo;
mod parse;
mod recovery;
mod shredder;
mod signature;
mod variant;

pub use defect::ShredDefect;
pub use erasure::encode_parity;
pub use layout::{
    CODE_PAYLOAD_LEN, FLAG_DATA_COMPLETE, FLAG_LAST_IN_SLOT, LEGACY_DATA_CAPACITY,
    MAX_SHREDS_PER_SLOT, MERKLE_DATA_PAYLOAD_LEN, REFERENCE_TICK_MASK, SIZE_OF_CODE_HEADERS,
    SIZE_OF_COMMON_HEADER, SIZE_OF_HEADERS, SIZE_OF_MERKLE_PROOF_ENTRY, SIZE_OF_MERKLE_ROOT,
    SIZE_OF_SIGNATURE,
};
pub use merkle::{
    chained_merkle_root, erasure_shard, merkle_leaf, merkle_root, merkle_root_with, proof_size_for,
    retransmitter_signature,
};
pub use merkle_memo::NodeMemo;
pub use parse::{MAX_CODE_SHREDS_PER_FEC_SET, ShredRef};
pub use recovery::{
    FirstCodeIndex, RecoverOptions, RecoveredSet, RecoveryDefect, recover_fec_set,
    recover_fec_set_with,
};
pub use shredder::{BatchOptions, LastInSlot, Resign, SHREDS_PER_FEC_SET, ShredBatch, Shredder};
pub use signature::verify_signature;
pub use variant::{ShredKind, ShredVariant};
