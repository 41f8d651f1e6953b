//! Coverage-guided fuzzing of the entry decoders: owned decode and the zero-copy view must
//! agree on every input (both fail, or both succeed with the same entries), never panic, and
//! a successful decode must re-encode to the bytes it consumed.
#![no_main]

use bstore_ledger::entry::{EntriesView, decode_entries, encode_entries};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let owned = decode_entries(data);
    let view = EntriesView::parse(data);
    match (owned, view) {
        (Ok(entries), Ok(view)) => {
            assert_eq!(view.len(), entries.len());
            assert_eq!(
                view.to_owned_entries().expect("a parsed view converts"),
                entries
            );
            let encoded = encode_entries(&entries);
            assert_eq!(&data[..view.encoded_len()], &encoded[..]);
        }
        (Err(_), Err(_)) => {}
        (a, b) => panic!(
            "owned and view disagree: {:?} vs {:?}",
            a.is_ok(),
            b.is_ok()
        ),
    }
});
