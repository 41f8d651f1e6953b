use proptest::prelude::*;

use super::*;

fn sample() -> BlockRecord {
    BlockRecord {
        slot: Slot(42),
        parent_slot: Slot(40),
        blockhash: Hash([7; 32]),
        previous_blockhash: Hash([9; 32]),
        block_time: Some(-3),
        block_height: None,
        entry_sets: vec![vec![1, 2, 3], vec![]],
        statuses: vec![Some(vec![0x10, 0x01]), None, Some(vec![])],
        rewards: Some(vec![5; 10]),
    }
}

#[test]
fn round_trips() {
    let record = sample();
    assert_eq!(
        BlockRecord::decode(&record.encode()).expect("decodes"),
        record
    );
    let empty = BlockRecord::default();
    assert_eq!(
        BlockRecord::decode(&empty.encode()).expect("decodes"),
        empty
    );
}

#[test]
fn every_truncation_and_trailing_byte_is_refused() {
    let bytes = sample().encode();
    for cut in 0..bytes.len() {
        let e = BlockRecord::decode(&bytes[..cut]).expect_err("truncated");
        assert_eq!(e.kind(), "invalid_block_record", "cut at {cut}");
    }
    let mut long = bytes.clone();
    long.push(0);
    assert!(BlockRecord::decode(&long).is_err());
}

#[test]
fn a_huge_count_is_refused_before_allocating() {
    let mut bytes = BlockRecord::default().encode();
    // The entry set count sits after the fixed header and two empty options.
    let at = 4 + 1 + 8 + 8 + 32 + 32 + 1 + 1;
    bytes[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    let e = BlockRecord::decode(&bytes).expect_err("count beyond the bytes");
    assert!(e.to_string().contains("entry set count"), "{e}");
}

#[test]
fn bad_magic_and_version_are_named() {
    let mut bytes = sample().encode();
    bytes[0] = b'X';
    assert!(
        BlockRecord::decode(&bytes)
            .expect_err("magic")
            .to_string()
            .contains("magic")
    );
    let mut bytes = sample().encode();
    bytes[4] = 2;
    assert!(
        BlockRecord::decode(&bytes)
            .expect_err("version")
            .to_string()
            .contains("version 2")
    );
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = BlockRecord::decode(&bytes);
    }

    #[test]
    fn arbitrary_records_round_trip(
        slot in any::<u64>(),
        time in proptest::option::of(any::<i64>()),
        height in proptest::option::of(any::<u64>()),
        sets in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..40), 0..4),
        statuses in proptest::collection::vec(
            proptest::option::of(proptest::collection::vec(any::<u8>(), 0..40)), 0..6),
    ) {
        let record = BlockRecord {
            slot: Slot(slot),
            parent_slot: Slot(slot / 2),
            block_time: time,
            block_height: height,
            entry_sets: sets,
            statuses,
            ..BlockRecord::default()
        };
        prop_assert_eq!(BlockRecord::decode(&record.encode()).expect("decodes"), record);
    }
}
