//! Coverage-guided fuzzing of the shred stream reader (u64 LE length + packet records):
//! any bytes yield records or one error, never a panic, never a record longer than the
//! bound or than the bytes present, and the records re-encode to the bytes they came from.
#![no_main]

use std::path::Path;

use bstore_ledger::stream::{MAX_RECORD_LEN, StreamReader, write_record};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Once with the length known (files), once without (a pipe).
    for len in [Some(data.len() as u64), None] {
        let mut records = Vec::new();
        let mut failed = false;
        for item in StreamReader::new(Path::new("<fuzz>"), data, len) {
            match item {
                Ok(r) => {
                    assert!(r.len() as u64 <= MAX_RECORD_LEN);
                    records.push(r);
                }
                Err(_) => failed = true,
            }
        }
        let mut again = Vec::new();
        for r in &records {
            write_record(&mut again, r);
        }
        assert!(data.starts_with(&again));
        if !failed {
            assert_eq!(again.len(), data.len());
        }
        let _ = records
            .iter()
            .map(|r| bstore_ledger::shred::ShredRef::parse(r).is_ok());
    }
});
