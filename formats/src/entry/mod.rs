//! Entries and transactions (`docs/formats-entries.md#entries-and-transactions`).
//!
//! A deshredded data set is a bincode `Vec<Entry>`. Two ways in:
//! - [`EntriesView::parse`]: validate once, then borrow entries, transactions and signatures
//!   straight from the buffer (no allocation per transaction). What replay and the
//!   completed-data-sets service use.
//! - [`decode_entries`]: owned [`Entry`] values (RPC, tests); [`encode_entries`] is its
//!   inverse.
//!
//! Both accept exactly the same inputs (Agave's bincode + `short_vec` rules,
//! `docs/formats-entries.md`),
//! never panic, and never allocate more than the input bytes can justify. PoH checks are in
//! [`verify_poh`] and [`verify_slot_ticks`]; both refuse, before hashing, an entry or slot
//! asking for more hashes than [`HashLimits`] (or the tick rules) allow.
//!
//! Files: `short_vec` (compact-u16), `reader` (bounded cursor), `layout` (wire sizes, caps),
//! `model` (owned types), `decode` / `encode`, `scan` (allocation-free validation walk),
//! `view` / `tx_view` (borrowed views), `v1` (v1 config and message walk), `poh`, `tick`,
//! `limits` (PoH work bounds).

mod decode;
mod defect;
mod encode;
mod layout;
mod limits;
mod model;
mod poh;
mod reader;
mod scan;
mod short_vec;
mod tick;
mod tx_view;
mod v1;
mod view;

pub use decode::{decode_entries, decode_transaction};
pub use defect::{EntryDefect, PohDefect};
pub use encode::{
    encode_entries, encode_entries_into, encode_transaction_into, encoded_entries_len,
    encoded_transaction_len,
};
pub use layout::{
    ENTRY_HEADER_BYTES, MAX_DATA_SET_BYTES, MAX_LEGACY_TRANSACTION_BYTES, MAX_V1_TRANSACTION_BYTES,
    MIN_TRANSACTION_BYTES, V0_PREFIX, V1_PREFIX,
};
pub use limits::{HashLimits, HashTally};
pub use model::{
    AddressTableLookup, CompiledInstruction, Entry, LegacyMessage, MessageHeader, TxVersion,
    V0Message, V1Message, VersionedMessage, VersionedTransaction,
};
pub use poh::{PohEntry, next_hash, signatures_mixin, verify_poh, verify_poh_with_limits};
pub use short_vec::MAX_COMPACT_U16_LEN;
pub use tick::{TickRules, verify_slot_ticks, verify_slot_ticks_with_limits};
pub use tx_view::{InstructionView, LookupView, MessageView, TransactionView};
pub use v1::TransactionConfig;
pub use view::{EntriesView, EntryView, TransactionIter};

/// A compact-u16 at the start of `bytes` (`(value, bytes used)`), or why it is rejected:
/// the one decoder, shared with the block markers' reward certificates.
pub(crate) fn short_vec_decode(bytes: &[u8]) -> Result<(u16, usize), &'static str> {
    short_vec::decode(bytes).map_err(|e| e.reason())
}

/// Appends the compact-u16 encoding of `value`.
pub(crate) fn short_vec_encode(value: u16, out: &mut Vec<u8>) {
    short_vec::encode(value, out);
}
