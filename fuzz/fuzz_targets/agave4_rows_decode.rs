//! Coverage-guided fuzzing of the Agave 4.x families' keys and values (`alt_*`,
//! `double_merkle_meta`): any bytes decode or fail with an error naming the column, never
//! panic, and whatever decodes re-encodes to the same bytes (keys) or the same value.
#![no_main]

use bstore_ledger::store::Column;
use bstore_ledger::store::alt_columns::{
    AltDataShred, AltMerkleRootMeta, AltMeta, BlockLocation, DoubleMerkleMetaColumn,
};
use bstore_ledger::{Hash, Slot};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(key) = AltDataShred::decode_key(data) {
        assert_eq!(AltDataShred::encode_key(key).as_slice(), data);
    }
    if let Ok(key) = AltMerkleRootMeta::decode_key(data) {
        assert_eq!(AltMerkleRootMeta::encode_key(key).as_slice(), data);
    }
    if let Ok(key) = DoubleMerkleMetaColumn::decode_key(data) {
        assert_eq!(DoubleMerkleMetaColumn::encode_key(key).as_slice(), data);
    }
    let at = (Slot(1), BlockLocation::Original);
    if let Ok(meta) = DoubleMerkleMetaColumn::decode_value(at, data) {
        let again = DoubleMerkleMetaColumn::encode_value(&meta);
        assert_eq!(again.as_slice(), data, "the layout has one encoding");
    }
    if let Ok(meta) = AltMeta::decode_value((Slot(1), Hash::default()), data) {
        let again =
            AltMeta::decode_value((Slot(1), Hash::default()), &AltMeta::encode_value(&meta));
        assert_eq!(again.ok(), Some(meta));
    }
});
