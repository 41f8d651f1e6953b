//! Wire sizes of the entry format (`docs/formats-entries.md#data-set-layout`,
//! `docs/formats-entries.md#transactions`) and the caps derived from them.
//!
//! Every count read from the wire is checked against `remaining bytes / minimum encoded size
//! of one item`, using the constants below, before anything is allocated for it.

/// Bytes of an entry without transactions: u64 num_hashes, 32-byte hash, u64 tx count.
pub const ENTRY_HEADER_BYTES: usize = 8 + 32 + 8;

/// Smallest encoded transaction: compact-u16 0 signatures, legacy message with a 3-byte
/// header, no keys (1), blockhash (32) and no instructions (1).
pub const MIN_TRANSACTION_BYTES: usize = 1 + 3 + 1 + 32 + 1;

/// Smallest encoded instruction: program id index, empty accounts, empty data.
pub const MIN_INSTRUCTION_BYTES: usize = 1 + 1 + 1;

/// Smallest encoded address table lookup: table key, empty writable and readonly lists.
pub const MIN_LOOKUP_BYTES: usize = 32 + 1 + 1;

/// Largest data set (bytes of one encoded `Vec<Entry>`) accepted, as in Agave, which limits
/// the bincode read to 32,768 data shreds × 1,232 bytes. Real data sets are far smaller
/// (a data shred carries at most ~1,200 bytes); the cap also keeps every offset within a
/// `u32`, which the views rely on.
pub const MAX_DATA_SET_BYTES: usize = 32_768 * 1232;

/// Size of a signature on the wire.
pub const SIGNATURE_BYTES: usize = 64;

/// Size of a public key or hash on the wire.
pub const KEY_BYTES: usize = 32;

/// First byte of a v0 message (`0x80 | version`).
pub const V0_PREFIX: u8 = 0x80;
