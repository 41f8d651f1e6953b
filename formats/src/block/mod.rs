//! Alpenglow block components (`docs/block-components.md`).
//!
//! In an Alpenglow slot every completed data set is one component: an entry batch (the
//! legacy `Vec<Entry>` bytes) or a block marker (entry count zero, then a versioned,
//! length-prefixed marker). A block is: header, optional genesis certificate, entries,
//! optional UpdateParent, entries, footer, one final tick. This module parses and encodes
//! every marker variant byte-exact with Agave 4.x (`solana-entry`'s `block_component`);
//! the order rules are replay's.
//!
//! Files: `model` (the typed components), `defect` (why a marker is refused), `cursor`
//! (bounded reads), `decode` / `encode`, `component` (telling a data set's kind apart, the
//! aborted-block signal, the public parse and encode entry points).

mod component;
mod cursor;
mod decode;
mod defect;
mod encode;
mod model;

pub use component::{
    ABORTED_BLOCK_DATA_SET, DataSet, ENTRY_COUNT_BYTES, is_aborted_block, is_block_marker,
    parse_data_set,
};
pub use defect::MarkerDefect;
pub use model::{
    BLS_SIGNATURE_BYTES, BLS_SIGNATURE_COMPRESSED_BYTES, BlockFooter, BlockHeader, BlockMarker,
    BlsSignature, BlsSignatureCompressed, FinalizationCert, GenesisCertificate, MARKER_VERSION,
    MAX_GENESIS_BITMAP_BYTES, MAX_USER_AGENT_BYTES, MarkerKind, NotarRewardCert, SkipRewardCert,
    UpdateParent, VotesAggregate,
};

#[cfg(test)]
mod tests;
