//! The history values read from a validator's ledger or an archive: a transaction status
//! (protobuf), slot rewards (protobuf), a transaction error (bincode), a memo, and a block
//! record. None may panic or allocate beyond its input; a block record that decodes
//! re-encodes to the same bytes; a status that decodes gives the same error by the quick
//! walk that reads only its error.
#![no_main]

use bstore_ledger::history::{BlockRecord, SlotRewards, StatusMeta, TxError, decode_memo};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let err_only = StatusMeta::decode_err(data);
    if let Ok(meta) = StatusMeta::decode(data) {
        // The quick walk of getSignaturesForAddress gives the full decode's error.
        assert_eq!(err_only.as_ref(), Ok(&meta.err));
        // What decodes re-encodes and decodes again to an equal value (floats aside: a NaN
        // never equals itself).
        let floats_ok = meta
            .pre_token_balances
            .iter()
            .chain(&meta.post_token_balances)
            .all(|b| b.ui_amount.is_none_or(|v| !v.is_nan()));
        if floats_ok {
            let again = meta.encode();
            assert_eq!(StatusMeta::decode(&again).as_ref(), Ok(&meta));
        }
    }
    let _ = SlotRewards::decode(data);
    let _ = TxError::decode(data);
    let _ = decode_memo(data);
    if let Ok(record) = BlockRecord::decode(data) {
        assert_eq!(record.encode(), data);
    }
});
