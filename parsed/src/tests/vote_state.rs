//! The compact vote-state encodings: roots, offsets accumulated into slots, overflow.

use serde_json::json;

use super::{compact_vote_state_update, tower_sync};
use crate::reader::Reader;
use crate::tests::Data;

#[test]
fn offsets_accumulate_from_the_root() {
    // Root 100, offsets 5 and 200 (a two-byte VarInt), a timestamp.
    let data = Data::new()
        .u64(100)
        .u8(2)
        .bytes(&[5, 31, 0xc8, 0x01, 1])
        .bytes(&[0; 32])
        .u8(1)
        .i64(-7)
        .0;
    let update = compact_vote_state_update(&mut Reader::new(&data)).expect("decodes");
    assert_eq!(
        update,
        json!({
            "lockouts": [
                {"slot": 105, "confirmation_count": 31},
                {"slot": 305, "confirmation_count": 1},
            ],
            "root": 100,
            "hash": "11111111111111111111111111111111",
            "timestamp": -7,
        })
    );
}

#[test]
fn an_overflowing_offset_fails() {
    let max_varint = [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01];
    let data = Data::new()
        .u64(5)
        .u8(1)
        .bytes(&max_varint)
        .u8(1)
        .bytes(&[0; 64])
        .u8(0)
        .0;
    assert_eq!(compact_vote_state_update(&mut Reader::new(&data)), None);
    // From root "none" (slot 0) the same offset is u64::MAX and fits.
    let data = Data::new()
        .u64(u64::MAX)
        .u8(1)
        .bytes(&max_varint)
        .u8(1)
        .bytes(&[0; 32])
        .u8(0)
        .bytes(&[0; 32])
        .0;
    let tower = tower_sync(&mut Reader::new(&data)).expect("decodes");
    assert_eq!(tower["lockouts"][0]["slot"], json!(u64::MAX));
    assert_eq!(tower["root"], json!(null));
}

#[test]
fn a_count_beyond_the_data_fails() {
    let data = Data::new()
        .u64(0)
        .bytes(&[0xff, 0xff, 0x03])
        .bytes(&[0; 40])
        .0;
    assert_eq!(compact_vote_state_update(&mut Reader::new(&data)), None);
}
