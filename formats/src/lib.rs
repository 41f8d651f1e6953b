//! # bstore-formats
//!
//! The wire formats of a Solana ledger, with no storage: what a shred, an entry, a
//! transaction and a shred stream file are, how to parse and validate them, and how to make
//! them. Every parser is bounded by its input, never panics and never allocates more than
//! the bytes can justify. Folders follow the data's path:
//!
//! - [`shred`]: the shred wire format (`docs/formats-shreds.md#shreds-on-the-wire`): parsing,
//!   validation, Merkle proofs, signatures, erasure recovery and the leader-side shredder.
//! - [`entry`]: `Vec<Entry>` and transactions
//!   (`docs/formats-entries.md#entries-and-transactions`): owned decode/encode, zero-copy
//!   views, PoH.
//! - [`block`]: Alpenglow block components (`docs/block-components.md`): telling an entry
//!   batch from a block marker, parsing and encoding every marker variant.
//! - [`stream`]: the length-prefixed shred stream files of
//!   `docs/formats-shreds.md#shred-stream-files`.
//! - [`types`]: the domain newtypes (`Slot`, `ShredIndex`, `Hash`, `Pubkey`, `Signature`).
//!
//! Start reading at [`shred::ShredRef`], then [`entry::EntriesView`]. The store that keeps
//! shreds and the fetch that turns them back into entries are in `bstore-ledger`.

pub mod block;
pub mod entry;
pub mod error;
mod sha256_blocks;
pub mod shred;
pub mod stream;
pub mod types;

pub use error::{FormatError, Result};
pub use types::{Hash, Pubkey, ShredIndex, Signature, Slot};
