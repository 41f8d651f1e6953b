//! Transaction history: what a validator writes into its ledger beside the shreds once it
//! has executed a block (`docs/history.md`). bstore never executes; it reads these rows to
//! serve them.
//!
//! - [`record`]: [`BlockRecord`], one block with its raw history rows, and its encoding.

pub mod record;

pub use record::BlockRecord;
