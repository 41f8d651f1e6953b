//! Property tests of erasure recovery on sets made by the crate's `Shredder` from random
//! entries: dropping any ≤ num_code shreds of a set and recovering gives back byte-identical
//! payloads (so identical entries); a coding shred with flipped bytes never yields a data
//! shred: recovery is refused with a reason.

use bstore_ledger::entry::{Entry, decode_entries, encode_entries};
use bstore_ledger::fetch::group_by_slot;
use bstore_ledger::shred::{
    BatchOptions, LastInSlot, RecoverOptions, Resign, SHREDS_PER_FEC_SET, ShredRef, Shredder,
    recover_fec_set, recover_fec_set_with,
};
use bstore_ledger::{FormatError, Hash, Pubkey, Slot};
use ed25519_dalek::SigningKey;
use proptest::prelude::*;

fn key() -> SigningKey {
    SigningKey::from_bytes(&[7u8; 32])
}

/// One slot's shreds (data, code) from `entries`, in one batch.
fn shred(entries: &[Entry], resign: bool) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let mut shredder = Shredder::new(Slot(500), Slot(499), 3, key()).expect("shredder");
    let opts = BatchOptions {
        last_in_slot: LastInSlot::Yes,
        reference_tick: 5,
        resign_last: if resign { Resign::Yes } else { Resign::No },
    };
    let batch = shredder
        .shred_batch_with_code(&encode_entries(entries), opts)
        .expect("shreds");
    (batch.data, batch.code)
}

fn entries_strategy() -> impl Strategy<Value = Vec<Entry>> {
    proptest::collection::vec((any::<u64>(), any::<[u8; 32]>()), 1..3000).prop_map(|v| {
        v.into_iter()
            .map(|(num_hashes, h)| Entry {
                num_hashes,
                hash: Hash(h),
                transactions: Vec::new(),
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn dropping_up_to_num_code_shreds_recovers_identical_payloads(
        entries in entries_strategy(),
        resign in any::<bool>(),
        seed in any::<u64>(),
        lose in 0usize..=SHREDS_PER_FEC_SET,
    ) {
        let (data, code) = shred(&entries, resign);
        let n = SHREDS_PER_FEC_SET;
        let mut kept_all: Vec<Vec<u8>> = Vec::new();
        for (set, (d, c)) in data.chunks(n).zip(code.chunks(n)).enumerate() {
            // Which `lose` of the 64 positions are dropped: a seeded shuffle.
            let mut order: Vec<usize> = (0..2 * n).collect();
            let mut x = seed ^ (set as u64).wrapping_mul(0x9E37_79B9);
            for i in (1..order.len()).rev() {
                x ^= x << 13; x ^= x >> 7; x ^= x << 17;
                order.swap(i, (x % (i as u64 + 1)) as usize);
            }
            let dropped = &order[..lose];
            let all: Vec<&Vec<u8>> = d.iter().chain(c).collect();
            let kept: Vec<ShredRef<'_>> = (0..2 * n)
                .filter(|p| !dropped.contains(p))
                .map(|p| ShredRef::parse(all[p]).expect("parses"))
                .collect();
            let got = recover_fec_set(&kept).expect("≤ num_code lost: recovers");
            let mut lost_data: Vec<usize> = dropped.iter().copied().filter(|&p| p < n).collect();
            lost_data.sort_unstable();
            let want: Vec<&Vec<u8>> = lost_data.iter().map(|&p| &d[p]).collect();
            prop_assert_eq!(got.data.iter().collect::<Vec<_>>(), want);
            if !lost_data.is_empty() {
                let mut lost_code: Vec<usize> = dropped.iter().copied().filter(|&p| p >= n).collect();
                lost_code.sort_unstable();
                let want: Vec<&Vec<u8>> = lost_code.iter().map(|&p| &c[p - n]).collect();
                prop_assert_eq!(got.code.iter().collect::<Vec<_>>(), want);
            }
            kept_all.extend(kept.iter().filter(|s| s.is_data()).map(|s| s.payload().to_vec()));
            kept_all.extend(got.data);
        }
        // The slot deshreds back into the very entries.
        let slots = group_by_slot(kept_all.iter().map(|p| ShredRef::parse(p).expect("parses")));
        let slot = slots.values().next().expect("slot");
        let sets = slot.data_sets();
        prop_assert_eq!(sets.len(), 1);
        let bytes = slot.deshred(&sets[0]).expect("deshreds");
        prop_assert_eq!(decode_entries(&bytes).expect("decodes"), entries);
    }

    #[test]
    fn a_corrupted_coding_shred_never_yields_a_data_shred(
        entries in entries_strategy(),
        resign in any::<bool>(),
        victim in 0usize..SHREDS_PER_FEC_SET,
        at in 0usize..1228,
        flip in 1u8..=255,
    ) {
        let (data, code) = shred(&entries, resign);
        let n = SHREDS_PER_FEC_SET;
        // The last set: lose half its data shreds, keep every code shred, corrupt one.
        let d = &data[data.len() - n..];
        let mut c: Vec<Vec<u8>> = code[code.len() - n..].to_vec();
        c[victim][at] ^= flip;
        let kept_data: Vec<&Vec<u8>> = d.iter().step_by(2).collect();
        let mut shreds: Vec<ShredRef<'_>> = kept_data
            .iter()
            .map(|p| ShredRef::parse(p).expect("parses"))
            .collect();
        let Ok(bad) = ShredRef::parse(&c[victim]) else {
            // Corrupt headers are refused by parse and never reach recovery.
            return Ok(());
        };
        shreds.push(bad);
        for (i, p) in c.iter().enumerate() {
            if i != victim {
                shreds.push(ShredRef::parse(p).expect("parses"));
            }
        }
        let leader = Pubkey(key().verifying_key().to_bytes());
        let options = RecoverOptions { leader: Some(leader), ..RecoverOptions::default() };
        let retransmitter_sig = 1228 - 64;
        match recover_fec_set_with(&shreds, &options) {
            Err(FormatError::Recovery { slot, fec_set_index, defect }) => {
                prop_assert_eq!(slot, Slot(500));
                prop_assert_eq!(fec_set_index as usize, data.len() - n);
                prop_assert!(!defect.to_string().is_empty());
            }
            Err(other) => prop_assert!(false, "unexpected error {other}"),
            Ok(got) => {
                // Only bytes outside the root's reach may pass: the retransmitter signature
                // of a resigned set (not erasure coded, not in the leaf) of the shred whose
                // signature recovery copies. Data bytes are still the original ones.
                prop_assert!(resign && at >= retransmitter_sig, "accepted a flip at {at}");
                let missing: Vec<&Vec<u8>> = d.iter().skip(1).step_by(2).collect();
                prop_assert_eq!(got.data.len(), missing.len());
                for (g, w) in got.data.iter().zip(missing) {
                    prop_assert_eq!(&g[..1203 - 64], &w[..1203 - 64]);
                }
            }
        }
    }
}

#[test]
fn foreign_and_conflicting_shreds_are_refused() {
    let entries = vec![
        Entry {
            num_hashes: 1,
            hash: Hash([9; 32]),
            transactions: Vec::new(),
        };
        2000
    ];
    let (data, code) = shred(&entries, false);
    let n = SHREDS_PER_FEC_SET;
    let mut set: Vec<ShredRef<'_>> = code[..n]
        .iter()
        .map(|p| ShredRef::parse(p).expect("parses"))
        .collect();
    // A data shred of the next FEC set.
    set.push(ShredRef::parse(&data[n]).expect("parses"));
    let err = recover_fec_set(&set).expect_err("foreign shred");
    assert!(err.to_string().contains("another slot"), "{err}");
    set.pop();
    // Data shred 0 of the set with one flipped data byte (its proof no longer holds).
    let mut bad = data[0].clone();
    bad[100] ^= 1;
    set.push(ShredRef::parse(&bad).expect("parses"));
    let err = recover_fec_set(&set).expect_err("root mismatch");
    assert!(err.to_string().contains("another root"), "{err}");
    // The same position twice with different bytes.
    set.push(ShredRef::parse(&data[0]).expect("parses"));
    let err = recover_fec_set(&set).expect_err("conflict");
    assert!(err.to_string().contains("two different shreds"), "{err}");
}
