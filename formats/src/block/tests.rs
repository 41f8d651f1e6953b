//! Round trips of every marker variant (proptest) and the malformed shapes each defect
//! names. Agave's own bytes and verdicts are checked in `tests/it/block_agave_vectors.rs`.

use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;

use super::*;
use crate::FormatError;
use crate::types::{Hash, Slot};

fn hash() -> impl Strategy<Value = Hash> {
    any::<[u8; 32]>().prop_map(Hash)
}

fn compressed() -> impl Strategy<Value = BlsSignatureCompressed> {
    any::<u8>().prop_map(|b| BlsSignatureCompressed([b; BLS_SIGNATURE_COMPRESSED_BYTES]))
}

fn aggregate() -> impl Strategy<Value = VotesAggregate> {
    (compressed(), vec(any::<u8>(), 0..300))
        .prop_map(|(signature, bitmap)| VotesAggregate { signature, bitmap })
}

fn footer() -> impl Strategy<Value = BlockFooter> {
    let final_cert = (any::<u64>(), hash(), aggregate(), option::of(aggregate())).prop_map(
        |(slot, block_id, final_aggregate, notar_aggregate)| FinalizationCert {
            slot: Slot(slot),
            block_id,
            final_aggregate,
            notar_aggregate,
        },
    );
    let skip = (any::<u64>(), compressed(), vec(any::<u8>(), 0..200)).prop_map(
        |(slot, signature, bitmap)| SkipRewardCert {
            slot: Slot(slot),
            signature,
            bitmap,
        },
    );
    let notar = (any::<u64>(), hash(), compressed(), vec(any::<u8>(), 0..200)).prop_map(
        |(slot, block_id, signature, bitmap)| NotarRewardCert {
            slot: Slot(slot),
            block_id,
            signature,
            bitmap,
        },
    );
    (
        hash(),
        any::<u64>(),
        vec(any::<u8>(), 0..=MAX_USER_AGENT_BYTES),
        option::of(final_cert),
        option::of(skip),
        option::of(notar),
    )
        .prop_map(
            |(bank_hash, producer_time_nanos, user_agent, final_cert, skip, notar)| BlockFooter {
                bank_hash,
                producer_time_nanos,
                user_agent,
                final_cert,
                skip_reward_cert: skip,
                notar_reward_cert: notar,
            },
        )
}

fn marker() -> impl Strategy<Value = BlockMarker> {
    prop_oneof![
        footer().prop_map(BlockMarker::footer),
        (any::<u64>(), hash()).prop_map(|(s, h)| BlockMarker::Header(BlockHeader {
            parent_slot: Slot(s),
            parent_block_id: h,
        })),
        (any::<u64>(), hash()).prop_map(|(s, h)| BlockMarker::UpdateParent(UpdateParent {
            new_parent_slot: Slot(s),
            new_parent_block_id: h,
        })),
        (any::<u64>(), hash(), any::<u8>(), vec(any::<u8>(), 0..600)).prop_map(
            |(s, h, sig, bitmap)| BlockMarker::genesis_certificate(GenesisCertificate {
                slot: Slot(s),
                block_id: h,
                signature: BlsSignature([sig; BLS_SIGNATURE_BYTES]),
                bitmap,
            })
        ),
    ]
}

fn defect(data: &[u8]) -> MarkerDefect {
    match BlockMarker::parse(data) {
        Err(FormatError::InvalidBlockMarker { defect, .. }) => defect,
        other => panic!("expected an invalid marker, got {other:?}"),
    }
}

fn header_bytes() -> Vec<u8> {
    BlockMarker::Header(BlockHeader {
        parent_slot: Slot(7),
        parent_block_id: Hash([9; 32]),
    })
    .encode()
    .expect("a header encodes")
}

proptest! {
    #[test]
    fn parse_inverts_encode(m in marker(), tail in vec(any::<u8>(), 0..4)) {
        let bytes = m.encode().expect("generated markers fit their prefixes");
        prop_assert!(is_block_marker(&bytes));
        prop_assert_eq!(BlockMarker::parse_exact(&bytes).expect("exact"), m.clone());
        let mut longer = bytes.clone();
        longer.extend_from_slice(&tail);
        let (parsed, used) = BlockMarker::parse_prefix(&longer).expect("prefix");
        prop_assert_eq!(parsed, m);
        prop_assert_eq!(used, bytes.len());
        for cut in 0..bytes.len() {
            prop_assert!(BlockMarker::parse(&bytes[..cut]).is_err());
        }
    }
}

proptest! {
    /// Arbitrary bytes behind a valid marker preamble: never a panic, and whatever parses
    /// re-encodes to exactly the bytes it used (the fuzz target's property, run in CI).
    #[test]
    fn arbitrary_marker_bodies(variant in 0u8..5, len in any::<u16>(), body in vec(any::<u8>(), 0..700)) {
        let mut data = vec![0u8; 8];
        data.extend_from_slice(&MARKER_VERSION.to_le_bytes());
        data.push(variant);
        data.extend_from_slice(&len.to_le_bytes());
        data.extend_from_slice(&body);
        match BlockMarker::parse_prefix(&data) {
            Ok((m, used)) => prop_assert_eq!(m.encode().expect("re-encodes"), data[..used].to_vec()),
            Err(FormatError::InvalidBlockMarker { offset, .. }) => prop_assert!(offset <= data.len()),
            Err(other) => prop_assert!(false, "unexpected {}", other),
        }
    }
}

#[test]
fn header_layout() {
    let bytes = header_bytes();
    // count 8, version 2, variant 1, length 2, inner version 1, slot 8, block id 32.
    assert_eq!(bytes.len(), 8 + 2 + 1 + 2 + 41);
    assert_eq!(&bytes[..8], &[0; 8]);
    assert_eq!(&bytes[8..13], &[1, 0, 1, 41, 0]);
    assert_eq!(bytes[13], 1);
}

#[test]
fn aborted_block_is_its_own_error() {
    assert!(is_aborted_block(&ABORTED_BLOCK_DATA_SET));
    assert!(matches!(
        BlockMarker::parse(&ABORTED_BLOCK_DATA_SET),
        Err(FormatError::BlockAborted)
    ));
    assert!(matches!(
        parse_data_set(&ABORTED_BLOCK_DATA_SET),
        Err(FormatError::BlockAborted)
    ));
    // Nine zero bytes are not the abort signal: a truncated marker version.
    assert!(matches!(
        defect(&[0; 9]),
        MarkerDefect::Truncated {
            field: "marker version",
            ..
        }
    ));
}

#[test]
fn each_defect_is_named() {
    let good = header_bytes();
    let mut b = good.clone();
    b[8] = 2;
    assert_eq!(defect(&b), MarkerDefect::UnknownVersion(2));
    let mut b = good.clone();
    b[10] = 4;
    assert_eq!(defect(&b), MarkerDefect::UnknownVariant(4));
    let mut b = good.clone();
    b[13] = 2;
    assert_eq!(
        defect(&b),
        MarkerDefect::UnknownInnerVersion {
            kind: MarkerKind::Header,
            version: 2
        }
    );
    let mut b = good.clone();
    b[11] = 40;
    assert_eq!(
        defect(&b),
        MarkerDefect::LengthMismatch {
            kind: MarkerKind::Header,
            declared: 40,
            actual: 41
        }
    );
    let mut b = good.clone();
    b.push(0);
    assert!(BlockMarker::parse(&b).is_ok());
    assert!(matches!(
        BlockMarker::parse_exact(&b),
        Err(FormatError::InvalidBlockMarker {
            offset: 54,
            defect: MarkerDefect::TrailingBytes { count: 1 }
        })
    ));
    assert_eq!(defect(&good[..20]), defect(&good[..20]));
    assert!(matches!(
        defect(&good[..20]),
        MarkerDefect::Truncated {
            field: "header parent slot",
            need: 8,
            have: 6
        }
    ));
    let mut entries = good.clone();
    entries[0] = 1;
    assert_eq!(defect(&entries), MarkerDefect::NotAMarker);
}

#[test]
fn length_bomb_is_refused_before_allocating() {
    let g = BlockMarker::genesis_certificate(GenesisCertificate {
        slot: Slot(1),
        block_id: Hash([1; 32]),
        signature: BlsSignature([2; BLS_SIGNATURE_BYTES]),
        bitmap: vec![3; 4],
    });
    let mut b = g.encode().expect("encodes");
    // The bitmap's u64 length sits after slot, block id and signature.
    let at = 13 + 8 + 32 + BLS_SIGNATURE_BYTES;
    b[at..at + 8].copy_from_slice(&u64::MAX.to_le_bytes());
    assert_eq!(
        defect(&b),
        MarkerDefect::LengthExceedsInput {
            field: "genesis certificate bitmap",
            declared: u64::MAX,
            have: 4
        }
    );
}

#[test]
fn bad_option_tag_and_compact_length() {
    let f = BlockMarker::footer(BlockFooter {
        bank_hash: Hash([1; 32]),
        producer_time_nanos: 5,
        user_agent: b"x".to_vec(),
        final_cert: None,
        skip_reward_cert: Some(SkipRewardCert {
            slot: Slot(3),
            signature: BlsSignatureCompressed([4; BLS_SIGNATURE_COMPRESSED_BYTES]),
            bitmap: vec![5; 2],
        }),
        notar_reward_cert: None,
    });
    let good = f.encode().expect("encodes");
    // inner: version 1, bank hash 32, time 8, ua len 1 + 1, final tag.
    let final_tag = 13 + 1 + 32 + 8 + 2;
    let mut b = good.clone();
    b[final_tag] = 2;
    assert_eq!(
        defect(&b),
        MarkerDefect::InvalidOptionTag {
            field: "footer finalization certificate",
            tag: 2
        }
    );
    let bitmap_len = final_tag + 1 + 1 + 8 + BLS_SIGNATURE_COMPRESSED_BYTES;
    let mut b = good;
    b[bitmap_len] = 0x80;
    b[bitmap_len + 1] = 0;
    assert!(matches!(defect(&b), MarkerDefect::CompactU16 { .. }));
}

#[test]
fn encode_refuses_what_cannot_be_said() {
    let f = BlockMarker::footer(BlockFooter {
        bank_hash: Hash::default(),
        producer_time_nanos: 0,
        user_agent: vec![0; 256],
        final_cert: None,
        skip_reward_cert: None,
        notar_reward_cert: None,
    });
    assert!(matches!(
        f.encode(),
        Err(FormatError::InvalidBlockMarker {
            defect: MarkerDefect::TooLong {
                len: 256,
                max: 255,
                ..
            },
            ..
        })
    ));
    let g = BlockMarker::genesis_certificate(GenesisCertificate {
        slot: Slot(1),
        block_id: Hash::default(),
        signature: BlsSignature([0; BLS_SIGNATURE_BYTES]),
        bitmap: vec![0; 70_000],
    });
    assert!(g.encode().is_err());
}
