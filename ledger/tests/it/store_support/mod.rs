//! Helpers shared by the `store_*` integration tests: the test-data shred files, seeded
//! shuffles, and what the store should hold for a slot according to an `expected.json`
//! "shreds" object (never hard-coded copies of its values).
#![allow(dead_code)]

use std::collections::BTreeSet;

use bstore_ledger::shred::ShredRef;
use bstore_ledger::store::{AccessMode, Blockstore, SlotMeta};
use bstore_ledger::{ShredIndex, Slot};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use crate::common;

/// Opens (creating) a read-write store in `dir`.
pub(crate) fn open_rw(dir: &std::path::Path) -> Blockstore {
    Blockstore::open(dir, AccessMode::ReadWrite).expect("open read-write")
}

/// The testnet slot's 320 data shreds and its `expected.json`.
pub(crate) fn testnet() -> (Vec<Vec<u8>>, Value) {
    (
        common::read_records("sig-testnet-417955322/shreds.bin"),
        common::json("sig-testnet-417955322/expected.json"),
    )
}

/// Shuffles `packets` with `seed` and cuts them into chunks of 1..=`max_chunk`.
pub(crate) fn shuffled_chunks(
    packets: &[Vec<u8>],
    seed: u64,
    max_chunk: usize,
) -> Vec<Vec<Vec<u8>>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut all = packets.to_vec();
    all.shuffle(&mut rng);
    let mut out = Vec::new();
    let mut rest = all.as_slice();
    while !rest.is_empty() {
        let n = rand::Rng::gen_range(&mut rng, 1..=max_chunk).min(rest.len());
        let (chunk, tail) = rest.split_at(n);
        out.push(chunk.to_vec());
        rest = tail;
    }
    out
}

/// The stored form of a packet (`docs/formats-shreds.md#what-the-store-keeps`).
pub(crate) fn payload(packet: &[u8]) -> Vec<u8> {
    ShredRef::parse(packet)
        .expect("valid test shred")
        .payload()
        .to_vec()
}

fn u64s(v: &Value) -> Vec<u64> {
    v.as_array()
        .map(|a| a.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default()
}

/// What the store must hold for one slot, read from an expected.json "shreds" object.
#[derive(Debug)]
pub(crate) struct SlotExpectation {
    pub slot: Slot,
    pub parent: Slot,
    pub consumed: u64,
    pub received: u64,
    pub last_index: Option<u64>,
    pub completed_indexes: Vec<u32>,
    /// Data sets whose shreds are all in the file, as `start..end`.
    pub complete_sets: Vec<(u32, u32)>,
    /// Stored shreds that the file repeats.
    /// Distinct data shred indices in the file for the slot.
    pub unique_data: usize,
}

impl SlotExpectation {
    pub(crate) fn from_json(shreds: &Value) -> Self {
        let slots = u64s(&shreds["slots"]);
        assert_eq!(slots.len(), 1, "one slot per expectation");
        let min = shreds["data_index_min"].as_u64().expect("data_index_min");
        let max = shreds["data_index_max"].as_u64().expect("data_index_max");
        let missing: BTreeSet<u64> = u64s(&shreds["missing_data_indices"]).into_iter().collect();
        let consumed = if min > 0 {
            0
        } else {
            (0..=max + 1)
                .find(|i| missing.contains(i) || *i > max)
                .unwrap_or(max + 1)
        };
        let completed: Vec<u64> = u64s(&shreds["data_complete_indices"]);
        let mut complete_sets = Vec::new();
        let mut start = 0u64;
        for &c in &completed {
            if start >= min && (start..=c).all(|i| !missing.contains(&i)) {
                complete_sets.push((start as u32, c as u32 + 1));
            }
            start = c + 1;
        }
        let unique_data = shreds["unique_data_indices"]
            .as_u64()
            .expect("unique_data_indices");
        Self {
            slot: Slot(slots[0]),
            parent: Slot(u64s(&shreds["parent_slot"])[0]),
            consumed,
            received: max + 1,
            last_index: u64s(&shreds["last_in_slot_indices"]).first().copied(),
            completed_indexes: completed.iter().map(|&c| c as u32).collect(),
            complete_sets,
            unique_data: unique_data as usize,
        }
    }

    /// Asserts the stored meta matches.
    pub(crate) fn check_meta(&self, meta: &SlotMeta, what: &str) {
        assert_eq!(meta.slot, self.slot, "{what}");
        assert_eq!(meta.parent_slot, Some(self.parent), "{what}: parent");
        assert_eq!(meta.consumed, self.consumed, "{what}: consumed");
        assert_eq!(meta.received, self.received, "{what}: received");
        assert_eq!(meta.last_index, self.last_index, "{what}: last_index");
        assert_eq!(
            meta.completed_data_indexes.iter().collect::<Vec<_>>(),
            self.completed_indexes,
            "{what}: completed_data_indexes"
        );
        let full = self.last_index.is_some_and(|l| self.consumed == l + 1);
        assert_eq!(meta.is_full(), full, "{what}: is_full");
        assert!(
            meta.first_shred_timestamp > 0,
            "{what}: first_shred_timestamp"
        );
    }
}

/// The complete data sets listed in a "deshred" object's `batches` (`end_index` inclusive).
pub(crate) fn complete_batches(deshred: &Value) -> Vec<(u32, u32)> {
    deshred["batches"]
        .as_array()
        .expect("batches")
        .iter()
        .filter(|b| b["complete"].as_bool() == Some(true))
        .map(|b| {
            let s = b["start_index"].as_u64().expect("start_index") as u32;
            let e = b["end_index"].as_u64().expect("end_index") as u32;
            (s, e + 1)
        })
        .collect()
}

/// A slot's meta recomputed from the data shreds actually stored (indices below `limit`):
/// `(consumed, received, last_index, completed indexes)`.
pub(crate) fn recompute_from_disk(
    store: &Blockstore,
    slot: Slot,
    limit: u32,
) -> (u64, u64, Option<u64>, Vec<u32>) {
    let mut present = Vec::new();
    let mut last = None;
    let mut completed = Vec::new();
    for i in 0..limit {
        if let Some(bytes) = store.data_shred(slot, ShredIndex(i)).expect("read shred") {
            let shred = ShredRef::parse(&bytes).expect("stored shred parses");
            assert_eq!((shred.slot(), shred.index()), (slot, ShredIndex(i)));
            present.push(i);
            if shred.last_in_slot() {
                last = Some(u64::from(i));
            }
            if shred.data_complete() {
                completed.push(i);
            }
        }
    }
    let consumed = (0..).find(|i| !present.contains(i)).unwrap_or(0);
    let received = present.last().map_or(0, |&m| u64::from(m) + 1);
    (u64::from(consumed), received, last, completed)
}
