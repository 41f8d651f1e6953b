//! Coverage-guided fuzzing of the block marker parser (`docs/block-components.md`): never a
//! panic; a marker that parses re-encodes to exactly the bytes it used; the exact parse
//! accepts exactly the lenient parses that used every byte; the data set classifier and
//! the marker parser agree on which bytes are markers; the aborted signal is never a marker.
#![no_main]

use bstore_ledger::FormatError;
use bstore_ledger::block::{BlockMarker, DataSet, is_aborted_block, is_block_marker, parse_data_set};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match BlockMarker::parse_prefix(data) {
        Ok((marker, used)) => {
            assert!(is_block_marker(data));
            let encoded = marker.encode().expect("a parsed marker re-encodes");
            assert_eq!(&data[..used], &encoded[..]);
            assert_eq!(BlockMarker::parse_exact(data).is_ok(), used == data.len());
        }
        Err(FormatError::BlockAborted) => assert!(is_aborted_block(data)),
        Err(FormatError::InvalidBlockMarker { offset, .. }) => {
            assert!(offset <= data.len());
            assert!(BlockMarker::parse_exact(data).is_err());
        }
        Err(other) => panic!("unexpected error kind {other}"),
    }
    match parse_data_set(data) {
        Ok(DataSet::Marker(_)) => assert!(is_block_marker(data)),
        Ok(DataSet::Entries(view)) => {
            assert!(!is_block_marker(data));
            assert!(!view.is_empty());
        }
        Err(_) => {}
    }
});
