//! Scenario: the blockstore over a failing engine. A workload of insert / set_roots / purge
//! calls runs once without faults (the reference); then, for every call and every
//! operation the call makes on the engine (its Nth write, read, cursor step, compaction),
//! the workload runs again with exactly that operation failing. Each time:
//! - the call returns the injected `LedgerError::Storage` (never a panic, never another
//!   error, never `Ok`);
//! - a failure before the write changes nothing: every column byte for byte and every
//!   read a user makes (metas, fetched entries, roots, dead flags, purge marks) are as
//!   before the call. A failed compaction, or a failed second write of a purge (the one
//!   that tells following secondaries, after the compaction), comes after the purge's
//!   deleting write: the purge stands;
//! - the same call retried succeeds with the reference's outcome, and the rest of the
//!   workload ends in the reference's final state.
//!
//! `real_shreds.rs` runs it on the real testnet and Agave-made slots of `../shared/testdata`
//! (in memory and on RocksDB), `generated.rs` on the store model's forked ledger.

mod generated;
mod real_shreds;

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::panic::AssertUnwindSafe;
use std::path::Path;

use bstore_ledger::fetch::{AllowDead, EntryFetch};
use bstore_ledger::store::{
    Blockstore, Column, FaultEngine, FaultPoint, InjectedFault, InsertOptions, KvEngine, MemEngine,
    columns,
};
use bstore_ledger::{LedgerError, Slot};

/// One call of a workload.
#[derive(Debug, Clone)]
pub(crate) enum Call {
    Insert(Vec<Vec<u8>>, InsertOptions),
    SetRoots(Vec<Slot>),
    Purge(Slot, Slot),
}

impl Call {
    /// Runs the call; `Ok` is a summary of what it reported, compared with the reference.
    fn run<E: KvEngine>(&self, store: &Blockstore<E>) -> Result<String, LedgerError> {
        match self {
            Self::Insert(packets, options) => store
                .insert_shreds_with(packets, *options)
                .map(|out| format!("{out:?}")),
            Self::SetRoots(slots) => store
                .set_roots(slots.iter().copied())
                .map(|()| String::new()),
            Self::Purge(from, to) => store.purge_slots(*from, *to).map(|s| format!("{s:?}")),
        }
    }

    fn name(&self) -> String {
        match self {
            Self::Insert(packets, _) => format!("insert of {} shreds", packets.len()),
            Self::SetRoots(slots) => format!("set_roots {slots:?}"),
            Self::Purge(from, to) => format!("purge {from}..={to}"),
        }
    }
}

/// A fresh store over a fault engine, and what must outlive it.
pub(crate) struct Made<E: KvEngine> {
    pub store: Blockstore<FaultEngine<E>>,
    pub _dir: Option<tempfile::TempDir>,
}

pub(crate) fn in_memory() -> Made<MemEngine> {
    Made {
        store: Blockstore::with_engine(FaultEngine::new(MemEngine::new()), Path::new("")),
        _dir: None,
    }
}

#[cfg(feature = "storage")]
pub(crate) fn on_rocksdb() -> Made<bstore_ledger::store::RocksEngine> {
    use bstore_ledger::store::{AccessMode, RocksEngine};
    let dir = tempfile::tempdir().expect("tempdir");
    let engine = RocksEngine::open(dir.path(), AccessMode::ReadWrite).expect("open");
    Made {
        store: Blockstore::with_engine(FaultEngine::new(engine), dir.path()),
        _dir: Some(dir),
    }
}

/// Every row of every column of the engine under the faults, read around them.
type Dump = BTreeMap<(&'static str, Vec<u8>), Vec<u8>>;

/// Read through the fault engine: only while no fault is armed, and outside the reference
/// run's counting of a call's operations.
fn dump<E: KvEngine>(store: &Blockstore<FaultEngine<E>>) -> Dump {
    assert_eq!(
        FaultPoint::ALL.map(|p| store.faults().is_armed(p)),
        [false; 4],
        "a dump reads with no fault armed"
    );
    let mut out = Dump::new();
    for family in &columns::FAMILIES {
        store
            .for_each_family_row(family.name, |k, v| {
                out.insert((family.name, k.to_vec()), v.to_vec());
                ControlFlow::Continue(())
            })
            .expect("reading with no fault armed");
    }
    out
}

/// [`dump`] comparable across runs: a meta's `first_shred_timestamp` is the wall clock of
/// its first insert, so it is cleared.
fn normalized<E: KvEngine>(store: &Blockstore<FaultEngine<E>>) -> Dump {
    let mut rows = dump(store);
    for ((cf, key), value) in rows.iter_mut() {
        if *cf == columns::Meta::NAME {
            let slot = columns::Meta::decode_key(key).expect("meta key");
            let mut meta = columns::Meta::decode_value(slot, value).expect("meta value");
            meta.first_shred_timestamp = 0;
            *value = columns::Meta::encode_value(&meta);
        }
    }
    rows
}

/// What a user reads of `slots`: meta, fetched entries (or the error's kind), root, dead.
fn view<E: KvEngine>(store: &Blockstore<E>, slots: &[Slot]) -> Vec<String> {
    slots
        .iter()
        .map(|&slot| {
            let fetched = match store.get_slot_entries_with_shred_info(slot, 0, AllowDead::Yes) {
                Ok(got) => format!("{} entries, {} shreds", got.entries.len(), got.num_shreds),
                Err(e) => e.kind().to_string(),
            };
            format!(
                "{slot}: {:?} / {fetched} / root {:?} / dead {:?}",
                store
                    .meta(slot)
                    .map(|m| m.map(|m| (m.consumed, m.received))),
                store.is_root(slot).ok(),
                store.is_dead(slot).ok(),
            )
        })
        .chain([format!("purged to {:?}", store.purged_to())])
        .collect()
}

/// `per_point` for "every operation of the call".
pub(crate) const EVERY: u64 = u64::MAX;

/// `n` ordinals out of `1..=k`: all of them when `k ≤ n`, else spread evenly from 1 to `k`.
fn ordinals(k: u64, n: u64) -> Vec<u64> {
    if k <= n {
        return (1..=k).collect();
    }
    (0..n).map(|i| 1 + i * (k - 1) / (n - 1).max(1)).collect()
}

/// Per call, the engine operations it made in the reference run, by fault point.
type Counts = Vec<[u64; 4]>;

fn counts<E: KvEngine>(store: &Blockstore<FaultEngine<E>>) -> [u64; 4] {
    FaultPoint::ALL.map(|p| store.faults().seen(p))
}

/// Runs `calls` with one fault at a time (at most `per_point` ordinals of each point per
/// call) and checks the rules of this file. Returns how many faults were injected.
pub(crate) fn every_fault<E: KvEngine>(
    make: impl Fn() -> Made<E>,
    calls: &[Call],
    points: &[FaultPoint],
    per_point: u64,
    slots: &[Slot],
) -> usize {
    let reference = make();
    let (mut outcomes, mut states, mut ops): (Vec<String>, Vec<Dump>, Counts) = Default::default();
    for call in calls {
        let before = counts(&reference.store);
        let out = call.run(&reference.store);
        let after = counts(&reference.store);
        outcomes.push(out.unwrap_or_else(|e| panic!("{} without faults: {e}", call.name())));
        states.push(normalized(&reference.store));
        ops.push(std::array::from_fn(|i| after[i] - before[i]));
    }
    let mut injected = 0;
    for (c, call) in calls.iter().enumerate() {
        for &point in points {
            let kind = FaultPoint::ALL
                .iter()
                .position(|p| *p == point)
                .unwrap_or(0);
            for n in ordinals(ops[c][kind], per_point) {
                let what = format!("call {c} ({}), {} #{n} failing", call.name(), point.name());
                let made = make();
                let store = &made.store;
                for (i, earlier) in calls[..c].iter().enumerate() {
                    assert_eq!(
                        earlier.run(store).ok().as_ref(),
                        Some(&outcomes[i]),
                        "{what}"
                    );
                }
                let (rows, seen) = (dump(store), view(store, slots));
                store.faults().fail_nth(point, n);
                let failed = std::panic::catch_unwind(AssertUnwindSafe(|| call.run(store)));
                let err = match failed {
                    Err(_) => panic!("{what}: the call panicked"),
                    Ok(Ok(out)) => panic!("{what}: the call succeeded: {out}"),
                    Ok(Err(e)) => e,
                };
                let fault = InjectedFault::of(&err);
                assert_eq!(fault.map(|f| f.point), Some(point), "{what}: {err}");
                store.faults().clear();
                let after_the_purge = point == FaultPoint::Compact
                    || (matches!(call, Call::Purge(..)) && point == FaultPoint::Write && n > 1);
                if after_the_purge {
                    assert!(normalized(store) == states[c], "{what}: the purge stands");
                } else {
                    assert!(dump(store) == rows, "{what}: stored rows changed");
                    assert_eq!(view(store, slots), seen, "{what}: reads changed");
                }
                let retry = call
                    .run(store)
                    .unwrap_or_else(|e| panic!("{what}: retry: {e}"));
                if !after_the_purge {
                    assert_eq!(retry, outcomes[c], "{what}: retry reported otherwise");
                }
                for (i, later) in calls.iter().enumerate().skip(c + 1) {
                    assert_eq!(later.run(store).ok().as_ref(), Some(&outcomes[i]), "{what}");
                }
                let last = states.last().expect("a workload has calls");
                assert!(normalized(store) == *last, "{what}: final state differs");
                injected += 1;
            }
        }
    }
    injected
}
