//! The `Column` trait: one RocksDB column family with a typed key and value.
//!
//! Keys encode to fixed-size stack arrays with integers big-endian, so RocksDB's byte order
//! is the numeric order of the key (range scans walk slots and indices in order). Decoding
//! keys and values is fallible: bytes from disk are never trusted.

use crate::error::{LedgerError, Result};

/// Whether RocksDB may compress a column's values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    /// Shred payloads: already high-entropy and read on the hot path, so never compressed.
    None,
    /// RocksDB's default for the build (lz4 when compiled in).
    Default,
}

/// A column family. Implementors are unit structs in [`super::columns`], each documenting
/// its key and value byte layout.
pub trait Column {
    /// The RocksDB column family name (Agave's).
    const NAME: &'static str;
    /// Compression of the column family.
    const COMPRESSION: Compression;
    /// The typed key.
    type Key: Copy + std::fmt::Debug;
    /// The encoded key: a fixed-size array.
    type KeyBytes: AsRef<[u8]> + Copy;
    /// The typed value.
    type Value;

    /// Encodes a key (big-endian integers).
    fn encode_key(key: Self::Key) -> Self::KeyBytes;

    /// Decodes a key read from disk.
    fn decode_key(bytes: &[u8]) -> Result<Self::Key>;

    /// Encodes a value.
    fn encode_value(value: &Self::Value) -> Vec<u8>;

    /// Decodes a value read from disk at `key`. Corrupt bytes are
    /// `LedgerError::CorruptValue` naming the column and the key.
    fn decode_value(key: Self::Key, bytes: &[u8]) -> Result<Self::Value>;
}

/// `LedgerError::CorruptValue` for column `C` at `key`.
pub(crate) fn corrupt_value<C: Column>(key: C::Key, reason: impl Into<String>) -> LedgerError {
    LedgerError::CorruptValue {
        column: C::NAME,
        key: format!("{key:?}"),
        reason: reason.into(),
    }
}

/// `LedgerError::CorruptKey` for column `C`.
pub(crate) fn corrupt_key<C: Column>(bytes: &[u8], reason: impl Into<String>) -> LedgerError {
    LedgerError::CorruptKey {
        column: C::NAME,
        key: bytes.iter().map(|b| format!("{b:02x}")).collect(),
        reason: reason.into(),
    }
}
