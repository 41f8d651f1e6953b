//! Every column family of the blockstore, declared once, in Agave 4.x's order, with its key
//! and value byte layout (`docs/on-disk-layout.md#column-families`). The `columns!` list
//! below generates each column's type and [`FAMILIES`]; every other list of families (the
//! ones an open creates, the ones a purge deletes from, `families::AGAVE4`) is derived from
//! it, so adding a column is one line here.
//!
//! Names, keys and values are Agave's, so either program can open a ledger the other wrote.
//! Keys: integers big-endian (`keys.rs`). Values: bincode 1.x fixint, integers
//! little-endian (`values.rs`).
//!
//! Agave's per-slot `index` and per-set `erasure_meta` / `merkle_root_meta` rows are kept as
//! Agave's insert keeps them (`agave_meta.rs`), so Agave continuing a ledger bstore wrote
//! finds the presence, shapes and roots it expects.

use super::agave_meta::{DuplicateSlotProof, ErasureMeta, MerkleRootMeta, SlotIndex};
use super::alt_columns::DoubleMerkleMeta;
use super::column::{
    Column, Compression, Family, KeyCodec, KeyStart, ValueCodec, Values, corrupt_key, corrupt_value,
};
use super::keys::{
    AddressKey, BlockIdKey, BlockSetKey, BlockShredKey, LocationKey, NarrowSetKey, ShredKey,
    SignatureSlotKey, SlotKey, WideSetKey,
};
use super::slot_meta::SlotMeta;
use super::values::{RewardsProto, StatusProto};
use crate::error::Result;

pub use super::keys::{AddressRowKey, BlockKey, SetKey, shred_key, signature_slot_key, slot_key};

/// Declares every column: `Name: "family", KeyLayout => Value, compression, values;` makes
/// the unit struct `Name` implementing [`Column`] (key codec from `keys.rs`, value codec
/// from `values.rs`) and lists it in [`FAMILIES`], in the order written.
macro_rules! columns {
    ($(
        $(#[$doc:meta])*
        $name:ident: $cf:literal, $key:ty => $value:ty, $compression:ident, $values:ident;
    )*) => {
        $(
            $(#[$doc])*
            #[derive(Debug, Clone, Copy)]
            pub struct $name;

            impl Column for $name {
                const NAME: &'static str = $cf;
                const COMPRESSION: Compression = Compression::$compression;
                const KEY_START: KeyStart = <$key as KeyCodec>::START;
                type Key = <$key as KeyCodec>::Key;
                type KeyBytes = <$key as KeyCodec>::Bytes;
                type Value = $value;

                fn encode_key(key: Self::Key) -> Self::KeyBytes {
                    <$key as KeyCodec>::encode(key)
                }

                fn decode_key(bytes: &[u8]) -> Result<Self::Key> {
                    <$key as KeyCodec>::decode(bytes).map_err(|r| corrupt_key::<Self>(bytes, r))
                }

                fn encode_value(value: &$value) -> Vec<u8> {
                    <$value as ValueCodec<Self::Key>>::encode_value(value)
                }

                fn decode_value(key: Self::Key, bytes: &[u8]) -> Result<$value> {
                    <$value as ValueCodec<Self::Key>>::decode_value(key, bytes)
                        .map_err(|r| corrupt_value::<Self>(key, r))
                }
            }
        )*

        /// Every column family of an Agave 4.x ledger (4.2 / 4.4), in Agave's order: a
        /// read-write open creates the missing ones, a purge deletes the purged slots' rows
        /// from each (`KeyStart::Slot` by range, the others through the slots'
        /// transactions).
        pub const FAMILIES: [Family; [$($cf),*].len()] = [$(
            Family {
                name: $cf,
                compression: Compression::$compression,
                key_start: <$key as KeyCodec>::START,
                values: Values::$values,
            }
        ),*];
    };
}

columns! {
    /// `erasure_meta`: slot u64 BE ‖ fec_set_index u64 BE (16) → [`ErasureMeta`] (40 bytes);
    /// the decoded `fec_set_index` must equal the key's.
    ErasureMetaColumn: "erasure_meta", WideSetKey => ErasureMeta, Default, Decoded;
    /// `dead_slots`: slot u64 BE (8) → bool, one byte (0 or 1).
    DeadSlots: "dead_slots", SlotKey => bool, Default, Decoded;
    /// `duplicate_slots`: slot u64 BE (8) → [`DuplicateSlotProof`].
    DuplicateSlots: "duplicate_slots", SlotKey => DuplicateSlotProof, Default, Decoded;
    /// `index`: slot u64 BE (8) → [`SlotIndex`] (V2 written, V1 read). The decoded `slot`
    /// must equal the key.
    Index: "index", SlotKey => SlotIndex, Default, Decoded;
    /// `orphans`: slot u64 BE (8) → bool, one byte: a slot known only as a parent (its meta
    /// is a placeholder without a parent of its own), which repair asks for.
    Orphans: "orphans", SlotKey => bool, Default, Decoded;
    /// `bank_hashes`: slot u64 BE (8) → Agave's bincode `FrozenHashVersioned`; bstore keeps
    /// the bytes and deletes them with the slot.
    BankHashes: "bank_hashes", SlotKey => Vec<u8>, Default, Opaque;
    /// `root`: slot u64 BE (8) → bool, one byte (0 or 1).
    Root: "root", SlotKey => bool, Default, Decoded;
    /// `meta`: slot u64 BE (8) → [`SlotMeta`] (`docs/on-disk-layout.md#slotmeta`; V1, V2 and
    /// V3 rows read, V3 written as Agave 4.x writes it). The decoded `slot` field must equal
    /// the key.
    Meta: "meta", SlotKey => SlotMeta, Default, Decoded;
    /// `data_shred`: slot u64 BE ‖ index u64 BE (16) → the stored data shred payload
    /// (`docs/formats-shreds.md#what-the-store-keeps`: Merkle 1203 bytes, legacy trimmed to
    /// `size`). Not compressed.
    DataShred: "data_shred", ShredKey => Vec<u8>, None, Decoded;
    /// `code_shred`: slot u64 BE ‖ index u64 BE (16) → the full coding shred payload (1228
    /// bytes). Not compressed.
    CodeShred: "code_shred", ShredKey => Vec<u8>, None, Decoded;
    /// `transaction_status`: signature ‖ slot u64 BE (72) → [`StatusProto`], Agave's
    /// protobuf `TransactionStatusMeta` (`docs/history.md#columns`).
    TransactionStatus: "transaction_status", SignatureSlotKey => StatusProto, Default, Decoded;
    /// `address_signatures`: address ‖ slot u64 BE ‖ transaction index u32 BE ‖ signature
    /// (108) → bool, Agave's bincode `AddressSignatureMeta { writeable }`.
    AddressSignatures: "address_signatures", AddressKey => bool, Default, Decoded;
    /// `transaction_memos`: signature ‖ slot u64 BE (72) → the memo, a bincode `String`.
    TransactionMemos: "transaction_memos", SignatureSlotKey => String, Default, Decoded;
    /// `rewards`: slot u64 BE (8) → [`RewardsProto`], Agave's protobuf `Rewards`.
    Rewards: "rewards", SlotKey => RewardsProto, Default, Decoded;
    /// `blocktime`: slot u64 BE (8) → i64 LE (8), Unix seconds.
    BlockTime: "blocktime", SlotKey => i64, Default, Decoded;
    /// `perf_samples`: slot u64 BE (8) → Agave's bincode `PerfSample`; kept, never read.
    PerfSamples: "perf_samples", SlotKey => Vec<u8>, Default, Opaque;
    /// `block_height`: slot u64 BE (8) → u64 LE (8).
    BlockHeight: "block_height", SlotKey => u64, Default, Decoded;
    /// `optimistic_slots`: slot u64 BE (8) → Agave's bincode `OptimisticSlotMetaVersioned`
    /// (`optimistic.rs`); the validator writes one row per optimistically confirmed slot.
    OptimisticSlots: "optimistic_slots", SlotKey => Vec<u8>, Default, Opaque;
    /// `merkle_root_meta`: slot u64 BE ‖ fec_set_index u32 BE (12) → [`MerkleRootMeta`].
    MerkleRootMetaColumn: "merkle_root_meta", NarrowSetKey => MerkleRootMeta, Default, Decoded;
    /// `alt_meta`: slot u64 BE ‖ block_id (40) → [`SlotMeta`] (the `meta` row layout, V3);
    /// the decoded `slot` must equal the key's (`alt_columns.rs`).
    AltMeta: "alt_meta", BlockIdKey => SlotMeta, Default, Decoded;
    /// `alt_index`: slot u64 BE ‖ block_id (40) → [`SlotIndex`] (the `index` row layout).
    AltIndex: "alt_index", BlockIdKey => SlotIndex, Default, Decoded;
    /// `alt_data_shred`: slot u64 BE ‖ block_id ‖ shred index u64 BE (48) → the data shred
    /// payload, as in `data_shred`. Not compressed.
    AltDataShred: "alt_data_shred", BlockShredKey => Vec<u8>, None, Decoded;
    /// `alt_merkle_root_meta`: slot u64 BE ‖ block_id ‖ fec_set_index u32 BE (44) →
    /// [`MerkleRootMeta`], as in `merkle_root_meta`.
    AltMerkleRootMeta: "alt_merkle_root_meta", BlockSetKey => MerkleRootMeta, Default, Decoded;
    /// `double_merkle_meta`: slot u64 BE ‖ [`BlockLocation`](super::BlockLocation) as 32
    /// bytes (40) → [`DoubleMerkleMeta`].
    DoubleMerkleMetaColumn: "double_merkle_meta", LocationKey => DoubleMerkleMeta, Default, Decoded;
}

/// The families whose keys start with the slot: a purge deletes a slot range from each.
pub fn slot_keyed() -> impl Iterator<Item = &'static str> {
    let all: &'static [Family] = &FAMILIES;
    all.iter()
        .filter(|f| f.key_start == KeyStart::Slot)
        .map(|f| f.name)
}

/// The declared family named `name`.
pub fn family(name: &str) -> Option<&'static Family> {
    let all: &'static [Family] = &FAMILIES;
    all.iter().find(|f| f.name == name)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::error::LedgerError;
    use crate::types::{Pubkey, ShredIndex, Signature, Slot};

    #[test]
    fn key_bytes_are_big_endian() {
        assert_eq!(slot_key(Slot(0x0102)), [0, 0, 0, 0, 0, 0, 1, 2]);
        assert_eq!(
            shred_key(Slot(1), ShredIndex(0x0203)),
            [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 2, 3]
        );
    }

    #[test]
    fn history_keys_of_the_wrong_length_are_errors_naming_the_column() {
        assert!(matches!(
            TransactionStatus::decode_key(&[0; 71]),
            Err(LedgerError::CorruptKey { column: "transaction_status", ref reason, .. })
                if reason == "expected 72 bytes"
        ));
        assert!(matches!(
            AddressSignatures::decode_key(&[0; 107]),
            Err(LedgerError::CorruptKey { column: "address_signatures", ref reason, .. })
                if reason == "expected 108 bytes"
        ));
        assert!(matches!(
            PerfSamples::decode_key(&[0; 9]),
            Err(LedgerError::CorruptKey {
                column: "perf_samples",
                ..
            })
        ));
        assert_eq!(
            TransactionMemos::decode_value(
                (Signature::default(), Slot(1)),
                &TransactionMemos::encode_value(&"hi".to_string())
            )
            .ok(),
            Some("hi".to_string())
        );
    }

    #[test]
    fn corrupt_keys_and_values_are_errors() {
        assert!(matches!(
            DataShred::decode_key(&[0; 15]),
            Err(LedgerError::CorruptKey {
                column: "data_shred",
                ..
            })
        ));
        let mut key = [0u8; 16];
        key[11] = 1; // index 2^32
        assert!(matches!(
            CodeShred::decode_key(&key),
            Err(LedgerError::CorruptKey {
                column: "code_shred",
                ..
            })
        ));
        assert!(matches!(
            Root::decode_value(Slot(3), &[2]),
            Err(LedgerError::CorruptValue { column: "root", .. })
        ));
        assert!(matches!(
            BlockTime::decode_value(Slot(3), &[0; 7]),
            Err(LedgerError::CorruptValue {
                column: "blocktime",
                ..
            })
        ));
        let meta = SlotMeta::new(Slot(4), Some(Slot(3))).encode();
        assert!(matches!(
            Meta::decode_value(Slot(5), &meta),
            Err(LedgerError::CorruptValue { column: "meta", .. })
        ));
        assert_eq!(
            Meta::decode_value(Slot(4), &meta).ok().map(|m| m.slot),
            Some(Slot(4))
        );
    }

    proptest! {
        #[test]
        fn slot_key_order_is_numeric_order(a in any::<u64>(), b in any::<u64>()) {
            prop_assert_eq!(slot_key(Slot(a)).cmp(&slot_key(Slot(b))), a.cmp(&b));
            prop_assert_eq!(Meta::decode_key(&slot_key(Slot(a))).ok(), Some(Slot(a)));
        }

        #[test]
        fn shred_key_order_is_numeric_order(
            a in (any::<u64>(), any::<u32>()),
            b in (any::<u64>(), any::<u32>()),
        ) {
            let ka = shred_key(Slot(a.0), ShredIndex(a.1));
            let kb = shred_key(Slot(b.0), ShredIndex(b.1));
            prop_assert_eq!(ka.cmp(&kb), a.cmp(&b));
            prop_assert_eq!(DataShred::decode_key(&ka).ok(), Some((Slot(a.0), ShredIndex(a.1))));
        }

        #[test]
        fn history_keys_round_trip_in_numeric_order(
            sig in any::<[u8; 32]>(),
            a in any::<u64>(),
            b in any::<u64>(),
            index in any::<u32>(),
        ) {
            let mut signature = [0u8; 64];
            signature[..32].copy_from_slice(&sig);
            let signature = Signature(signature);
            let ka = TransactionStatus::encode_key((signature, Slot(a)));
            let kb = TransactionMemos::encode_key((signature, Slot(b)));
            prop_assert_eq!(ka.cmp(&kb), a.cmp(&b));
            prop_assert_eq!(&ka[..], &signature_slot_key(&signature.0, Slot(a))[..]);
            prop_assert_eq!(TransactionStatus::decode_key(&ka).ok(), Some((signature, Slot(a))));
            let row = |slot| AddressRowKey {
                address: Pubkey(sig),
                slot: Slot(slot),
                transaction_index: index,
                signature,
            };
            let (ra, rb) = (AddressSignatures::encode_key(row(a)), AddressSignatures::encode_key(row(b)));
            prop_assert_eq!(ra.cmp(&rb), a.cmp(&b));
            prop_assert_eq!(&ra[..32], &sig[..]);
            prop_assert_eq!(&ra[32..40], &a.to_be_bytes()[..]);
            prop_assert_eq!(&ra[40..44], &index.to_be_bytes()[..]);
            prop_assert_eq!(AddressSignatures::decode_key(&ra).ok(), Some(row(a)));
            prop_assert_eq!(Rewards::encode_key(Slot(a)), slot_key(Slot(a)));
        }

        #[test]
        fn values_round_trip(t in any::<i64>(), h in any::<u64>(), d in any::<bool>()) {
            prop_assert_eq!(BlockTime::decode_value(Slot(1), &BlockTime::encode_value(&t)).ok(), Some(t));
            prop_assert_eq!(BlockHeight::decode_value(Slot(1), &BlockHeight::encode_value(&h)).ok(), Some(h));
            prop_assert_eq!(DeadSlots::decode_value(Slot(1), &DeadSlots::encode_value(&d)).ok(), Some(d));
        }
    }
}
