//! Scenario: insert reuses the inner Merkle nodes its genuine shreds computed, and that can
//! never let a shred with an altered proof through. On the real testnet slot (sets of 32
//! data shreds, six proof levels): after every other shred of set 0 went in, copies of its
//! last shred with one proof entry changed — at each level, in the first byte or the last —
//! are each refused as `merkle_root_mismatch`, naming exactly the root their own proof
//! leads to (what the check without any reuse reports); the genuine shred still goes in.
//! The same holds when the set arrives in two calls.

use crate::common;

use bstore_ledger::shred::{ShredRef, merkle_root, retransmitter_signature};
use bstore_ledger::store::{Blockstore, InsertDefect, InsertOutcome};
use bstore_ledger::{Hash, LedgerError, ShredIndex, Slot};

const SLOT: Slot = Slot(417_955_322);
const PROOF_ENTRY: usize = 20;

/// Set 0's 32 data shreds, by index.
fn set_zero() -> Vec<Vec<u8>> {
    let mut set: Vec<Vec<u8>> = common::read_records("sig-testnet-417955322/shreds.bin")
        .into_iter()
        .filter(|p| ShredRef::parse(p).expect("parse").fec_set_index() == 0)
        .collect();
    set.sort_by_key(|p| ShredRef::parse(p).expect("parse").index().0);
    assert_eq!(set.len(), 32, "set 0 holds 32 data shreds");
    set
}

fn root(packet: &[u8]) -> Hash {
    merkle_root(&ShredRef::parse(packet).expect("parse")).expect("root")
}

/// Copies of `genuine` with byte `at` of each proof entry flipped, one copy per level.
fn altered_proofs(genuine: &[u8], at: usize) -> Vec<Vec<u8>> {
    let shred = ShredRef::parse(genuine).expect("parse");
    let levels = usize::from(shred.proof_size().expect("a Merkle shred"));
    assert_eq!(levels, 6);
    let resigned = retransmitter_signature(&shred).map_or(0, |_| 64);
    let proof_start = genuine.len() - resigned - levels * PROOF_ENTRY;
    (0..levels)
        .map(|level| {
            let mut bad = genuine.to_vec();
            bad[proof_start + level * PROOF_ENTRY + at] ^= 0x01;
            assert!(ShredRef::parse(&bad).is_ok(), "level {level}: still parses");
            assert_ne!(root(&bad), root(genuine), "level {level}: another root");
            bad
        })
        .collect()
}

/// Every refusal is a root mismatch against the set's genuine root, naming the root the
/// altered shred's own proof gives.
fn assert_refused(out: &InsertOutcome, bad: &[Vec<u8>], genuine_root: Hash) {
    assert_eq!(out.rejected.len(), bad.len(), "{:?}", out.rejected);
    for (rejected, packet) in out.rejected.iter().zip(bad) {
        let expected_found = root(packet);
        match &rejected.error {
            LedgerError::ShredRejected {
                slot,
                index,
                defect:
                    InsertDefect::MerkleRootMismatch {
                        fec_set_index,
                        expected,
                        found,
                    },
            } => {
                assert_eq!((*slot, *index, *fec_set_index), (SLOT, ShredIndex(31), 0));
                assert_eq!(*expected, genuine_root);
                assert_eq!(*found, expected_found);
            }
            other => panic!("not a root mismatch: {other}"),
        }
    }
}

#[test]
fn an_altered_proof_after_its_whole_set_is_refused_at_every_level() {
    let set = set_zero();
    let genuine_root = root(&set[0]);
    for at in [0, PROOF_ENTRY - 1] {
        let bad = altered_proofs(&set[31], at);
        let mut input: Vec<Vec<u8>> = set[..31].to_vec();
        input.extend(bad.iter().cloned());
        input.push(set[31].clone());
        let store = Blockstore::in_memory();
        let out = store.insert_shreds(&input).expect("insert");
        assert_eq!(out.inserted, 32, "byte {at}: every genuine shred goes in");
        assert_refused(&out, &bad, genuine_root);
        let stored = store.data_shred(SLOT, ShredIndex(31)).expect("read");
        assert_eq!(stored.as_deref(), Some(&set[31][..]));
    }
}

#[test]
fn an_altered_proof_in_the_second_call_of_a_set_is_refused() {
    let set = set_zero();
    let genuine_root = root(&set[0]);
    let bad = altered_proofs(&set[31], 0);
    let store = Blockstore::in_memory();
    assert_eq!(
        store.insert_shreds(&set[..16]).expect("insert").inserted,
        16
    );
    let mut input: Vec<Vec<u8>> = set[16..31].to_vec();
    input.extend(bad.iter().cloned());
    input.push(set[31].clone());
    let out = store.insert_shreds(&input).expect("insert");
    assert_eq!(out.inserted, 16);
    assert_refused(&out, &bad, genuine_root);
}
