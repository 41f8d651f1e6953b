//! Helpers shared by the replay integration tests: the real test data, temporary
//! blockstores, synthetic slot chains, and (in `influx`) a throwaway InfluxDB.
#![allow(dead_code, clippy::unwrap_used)]

// The metrics crate's throwaway-InfluxDB harness, shared rather than copied.
#[path = "../../../../metrics/tests/it/common/mod.rs"]
pub(crate) mod influx;

use std::collections::BTreeMap;
use std::sync::Arc;

use bstore_ledger::entry::TickRules;
use bstore_ledger::store::{AccessMode, Blockstore};
use bstore_ledger::synth::{GeneratedSlot, SlotGenerator, SlotSpec};
use bstore_ledger::{Hash, Slot};
use bstore_replay::{
    Completion, CountingExecutor, MetricsSink, ReplayDriver, ReplayOptions, Retention, SlotStatus,
};

// The real-data helpers of the ledger tests (testdata, path, read_records, read_ar, json).
#[path = "../../../../ledger/tests/it/common/mod.rs"]
mod data;
#[allow(unused_imports)] // each test binary uses a different subset
pub(crate) use data::{json, path, read_records, testdata};

/// A fresh read-write blockstore in a temporary directory (kept alive by the guard).
pub(crate) fn temp_blockstore() -> (tempfile::TempDir, Arc<Blockstore>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = Blockstore::open(dir.path(), AccessMode::ReadWrite).expect("open blockstore");
    (dir, Arc::new(store))
}

/// Inserts shreds whose contents a test changed after they were signed. They stand in for
/// a leader that signed bad contents (whose proofs would be valid); the change breaks the
/// Merkle proofs, so insert's root check is off here. Returns what insert did.
pub(crate) fn insert_tampered<I>(
    store: &Blockstore,
    shreds: I,
) -> bstore_ledger::store::InsertOutcome
where
    I: IntoIterator,
    I::Item: AsRef<[u8]>,
{
    let options = bstore_ledger::store::InsertOptions {
        merkle: bstore_ledger::store::MerkleCheck::Skip,
        ..Default::default()
    };
    store
        .insert_shreds_with(shreds, options)
        .expect("insert tampered shreds")
}

/// The real testnet slot 417955322 and its oracle values.
pub(crate) struct Testnet {
    pub slot: Slot,
    pub parent: Slot,
    pub parent_blockhash: Hash,
    pub blockhash: Hash,
    pub shreds: Vec<Vec<u8>>,
    pub expected: serde_json::Value,
    pub rules: TickRules,
}

pub(crate) const TESTNET_DIR: &str = "sig-testnet-417955322";

fn u64_at(v: &serde_json::Value, pointer: &str) -> u64 {
    v.pointer(pointer)
        .and_then(serde_json::Value::as_u64)
        .unwrap_or_else(|| panic!("expected.json has no integer at {pointer}"))
}

fn hash_at(v: &serde_json::Value, pointer: &str) -> Hash {
    v.pointer(pointer)
        .and_then(serde_json::Value::as_str)
        .unwrap_or_else(|| panic!("expected.json has no string at {pointer}"))
        .parse()
        .expect("base58 hash")
}

impl Testnet {
    pub(crate) fn load() -> Self {
        let expected = json(&format!("{TESTNET_DIR}/expected.json"));
        let ticks = u64_at(&expected, "/deshred/totals/ticks");
        let hashes = u64_at(&expected, "/deshred/totals/num_hashes");
        Self {
            slot: Slot(u64_at(&expected, "/slot")),
            parent: Slot(u64_at(&expected, "/shreds/parent_slot/0")),
            parent_blockhash: hash_at(&expected, "/deshred/totals/poh_seed"),
            blockhash: hash_at(&expected, "/deshred/totals/last_entry_hash"),
            shreds: read_records(&format!("{TESTNET_DIR}/shreds.bin")),
            rules: TickRules {
                ticks_per_slot: ticks,
                hashes_per_tick: Some(hashes / ticks),
            },
            expected,
        }
    }

    pub(crate) fn total(&self, name: &str) -> u64 {
        u64_at(&self.expected, &format!("/deshred/totals/{name}"))
    }

    pub(crate) fn shred_count(&self) -> u64 {
        u64_at(&self.expected, "/shreds/count")
    }

    /// Indices of the data-complete shreds, ascending.
    pub(crate) fn data_complete(&self) -> Vec<u64> {
        self.expected
            .pointer("/shreds/data_complete_indices")
            .and_then(serde_json::Value::as_array)
            .expect("data_complete_indices")
            .iter()
            .map(|v| v.as_u64().expect("index"))
            .collect()
    }

    /// A driver over `store` for a finished ledger, seeded with the parent's blockhash.
    pub(crate) fn final_driver(&self, store: &Arc<Blockstore>) -> ReplayDriver {
        let options = ReplayOptions {
            tick_rules: self.rules,
            completion: Completion::Final,
            metrics: MetricsSink::Off,
            ..ReplayOptions::default()
        };
        let mut driver = ReplayDriver::new(Arc::clone(store), options, CountingExecutor::new());
        driver.seed_blockhash(self.parent, self.parent_blockhash);
        driver
    }
}

/// Shred payload byte offset of data byte `data_offset` of a data shred (88-byte headers).
pub(crate) fn data_byte(data_offset: usize) -> usize {
    88 + data_offset
}

/// Hashes per tick of the synthetic slots (kept small so tests are fast).
pub(crate) const SYNTH_HASHES_PER_TICK: u64 = 500;

/// The root every synthetic chain starts from.
pub(crate) const GENESIS: Slot = Slot(0);

/// The blockhash of [`GENESIS`].
pub(crate) fn genesis_hash() -> Hash {
    Hash([7; 32])
}

/// `count` consecutive synthetic slots 1..=count, each child of the previous (slot 1 of
/// [`GENESIS`]), with about `data_shreds` data shreds each.
pub(crate) fn synth_chain(seed: u64, count: u64, data_shreds: u32) -> Vec<GeneratedSlot> {
    let mut generator = SlotGenerator::new(seed, 42);
    let mut parent = GENESIS;
    let mut parent_hash = genesis_hash();
    (1..=count)
        .map(|s| {
            let spec = SlotSpec {
                data_shreds,
                hashes_per_tick: SYNTH_HASHES_PER_TICK,
                with_code: false,
            };
            let slot = generator
                .generate(Slot(s), parent, parent_hash, spec)
                .expect("generate slot");
            parent = slot.slot;
            parent_hash = slot.blockhash;
            slot
        })
        .collect()
}

/// Synthetic slots with the given `(slot, parent)` links, in order (a parent is
/// [`GENESIS`] or listed before its children), with about `data_shreds` data shreds each.
pub(crate) fn synth_forks(
    seed: u64,
    links: &[(u64, u64)],
    data_shreds: u32,
) -> BTreeMap<Slot, GeneratedSlot> {
    let mut generator = SlotGenerator::new(seed, 42);
    let mut slots: BTreeMap<Slot, GeneratedSlot> = BTreeMap::new();
    for &(slot, parent) in links {
        let parent_hash = match Slot(parent) {
            GENESIS => genesis_hash(),
            p => slots.get(&p).expect("parent listed first").blockhash,
        };
        let spec = SlotSpec {
            data_shreds,
            hashes_per_tick: SYNTH_HASHES_PER_TICK,
            with_code: false,
        };
        let generated = generator
            .generate(Slot(slot), Slot(parent), parent_hash, spec)
            .expect("generate slot");
        slots.insert(Slot(slot), generated);
    }
    slots
}

/// Tick rules of the synthetic slots.
pub(crate) fn synth_rules() -> TickRules {
    TickRules {
        ticks_per_slot: TickRules::DEFAULT_TICKS_PER_SLOT,
        hashes_per_tick: Some(SYNTH_HASHES_PER_TICK),
    }
}

/// A driver for synthetic chains, seeded with the genesis blockhash.
pub(crate) fn synth_driver(
    store: &Arc<Blockstore>,
    completion: Completion,
    metrics: MetricsSink,
) -> ReplayDriver {
    retaining_driver(store, completion, metrics, Retention::default())
}

/// [`synth_driver`] keeping finished slots as `retention` says.
pub(crate) fn retaining_driver(
    store: &Arc<Blockstore>,
    completion: Completion,
    metrics: MetricsSink,
    retention: Retention,
) -> ReplayDriver {
    let options = ReplayOptions {
        tick_rules: synth_rules(),
        completion,
        metrics,
        retention,
        ..ReplayOptions::default()
    };
    let mut driver = ReplayDriver::new(Arc::clone(store), options, CountingExecutor::new());
    driver.seed_blockhash(GENESIS, genesis_hash());
    driver
}

/// Unwraps a `Replayed` status.
pub(crate) fn replayed(status: SlotStatus) -> (bstore_replay::SlotStats, Hash) {
    match status {
        SlotStatus::Replayed { stats, blockhash } => (stats, blockhash),
        other => panic!("expected the slot replayed, got {other:?}"),
    }
}

/// Unwraps a `Dead` status.
pub(crate) fn dead(status: SlotStatus) -> (bstore_replay::SlotStats, bstore_replay::ReplayError) {
    match status {
        SlotStatus::Dead { stats, error } => (stats, error),
        other => panic!("expected the slot dead, got {other:?}"),
    }
}
