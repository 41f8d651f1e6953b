use proptest::prelude::*;

use super::*;
use crate::history::tx_error::IxError;

/// A test-side protobuf writer: tag, then the value (varint or length-delimited).
#[derive(Default)]
struct Msg(Vec<u8>);

impl Msg {
    fn varint(mut self, field: u32, v: u64) -> Self {
        put_varint(&mut self.0, u64::from(field) << 3);
        put_varint(&mut self.0, v);
        self
    }
    fn bytes(mut self, field: u32, b: &[u8]) -> Self {
        put_varint(&mut self.0, (u64::from(field) << 3) | 2);
        put_varint(&mut self.0, b.len() as u64);
        self.0.extend_from_slice(b);
        self
    }
    fn double(mut self, field: u32, v: f64) -> Self {
        put_varint(&mut self.0, (u64::from(field) << 3) | 1);
        self.0.extend_from_slice(&v.to_bits().to_le_bytes());
        self
    }
    fn msg(self, field: u32, m: Msg) -> Self {
        self.bytes(field, &m.0)
    }
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn packed(values: &[u64]) -> Vec<u8> {
    let mut out = Vec::new();
    for &v in values {
        put_varint(&mut out, v);
    }
    out
}

fn full_meta() -> Vec<u8> {
    let err = Msg::default().bytes(1, &[8, 0, 0, 0, 2, 25, 0, 0, 0, 42, 0, 0, 0]);
    let inner = Msg::default().varint(1, 1).msg(
        2,
        Msg::default()
            .varint(1, 3)
            .bytes(2, &[0, 1])
            .bytes(3, b"\x02\x00")
            .varint(4, 2),
    );
    let balance = Msg::default()
        .varint(1, 2)
        .bytes(2, b"Mint111")
        .msg(
            3,
            Msg::default()
                .double(1, 1.5)
                .varint(2, 6)
                .bytes(3, b"1500000"),
        )
        .bytes(4, b"Owner111");
    Msg::default()
        .msg(1, err)
        .varint(2, 5000)
        .bytes(3, &packed(&[10, 300, 0]))
        .varint(4, 9)
        .varint(4, 290)
        .msg(5, inner)
        .bytes(6, b"Program log: \"hi\"")
        .msg(7, balance)
        .bytes(12, &[1; 32])
        .bytes(13, &[2; 32])
        .msg(14, Msg::default().bytes(1, &[3; 32]).bytes(2, b"ret"))
        .varint(16, 1234)
        .varint(99, 7)
        .0
}

#[test]
fn decodes_every_field_with_agaves_rules() {
    let bytes = full_meta();
    let m = StatusMeta::decode(&bytes).expect("decodes");
    assert_eq!(
        m.err,
        Some(TxError::Instruction {
            index: 2,
            error: IxError::Custom(42)
        })
    );
    assert_eq!(m.fee, 5000);
    assert_eq!(m.pre_balances, [10, 300, 0]);
    assert_eq!(m.post_balances, [9, 290], "unpacked repeated values");
    let inner = m.inner_instructions.as_ref().expect("present");
    assert_eq!(inner.len(), 1);
    assert_eq!(inner[0].index, 1);
    assert_eq!(
        inner[0].instructions,
        [InnerInstruction {
            program_id_index: 3,
            accounts: &[0, 1],
            data: b"\x02\x00",
            stack_height: Some(2)
        }]
    );
    assert_eq!(m.log_messages, Some(vec!["Program log: \"hi\""]));
    assert_eq!(m.pre_token_balances.len(), 1);
    let b = &m.pre_token_balances[0];
    assert_eq!(
        (b.account_index, b.mint, b.decimals, b.amount),
        (2, "Mint111", 6, "1500000")
    );
    assert_eq!(b.ui_amount, Some(1.5));
    assert_eq!(
        b.ui_amount_string(),
        "1.5",
        "derived from amount and decimals"
    );
    assert_eq!((b.owner, b.program_id), ("Owner111", ""));
    assert!(m.post_token_balances.is_empty());
    assert_eq!(m.loaded_writable, [&[1u8; 32]]);
    assert_eq!(m.loaded_readonly, [&[2u8; 32]]);
    assert_eq!(
        m.return_data,
        Some(ReturnData {
            program_id: &[3; 32],
            data: b"ret"
        })
    );
    assert_eq!(m.compute_units_consumed, Some(1234));
    assert_eq!(m.cost_units, None);
}

#[test]
fn none_flags_and_an_empty_message() {
    let m = StatusMeta::decode(&[]).expect("empty is a valid message");
    assert_eq!(m.inner_instructions, Some(vec![]));
    assert_eq!(m.log_messages, Some(vec![]));
    assert!(m.is_ok() && m.return_data.is_none() && m.compute_units_consumed.is_none());
    let flags = Msg::default()
        .varint(10, 1)
        .varint(11, 1)
        .varint(15, 1)
        .msg(14, Msg::default());
    let m = StatusMeta::decode(&flags.0).expect("decodes");
    assert_eq!(
        (m.inner_instructions, m.log_messages, m.return_data),
        (None, None, None)
    );
}

#[test]
fn ui_amount_string_follows_agaves_trimming() {
    let mut b = TokenBalance {
        account_index: 0,
        mint: "",
        ui_amount: None,
        decimals: 9,
        amount: "1000000000",
        stored_ui_amount_string: None,
        owner: "",
        program_id: "",
    };
    assert_eq!(b.ui_amount_string(), "1");
    b.amount = "5";
    assert_eq!(b.ui_amount_string(), "0.000000005");
    b.amount = "0";
    assert_eq!(b.ui_amount_string(), "0");
    b.decimals = 0;
    b.amount = "120";
    assert_eq!(b.ui_amount_string(), "120");
    b.amount = "not a number";
    assert_eq!(b.ui_amount_string(), "0");
    b.stored_ui_amount_string = Some("7.25");
    assert_eq!(b.ui_amount_string(), "7.25");
}

#[test]
fn what_agave_cannot_convert_is_an_error() {
    let short_address = Msg::default().bytes(12, &[1; 31]).0;
    assert!(
        StatusMeta::decode(&short_address)
            .expect_err("31 bytes")
            .contains("expected 32")
    );
    let bad_return = Msg::default().msg(14, Msg::default().bytes(1, &[1; 3])).0;
    assert!(StatusMeta::decode(&bad_return).is_err());
    let bad_err = Msg::default()
        .msg(1, Msg::default().bytes(1, &[99, 0, 0, 0]))
        .0;
    assert!(StatusMeta::decode(&bad_err).is_err());
    let bad_utf8 = Msg::default().bytes(6, &[0xff, 0xfe]).0;
    assert!(StatusMeta::decode(&bad_utf8).is_err());
}

#[test]
fn every_truncation_fails_or_decodes_without_panicking() {
    let bytes = full_meta();
    for cut in 0..bytes.len() {
        let _ = StatusMeta::decode(&bytes[..cut]);
    }
}

#[test]
fn the_err_alone_is_the_full_decodes_err() {
    let failed = full_meta();
    let ok = Msg::default().varint(2, 5000).varint(4, 9).0;
    for bytes in [failed, ok, Vec::new()] {
        let full = StatusMeta::decode(&bytes).expect("decodes").err;
        assert_eq!(StatusMeta::decode_err(&bytes).expect("decodes"), full);
    }
    assert!(
        StatusMeta::decode_err(&full_meta())
            .expect("decodes")
            .is_some()
    );
    // Broken framing and a broken err fail both ways.
    let mut cut = full_meta();
    cut.truncate(cut.len() - 1);
    assert!(StatusMeta::decode_err(&cut).is_err());
    let bad_err = Msg::default().msg(1, Msg::default().bytes(1, &[0xFF; 3])).0;
    assert!(StatusMeta::decode(&bad_err).is_err());
    assert!(StatusMeta::decode_err(&bad_err).is_err());
}

proptest! {
    #[test]
    fn the_err_alone_agrees_whenever_the_full_decode_succeeds(
        flips in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..8),
        cut in any::<prop::sample::Index>(),
    ) {
        let mut bytes = full_meta();
        for (at, v) in flips {
            let i = at.index(bytes.len());
            bytes[i] = v;
        }
        bytes.truncate(cut.index(bytes.len() + 1));
        if let Ok(full) = StatusMeta::decode(&bytes) {
            prop_assert_eq!(StatusMeta::decode_err(&bytes), Ok(full.err));
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        let _ = StatusMeta::decode(&bytes);
    }

    #[test]
    fn mutated_metas_never_panic(flips in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8)) {
        let mut bytes = full_meta();
        for (at, v) in flips {
            let i = at.index(bytes.len());
            bytes[i] = v;
        }
        let _ = StatusMeta::decode(&bytes);
    }
}
