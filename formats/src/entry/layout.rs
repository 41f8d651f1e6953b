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
pub(super) const MIN_INSTRUCTION_BYTES: usize = 1 + 1 + 1;

/// Smallest encoded address table lookup: table key, empty writable and readonly lists.
pub(super) const MIN_LOOKUP_BYTES: usize = 32 + 1 + 1;

/// Largest data set (bytes of one encoded `Vec<Entry>`) accepted, as in Agave, which limits
/// the bincode read to 32,768 data shreds × 1,232 bytes. Real data sets are far smaller
/// (a data shred carries at most ~1,200 bytes); the cap also keeps every offset within a
/// `u32`, which the views rely on.
pub const MAX_DATA_SET_BYTES: usize = 32_768 * 1232;

/// Size of a signature on the wire.
pub(super) const SIGNATURE_BYTES: usize = 64;

/// Size of a public key or hash on the wire.
pub(super) const KEY_BYTES: usize = 32;

/// First byte of a v0 message (`0x80 | version`).
pub const V0_PREFIX: u8 = 0x80;

/// First byte of a v1 message (`0x80 | 1`), which is also the first byte of a v1
/// transaction: v1 puts the message first and its signatures after it.
pub const V1_PREFIX: u8 = 0x81;

/// Bytes of a v1 message from its version byte through the address count: version (1),
/// header (3), config mask (4), recent blockhash (32), instruction count (1), address
/// count (1).
pub(super) const V1_FIXED_BYTES: usize = 1 + 3 + 4 + 32 + 1 + 1;

/// Bytes of one v1 instruction header: program id index (u8), account count (u8), data
/// length (u16 LE).
pub(super) const V1_INSTRUCTION_HEADER_BYTES: usize = 4;

/// Largest legacy or v0 transaction Agave executes: one packet (`PACKET_DATA_SIZE`,
/// 1280 − 40 − 8 bytes). A sanitization limit, not a decoding one.
pub const MAX_LEGACY_TRANSACTION_BYTES: usize = 1232;

/// Largest v1 transaction Agave executes (`v1::MAX_TRANSACTION_SIZE`). A sanitization
/// limit, not a decoding one: Agave's deserializer reads a longer one, and its bank then
/// refuses it, so no valid block holds one.
pub const MAX_V1_TRANSACTION_BYTES: usize = 4096;
