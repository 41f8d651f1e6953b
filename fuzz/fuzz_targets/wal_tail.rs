//! Coverage-guided fuzzing of the write-ahead-log tail scan (`store::wal_tail`): any bytes
//! scan without panicking, and what a cut would keep is itself a complete log: cutting is
//! idempotent and never keeps more than the file.
#![no_main]

use bstore_ledger::store::wal_tail::{LogTail, scan};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let len = data.len() as u64;
    match scan(data).expect("in memory") {
        LogTail::Complete { records_end } => assert!(records_end <= len),
        LogTail::Torn { keep, len: seen } => {
            assert_eq!(seen, len);
            assert!(keep < len);
            let kept = &data[..usize::try_from(keep).expect("fits")];
            assert_eq!(
                scan(kept).expect("in memory"),
                LogTail::Complete { records_end: keep },
                "what a cut keeps ends after its last record"
            );
        }
        LogTail::Unexpected { offset, .. } => assert!(offset < len),
    }
});
