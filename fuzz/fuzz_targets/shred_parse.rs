//! Coverage-guided fuzzing of the shred parser: any bytes must parse or fail with an error,
//! never panic, and every accessor of a parsed shred must be safe to call.
#![no_main]

use bstore_ledger::shred::{self, ShredRef};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = ShredRef::parse(data) else { return };
    let payload = s.payload();
    assert!(payload.len() <= data.len());
    let _ = (
        s.slot(),
        s.index(),
        s.version(),
        s.fec_set_index(),
        s.variant(),
        s.proof_size(),
    );
    let _ = (
        s.parent_slot(),
        s.flags(),
        s.data_complete(),
        s.last_in_slot(),
        s.size(),
    );
    let _ = (s.reference_tick(), s.num_data(), s.num_code(), s.position());
    assert!(s.data().len() <= payload.len());
    let _ = shred::merkle_root(&s);
    let _ = shred::chained_merkle_root(&s);
    // A stored payload must parse again to the same header.
    let again = ShredRef::parse(payload).expect("a parsed shred's payload parses");
    assert_eq!(again.index(), s.index());
    assert_eq!(again.data(), s.data());
});
