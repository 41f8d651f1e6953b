//! Coverage-guided fuzzing of `SlotMeta::decode`: any bytes decode or fail with a reason,
//! never panic, and a decoded meta is bounded (one slot's worth of shreds, children no more
//! than the bytes held) and re-encodes (V3, and V1/V2 without the 4.x fields) to bytes that
//! decode to the same meta.
#![no_main]

use bstore_ledger::Hash;
use bstore_ledger::shred::MAX_SHREDS_PER_SLOT;
use bstore_ledger::store::{SlotMeta, SlotMetaFormat};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(meta) = SlotMeta::decode(data) else {
        return;
    };
    let max = u64::from(MAX_SHREDS_PER_SLOT);
    assert!(meta.consumed <= meta.received && meta.received <= max);
    assert!(meta.last_index.is_none_or(|l| l < max));
    assert!(meta.next_slots.len() * 8 <= data.len());
    let again = SlotMeta::decode(&meta.encode()).expect("re-encoded meta decodes");
    assert_eq!(again, meta);
    // The older row versions carry no 4.x fields: they read back as zeros.
    let old = SlotMeta {
        parent_block_id: Hash::default(),
        replay_fec_set_index: 0,
        ..meta
    };
    for format in [SlotMetaFormat::V1, SlotMetaFormat::V2] {
        let again = SlotMeta::decode(&old.encode_as(format)).expect("re-encoded meta decodes");
        assert_eq!(again, old);
    }
});
