use super::*;
use bstore_ledger::Hash;

fn record(slot: u64) -> BlockRecord {
    BlockRecord {
        slot: Slot(slot),
        parent_slot: Slot(slot - 1),
        blockhash: Hash([7; 32]),
        previous_blockhash: Hash([6; 32]),
        block_time: Some(1_700_000_000),
        block_height: Some(slot - 10),
        entry_sets: vec![vec![1; 3000], vec![2; 100]],
        statuses: vec![Some(b"meta".to_vec()), None],
        rewards: Some(b"rewards".to_vec()),
    }
}

#[test]
fn block_objects_round_trip() {
    let r = record(42);
    let obj = encode(&r).expect("encodes");
    assert!(obj.bytes.len() < obj.raw_len as usize, "compresses");
    let key = Path::from("blocks/x");
    assert_eq!(
        decode(&key, Slot(42), &obj.bytes, &ReadLimits::default()).expect("decodes"),
        r
    );
}

#[test]
fn every_flipped_byte_and_every_cut_is_an_error() {
    let obj = encode(&record(42)).expect("encodes");
    let key = Path::from("blocks/x");
    let limits = ReadLimits::default();
    for i in 0..obj.bytes.len() {
        let mut b = obj.bytes.clone();
        b[i] ^= 0x20;
        // Reserved header bytes are not checked; everything else is.
        if matches!(i, 6 | 7 | 28..=31) {
            continue;
        }
        assert!(decode(&key, Slot(42), &b, &limits).is_err(), "flip at {i}");
    }
    for len in 0..obj.bytes.len() {
        let e = decode(&key, Slot(42), &obj.bytes[..len], &limits).expect_err("cut");
        assert!(e.to_string().contains("blocks/x"), "{e}");
    }
}

#[test]
fn wrong_slot_and_oversized_objects_are_refused() {
    let obj = encode(&record(42)).expect("encodes");
    let key = Path::from("blocks/x");
    let e = decode(&key, Slot(43), &obj.bytes, &ReadLimits::default()).expect_err("slot");
    assert!(e.to_string().contains("holds slot 42, not 43"), "{e}");
    let small = ReadLimits {
        block_object_bytes: 10,
        ..ReadLimits::default()
    };
    assert!(matches!(
        decode(&key, Slot(42), &obj.bytes, &small),
        Err(ArchiveError::TooLarge { .. })
    ));
    let tight = ReadLimits {
        block_raw_bytes: obj.raw_len - 1,
        ..ReadLimits::default()
    };
    assert!(matches!(
        decode(&key, Slot(42), &obj.bytes, &tight),
        Err(ArchiveError::TooLarge { .. })
    ));
}

#[test]
fn a_lying_raw_len_does_not_allocate_past_the_limit() {
    let mut obj = encode(&record(42)).expect("encodes");
    // Claim a smaller raw size than the frame holds: decompression must stop, not grow.
    obj.bytes[16..24].copy_from_slice(&10u64.to_le_bytes());
    let e = decode(
        &Path::from("k"),
        Slot(42),
        &obj.bytes,
        &ReadLimits::default(),
    )
    .expect_err("lie");
    assert!(e.to_string().contains("zstd frame"), "{e}");
}

fn arb_record() -> impl proptest::strategy::Strategy<Value = BlockRecord> {
    use proptest::collection::vec;
    use proptest::prelude::*;
    (
        any::<u64>(),
        any::<u64>(),
        any::<[u8; 32]>(),
        any::<Option<i64>>(),
        any::<Option<u64>>(),
        vec(vec(any::<u8>(), 0..300), 0..4),
        vec(proptest::option::of(vec(any::<u8>(), 0..50)), 0..8),
        proptest::option::of(vec(any::<u8>(), 0..40)),
    )
        .prop_map(
            |(slot, parent, hash, time, height, sets, statuses, rewards)| BlockRecord {
                slot: Slot(slot),
                parent_slot: Slot(parent),
                blockhash: Hash(hash),
                previous_blockhash: Hash([hash[0]; 32]),
                block_time: time,
                block_height: height,
                entry_sets: sets,
                statuses,
                rewards,
            },
        )
}

proptest::proptest! {
    #[test]
    fn any_record_round_trips(r in arb_record()) {
        let obj = encode(&r).expect("encodes");
        let back = decode(&Path::from("k"), r.slot, &obj.bytes, &ReadLimits::default());
        proptest::prop_assert_eq!(back.expect("decodes"), r);
    }
}
