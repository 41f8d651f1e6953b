//! SlotMeta codec tests: bytes written by hand from `docs/on-disk-layout.md#slotmeta`, and property
//! round-trips.

use proptest::prelude::*;

use super::*;

/// The fields before `completed_data_indexes`, byte by byte: slot 5, consumed 3, received 7,
/// first_shred_timestamp 1000, last_index none, parent_slot 4, next_slots [6, 9],
/// connected_flags 0x80.
fn head() -> Vec<u8> {
    let mut b = Vec::new();
    b.extend([5, 0, 0, 0, 0, 0, 0, 0]); // slot
    b.extend([3, 0, 0, 0, 0, 0, 0, 0]); // consumed
    b.extend([7, 0, 0, 0, 0, 0, 0, 0]); // received
    b.extend([0xE8, 0x03, 0, 0, 0, 0, 0, 0]); // first_shred_timestamp = 1000
    b.extend([0xFF; 8]); // last_index = u64::MAX: none
    b.extend([4, 0, 0, 0, 0, 0, 0, 0]); // parent_slot
    b.extend([2, 0, 0, 0, 0, 0, 0, 0]); // next_slots length
    b.extend([6, 0, 0, 0, 0, 0, 0, 0]);
    b.extend([9, 0, 0, 0, 0, 0, 0, 0]);
    b.push(0x80); // connected_flags: parent connected
    b
}

fn expected(completed: &[u32]) -> SlotMeta {
    SlotMeta {
        slot: Slot(5),
        consumed: 3,
        received: 7,
        first_shred_timestamp: 1000,
        last_index: None,
        parent_slot: Some(Slot(4)),
        next_slots: vec![Slot(6), Slot(9)],
        connected_flags: SlotMeta::PARENT_CONNECTED,
        completed_data_indexes: completed.iter().copied().collect(),
        parent_block_id: Hash::default(),
        replay_fec_set_index: 0,
    }
}

/// V2 tail holding indices 2 and 6 and 32,767.
fn v2_tail() -> Vec<u8> {
    let mut b = vec![0x00, 0x10, 0, 0, 0, 0, 0, 0]; // byte length 4096
    let mut bitmap = vec![0u8; 4096];
    bitmap[0] = 0b0100_0100; // bits 2 and 6
    bitmap[4095] = 0b1000_0000; // bit 32,767
    b.extend(bitmap);
    b
}

#[test]
fn decodes_v1_by_hand() {
    let mut b = head();
    b.extend([2, 0, 0, 0, 0, 0, 0, 0]); // count 2
    b.extend([2, 0, 0, 0]);
    b.extend([6, 0, 0, 0]);
    assert_eq!(SlotMeta::decode(&b), Ok(expected(&[2, 6])));
    assert_eq!(expected(&[2, 6]).encode_as(SlotMetaFormat::V1), b);
}

#[test]
fn decodes_v2_by_hand_with_the_4x_fields_zero() {
    let mut b = head();
    b.extend(v2_tail());
    let meta = expected(&[2, 6, 32_767]);
    assert_eq!(SlotMeta::decode(&b), Ok(meta.clone()));
    assert_eq!(meta.encode_as(SlotMetaFormat::V2), b);
}

/// The V3 fields: parent_block_id 0x11 ×32, replay_fec_set_index 64.
fn v3_fields() -> Vec<u8> {
    let mut b = vec![0x11; 32];
    b.extend([64, 0, 0, 0]);
    b
}

#[test]
fn decodes_and_writes_v3_by_hand() {
    let mut b = head();
    b.extend(v2_tail());
    b.extend(v3_fields());
    let mut meta = expected(&[2, 6, 32_767]);
    meta.parent_block_id = Hash([0x11; 32]);
    meta.replay_fec_set_index = 64;
    assert_eq!(SlotMeta::decode(&b), Ok(meta.clone()));
    assert_eq!(meta.encode(), b, "the store writes V3 byte for byte");
    assert_eq!(b.len(), 8 * 7 + 16 + 1 + 8 + 4096 + 36);
    assert!(meta.has_update_parent());
}

#[test]
fn a_v2_row_rewritten_is_v3_with_zero_fields() {
    let mut b = head();
    b.extend(v2_tail());
    let meta = SlotMeta::decode(&b).expect("V2");
    let mut want = b.clone();
    want.extend([0u8; 36]);
    assert_eq!(meta.encode(), want);
}

#[test]
fn decodes_v3_with_trailing_fields() {
    let mut b = head();
    b.extend(v2_tail());
    b.extend(v3_fields());
    b.extend([1, 2, 3, 4, 5, 6, 7, 8, 9]); // fields a later Agave appends
    let meta = SlotMeta::decode(&b).expect("V3 and more");
    assert_eq!(meta.replay_fec_set_index, 64);
    assert_eq!(meta.parent_block_id, Hash([0x11; 32]));
}

#[test]
fn a_v1_list_of_twelve_is_not_a_v3_row() {
    // 8 + 12 × 4 bytes after the flags is also "a 12-byte bitmap and 36 more bytes".
    let values: Vec<u32> = (0..12).collect();
    let mut b = head();
    b.extend(12u64.to_le_bytes());
    for v in &values {
        b.extend(v.to_le_bytes());
    }
    assert_eq!(SlotMeta::decode(&b), Ok(expected(&values)));
}

#[test]
fn a_truncated_v3_tail_is_an_error_naming_the_slot() {
    for n in [1, 4, 32, 35] {
        let mut b = head();
        b.extend(v2_tail());
        b.extend(&v3_fields()[..n]);
        let err = SlotMeta::decode(&b).expect_err("truncated");
        assert!(
            err.contains("slot 5") && err.contains("truncated"),
            "{n}: {err}"
        );
    }
}

#[test]
fn empty_completed_set_and_none_parent() {
    let mut b = head();
    b[40..48].copy_from_slice(&[0xFF; 8]); // parent_slot none
    b.extend([0; 8]); // count / length 0: empty either way
    let mut want = expected(&[]);
    want.parent_slot = None;
    let meta = SlotMeta::decode(&b).expect("valid");
    assert_eq!(meta, want);
    assert!(meta.is_orphan());
}

#[test]
fn rejects_corrupt_bytes() {
    let full = {
        let mut b = head();
        b.extend(v2_tail());
        b
    };
    // Every truncation inside the fixed fields or the bitmap is an error, not a panic.
    for cut in [0, 7, 8, 55, 56, 72, 73, 80, 100, full.len() - 1] {
        assert!(SlotMeta::decode(&full[..cut]).is_err(), "cut {cut}");
    }
    // A next_slots length larger than the bytes left.
    let mut b = head();
    b[48..56].copy_from_slice(&u64::MAX.to_le_bytes());
    assert!(SlotMeta::decode(&b).is_err_and(|e| e.contains("next_slots")));
    // V1 values out of order or out of range. (The count is 4097 so that the last resort,
    // V2 with trailing bytes, cannot claim the bytes: a short malformed V1 list does decode
    // as V2 + trailing, which is the order `docs/on-disk-layout.md#slotmeta` prescribes.)
    let v1 = |values: &[u32]| {
        let mut b = head();
        b.extend((values.len() as u64).to_le_bytes());
        for v in values {
            b.extend(v.to_le_bytes());
        }
        b
    };
    let mut values: Vec<u32> = (0..4097).collect();
    assert!(SlotMeta::decode(&v1(&values)).is_ok());
    values.swap(10, 11);
    assert!(SlotMeta::decode(&v1(&values)).is_err());
    values.swap(10, 11);
    values[4096] = 32_768;
    assert!(SlotMeta::decode(&v1(&values)).is_err());
    // A V2 length past 4096.
    let mut b = head();
    b.extend([0x01, 0x10, 0, 0, 0, 0, 0, 0]);
    b.extend(vec![0u8; 4097]);
    assert!(SlotMeta::decode(&b).is_err());
}

#[test]
fn full_orphan_and_flags() {
    let mut m = SlotMeta::new(Slot(7), Some(Slot(6)));
    assert!(!m.is_full() && !m.is_orphan() && !m.is_parent_connected());
    m.last_index = Some(3);
    m.consumed = 3;
    assert!(!m.is_full());
    m.consumed = 4;
    assert!(m.is_full());
    m.last_index = Some(u64::MAX - 1);
    assert!(!m.is_full());
    assert!(SlotMeta::new(Slot(0), Some(Slot(0))).is_parent_connected());
    assert!(SlotMeta::new_orphan(Slot(9)).is_orphan());
}

/// A head whose counts are `consumed`, `received`, `last_index`, `next_slots` length.
fn head_with(consumed: u64, received: u64, last_index: u64, next_len: u64) -> Vec<u8> {
    let mut b = head();
    b[8..16].copy_from_slice(&consumed.to_le_bytes());
    b[16..24].copy_from_slice(&received.to_le_bytes());
    b[32..40].copy_from_slice(&last_index.to_le_bytes());
    b[48..56].copy_from_slice(&next_len.to_le_bytes());
    b
}

#[test]
fn counts_beyond_one_slot_are_errors_naming_the_slot() {
    let cases = [
        (head_with(3, 32_769, u64::MAX, 2), "received 32769"),
        (head_with(u64::MAX, u64::MAX, u64::MAX, 2), "received"),
        (
            head_with(8, 7, u64::MAX, 2),
            "consumed 8 exceeds received 7",
        ),
        (head_with(3, 7, 32_768, 2), "last_index 32768"),
        (head_with(3, 7, u64::MAX, u64::MAX), "next_slots length"),
    ];
    for (mut bytes, want) in cases {
        bytes.extend(v2_tail());
        let err = SlotMeta::decode(&bytes).expect_err(want);
        assert!(err.contains("slot 5") && err.contains(want), "{err}");
    }
    // The largest valid counts still decode.
    let mut ok = head_with(32_768, 32_768, 32_767, 2);
    ok.extend(v2_tail());
    assert_eq!(SlotMeta::decode(&ok).map(|m| m.received), Ok(32_768));
}

#[test]
fn next_slots_count_above_the_bound_is_refused_even_when_bytes_are_there() {
    let n = MAX_NEXT_SLOTS + 1;
    let mut b = head_with(3, 7, u64::MAX, n);
    b.truncate(56);
    b.extend(std::iter::repeat_n(0u8, 8 * n as usize));
    b.push(0);
    b.extend(v2_tail());
    let err = SlotMeta::decode(&b).expect_err("too many children");
    assert!(err.contains("bound of 4096"), "{err}");
}

fn arb_meta() -> impl Strategy<Value = SlotMeta> {
    (
        any::<u64>(),
        0u64..=32_768,
        0u64..=32_768,
        any::<u64>(),
        proptest::option::of(0u64..32_768),
        proptest::option::of(0u64..u64::MAX),
        proptest::collection::vec(any::<u64>(), 0..8),
        any::<u8>(),
        proptest::collection::btree_set(0u32..32_768, 0..64),
        (any::<[u8; 32]>(), any::<u32>()),
    )
        .prop_map(
            |(slot, a, b, ts, last, parent, next, flags, done, (id, fec))| SlotMeta {
                slot: Slot(slot),
                consumed: a.min(b),
                received: a.max(b),
                first_shred_timestamp: ts,
                last_index: last,
                parent_slot: parent.map(Slot),
                next_slots: next.into_iter().map(Slot).collect(),
                connected_flags: flags,
                completed_data_indexes: done.into_iter().collect(),
                parent_block_id: Hash(id),
                replay_fec_set_index: fec,
            },
        )
}

proptest! {
    #[test]
    fn round_trips_every_version(meta in arb_meta()) {
        prop_assert_eq!(SlotMeta::decode(&meta.encode()), Ok(meta.clone()));
        let old = SlotMeta { parent_block_id: Hash::default(), replay_fec_set_index: 0, ..meta };
        for format in [SlotMetaFormat::V1, SlotMetaFormat::V2] {
            prop_assert_eq!(SlotMeta::decode(&old.encode_as(format)), Ok(old.clone()));
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let _ = SlotMeta::decode(&bytes);
    }
}
