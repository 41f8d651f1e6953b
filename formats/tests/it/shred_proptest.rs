//! Property tests: parsing never panics on arbitrary bytes or on arbitrary mutations of real
//! shreds; and the shredder round-trips: random data sets → shreds whose concatenated
//! `data()` is the input, whose proofs fold to their set's root, whose signatures verify,
//! and whose chained roots link each set to the previous one.

use crate::common;

use std::sync::OnceLock;

use bstore_formats::shred::{
    BatchOptions, LastInSlot, Resign, SHREDS_PER_FEC_SET, ShredRef, Shredder, chained_merkle_root,
    encode_parity, erasure_shard, merkle_leaf, merkle_root, verify_signature,
};
use bstore_formats::{Hash, Pubkey, Slot};
use ed25519_dalek::SigningKey;
use proptest::prelude::*;

fn real_shreds() -> &'static Vec<Vec<u8>> {
    static SHREDS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    SHREDS.get_or_init(|| {
        let mut v = common::read_records("sig-v2-slot410010000-fec0/shreds.bin");
        v.truncate(40); // data and code shreds
        v.extend(
            common::read_records("sig-testnet-417955322/shreds.bin")
                .into_iter()
                .rev()
                .take(4),
        );
        v.extend(common::read_ar(
            "firedancer/localnet-shreds/localnet-v14-slot1-shreds.ar",
        ));
        v.extend(common::read_ar(
            "firedancer/localnet-shreds/localnet-slot0-shreds.ar",
        ));
        v
    })
}

fn exercise(bytes: &[u8]) {
    if let Ok(s) = ShredRef::parse(bytes) {
        assert!(s.payload().len() <= bytes.len());
        assert!(s.data().len() <= s.payload().len());
        let _ = (
            s.signature(),
            s.variant().name(),
            s.parent_slot(),
            s.reference_tick(),
        );
        let _ = (s.num_data(), s.num_code(), s.position(), erasure_shard(&s));
        let _ = (merkle_leaf(&s), merkle_root(&s), chained_merkle_root(&s));
        let _ = verify_signature(&s, &Pubkey::default());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn parse_never_panics_on_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..1300)) {
        exercise(&bytes);
    }

    #[test]
    fn parse_never_panics_on_mutated_real_shreds(
        which in any::<prop::sample::Index>(),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8),
        cut in proptest::option::of(any::<prop::sample::Index>()),
    ) {
        let shreds = real_shreds();
        let mut bytes = shreds[which.index(shreds.len())].clone();
        for (at, v) in edits {
            let i = at.index(bytes.len());
            bytes[i] = v;
        }
        if let Some(cut) = cut {
            bytes.truncate(cut.index(bytes.len() + 1));
        }
        exercise(&bytes);
    }
}

fn key() -> SigningKey {
    SigningKey::from_bytes(&[42u8; 32])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn shredder_round_trips(
        batches in proptest::collection::vec(
            (proptest::collection::vec(any::<u8>(), 0..40_000), 0u8..64),
            1..4,
        ),
        resign in any::<bool>(),
        start_root in any::<[u8; 32]>(),
    ) {
        let key = key();
        let leader = Pubkey(key.verifying_key().to_bytes());
        let mut shredder = Shredder::new(Slot(1000), Slot(998), 7, key)
            .expect("shredder")
            .with_chained_root(Hash(start_root));
        let mut previous_root = Hash(start_root);
        let n = batches.len();
        for (b, (data, tick)) in batches.iter().enumerate() {
            let last = b + 1 == n;
            let opts = BatchOptions {
                last_in_slot: if last { LastInSlot::Yes } else { LastInSlot::No },
                reference_tick: *tick,
                resign_last: if last && resign { Resign::Yes } else { Resign::No },
            };
            let first_index = shredder.next_index().0;
            let batch = shredder.shred_batch_with_code(data, opts).expect("batch");
            prop_assert_eq!(batch.data.len() % SHREDS_PER_FEC_SET, 0);
            prop_assert_eq!(batch.code.len(), batch.data.len());
            let mut joined = Vec::with_capacity(data.len());
            for (k, payload) in batch.data.iter().enumerate() {
                prop_assert_eq!(payload.len(), 1203);
                let s = ShredRef::parse(payload).expect("our shred parses");
                prop_assert_eq!(s.index().0, first_index + k as u32);
                prop_assert_eq!(s.parent_slot(), Some(Slot(998)));
                prop_assert_eq!(s.reference_tick(), Some(*tick));
                let is_last = k + 1 == batch.data.len();
                prop_assert_eq!(s.data_complete(), is_last);
                prop_assert_eq!(s.last_in_slot(), is_last && last);
                joined.extend_from_slice(s.data());
            }
            prop_assert_eq!(&joined, data);

            for (set_no, (data_set, code_set)) in batch
                .data
                .chunks(SHREDS_PER_FEC_SET)
                .zip(batch.code.chunks(SHREDS_PER_FEC_SET))
                .enumerate()
            {
                let shreds: Vec<ShredRef<'_>> = data_set
                    .iter()
                    .chain(code_set)
                    .map(|p| ShredRef::parse(p).expect("parses"))
                    .collect();
                let root = merkle_root(&shreds[0]).expect("root");
                prop_assert!(verify_signature(&shreds[0], &leader).is_ok());
                prop_assert!(verify_signature(&shreds[SHREDS_PER_FEC_SET], &leader).is_ok());
                let resigned = last && resign && (set_no + 1) * SHREDS_PER_FEC_SET == batch.data.len();
                for s in &shreds {
                    prop_assert_eq!(merkle_root(s).expect("root"), root);
                    prop_assert_eq!(chained_merkle_root(s), Some(previous_root));
                    // One signature per set: every shred carries the same bytes, verified once.
                    prop_assert_eq!(s.signature(), shreds[0].signature());
                    prop_assert_eq!(s.proof_size(), Some(6));
                    let want = match (s.is_data(), resigned) {
                        (true, false) => 0x96,
                        (true, true) => 0xB6,
                        (false, false) => 0x66,
                        (false, true) => 0x76,
                    };
                    prop_assert_eq!(s.variant().to_byte(), want);
                }
                // The code shards are the Reed–Solomon parity of the data shards.
                let shards: Vec<&[u8]> = shreds[..SHREDS_PER_FEC_SET]
                    .iter()
                    .map(|s| erasure_shard(s).expect("shard"))
                    .collect();
                let parity = encode_parity(&shards, SHREDS_PER_FEC_SET).expect("parity");
                for (c, p) in shreds[SHREDS_PER_FEC_SET..].iter().zip(&parity) {
                    prop_assert_eq!(erasure_shard(c), Some(p.as_slice()));
                }
                previous_root = root;
            }
        }
        prop_assert_eq!(shredder.last_root(), previous_root);
        // The slot is finished: another batch is refused, not panicked on.
        let more = BatchOptions { last_in_slot: LastInSlot::No, reference_tick: 0, resign_last: Resign::No };
        prop_assert!(shredder.shred_batch(b"x", more).is_err());
    }
}

#[test]
fn shredder_refuses_bad_requests_without_changing_state() {
    let opts = |tick, last, resign| BatchOptions {
        last_in_slot: last,
        reference_tick: tick,
        resign_last: resign,
    };
    assert!(Shredder::new(Slot(5), Slot(6), 0, key()).is_err());
    assert!(Shredder::new(Slot(5), Slot(5), 0, key()).is_err());
    assert!(Shredder::new(Slot(70_000), Slot(0), 0, key()).is_err());
    assert!(Shredder::new(Slot(0), Slot(0), 0, key()).is_ok());

    let mut s = Shredder::new(Slot(9), Slot(8), 0, key()).expect("shredder");
    assert!(
        s.shred_batch(b"abc", opts(64, LastInSlot::No, Resign::No))
            .is_err()
    );
    assert!(
        s.shred_batch(b"abc", opts(1, LastInSlot::No, Resign::Yes))
            .is_err()
    );
    assert_eq!(s.next_index().0, 0);
    // 32,768 shreds = 1024 sets of 32 × 963 bytes; one byte more needs a 1025th set.
    let too_much = vec![0u8; 1024 * 32 * 963 + 1];
    assert!(
        s.shred_batch(&too_much, opts(0, LastInSlot::No, Resign::No))
            .is_err()
    );
    assert_eq!(s.next_index().0, 0);
    let out = s
        .shred_batch(b"", opts(3, LastInSlot::Yes, Resign::Yes))
        .expect("empty batch");
    assert_eq!(out.len(), 32);
    let last = ShredRef::parse(&out[31]).expect("parses");
    assert!(last.last_in_slot() && last.data().is_empty());
    assert!(
        s.shred_batch(b"", opts(3, LastInSlot::Yes, Resign::No))
            .is_err()
    );
}
