//! A reference model of the blockstore, driven by a byte string of operations (insert
//! shreds, insert a corrupted shred, fetch, mark dead, set root, and over a `FaultEngine`
//! fail one engine operation of the next step: `faults.rs`) against any engine. After
//! every operation the store must agree with the model: the entries of every fetch, the
//! shred counts, full and connected flags, parents' `next_slots`, dead and rooted slots.
//! An operation failed by an injected fault must return that fault and change nothing.
//!
//! Shared by `store_model.rs` (proptest, in-memory and RocksDB engines) and the fuzz
//! target `fuzz/fuzz_targets/store_model.rs` (coverage-guided, in memory), so a finding of
//! either replays in the other. The model knows nothing of the store's internals: only the
//! generated ledger (which shreds exist, which data sets they form) and the operations.
#![allow(dead_code)]

mod checks;
mod faults;
mod ledger;

use std::collections::{BTreeMap, BTreeSet};

use bstore_ledger::shred::ShredRef;
use bstore_ledger::store::{
    Blockstore, FaultEngine, FaultHandle, InsertOptions, KvEngine, LeaderCheck,
};
use checks::{check_fetch, check_metas};
use faults::{Pending, Window};
pub(crate) use ledger::{GenLedger, GenSlot};

/// Data shreds per data set: each set is one FEC set of 32.
pub(crate) const SET_SHREDS: u32 = 32;

/// What the model knows of the store.
#[derive(Debug, Default)]
struct Model {
    /// Per generated slot, the data shred indices stored.
    present: Vec<BTreeSet<u32>>,
    /// Per generated slot, the positions in `GenSlot::code` stored.
    code_present: Vec<BTreeSet<u32>>,
    /// Per generated slot, its FEC sets: `fec_set_index → (num_data, code positions)`.
    fec_sets: Vec<BTreeMap<u32, (u32, Vec<u32>)>>,
    dead: BTreeSet<usize>,
    roots: BTreeSet<usize>,
}

/// Reads the next byte of the operation string; `None` ends the run.
fn byte(ops: &mut &[u8]) -> Option<u8> {
    let (&b, rest) = ops.split_first()?;
    *ops = rest;
    Some(b)
}

/// Runs `ops` against `store` and the model; the first disagreement is an `Err` naming the
/// operation. Storage errors are disagreements too (no engine error is expected); fault
/// operations are skipped.
pub(crate) fn run<E: KvEngine>(
    store: &Blockstore<E>,
    ledger: &GenLedger,
    ops: &[u8],
) -> Result<(), String> {
    run_with(store, None, ledger, ops)
}

/// [`run`] on a store over a fault engine: fault operations (tag 7) fail the engine
/// operation they name during the next step, which must then return the injected error
/// and change nothing.
pub(crate) fn run_with_faults<E: KvEngine>(
    store: &Blockstore<FaultEngine<E>>,
    ledger: &GenLedger,
    ops: &[u8],
) -> Result<(), String> {
    run_with(store, Some(store.faults()), ledger, ops)
}

fn run_with<E: KvEngine>(
    store: &Blockstore<E>,
    faults: Option<&FaultHandle>,
    ledger: &GenLedger,
    mut ops: &[u8],
) -> Result<(), String> {
    let n = ledger.slots.len();
    let mut model = Model {
        present: vec![BTreeSet::new(); n],
        code_present: vec![BTreeSet::new(); n],
        fec_sets: ledger.slots.iter().map(fec_sets).collect(),
        ..Model::default()
    };
    // Genuine shreds go in with the root check only (their signatures are known good and an
    // Ed25519 verify per set would dominate the run); corrupted ones also face the leader
    // check, which is what guarantees their rejection in any order.
    let options = InsertOptions::default();
    let checked = InsertOptions {
        leader: LeaderCheck::Verify(ledger.leader),
        ..InsertOptions::default()
    };
    let mut step = 0usize;
    let mut pending: Option<Pending> = None;
    'ops: while let Some(tag) = byte(&mut ops) {
        step += 1;
        let Some(sb) = byte(&mut ops) else {
            break;
        };
        // Tag 7 schedules an engine failure for the next operation (`faults.rs`).
        if tag % 8 == 7 {
            let Some(nb) = byte(&mut ops) else {
                break;
            };
            pending = Some(Pending::parse(sb, nb));
            continue;
        }
        let s = usize::from(sb) % n;
        let g = &ledger.slots[s];
        let window = Window::open(faults, pending.take());
        let what = 'op: {
            match tag % 8 {
                6 => {
                    // Every data shred of slot `s`, rotated to start at a chosen one.
                    let rot = byte(&mut ops).map_or(0, usize::from) % g.data.len();
                    let order: Vec<usize> = (0..g.data.len())
                        .map(|i| (i + rot) % g.data.len())
                        .collect();
                    let result =
                        store.insert_shreds_with(order.iter().map(|&i| &g.data[i]), options);
                    let Some(out) = window
                        .outcome(result)
                        .map_err(|e| format!("step {step}: insert slot: {e}"))?
                    else {
                        break 'op "failed insert slot";
                    };
                    let fresh = g.data.len() - model.present[s].len();
                    if !out.rejected.is_empty() || out.inserted != fresh || out.recovered != 0 {
                        return Err(format!(
                            "step {step}: whole slot: inserted {} want {fresh}",
                            out.inserted
                        ));
                    }
                    model.present[s].extend(0..u32::try_from(g.data.len()).unwrap_or(0));
                    "insert slot"
                }
                0 | 1 => {
                    // Insert a handful of data (tag 0) or code (tag 1) shreds of slot `s`.
                    let count = byte(&mut ops).map_or(0, |b| usize::from(b % 40) + 1);
                    let pool = if tag % 8 == 0 { &g.data } else { &g.code };
                    let picks: Vec<usize> = (0..count)
                        .filter_map(|_| byte(&mut ops).map(|b| usize::from(b) % pool.len()))
                        .collect();
                    let result = store.insert_shreds_with(picks.iter().map(|&i| &pool[i]), options);
                    let Some(out) = window
                        .outcome(result)
                        .map_err(|e| format!("step {step}: insert: {e}"))?
                    else {
                        break 'op "failed insert";
                    };
                    let target = if tag % 8 == 0 {
                        &mut model.present[s]
                    } else {
                        &mut model.code_present[s]
                    };
                    let fresh: BTreeSet<u32> = picks
                        .iter()
                        .map(|&i| u32::try_from(i).unwrap_or(u32::MAX))
                        .filter(|i| !target.contains(i))
                        .collect();
                    target.extend(fresh.iter().copied());
                    let touched = touched_sets(&model.fec_sets[s], tag % 8 == 0, &fresh);
                    let recovered = recover(&mut model, s, &touched);
                    if !out.rejected.is_empty()
                        || out.inserted != fresh.len()
                        || out.recovered != recovered
                        || !out.recovery_failed.is_empty()
                        || !out.duplicate_slots.is_empty()
                    {
                        return Err(format!(
                            "step {step}: insert of valid shreds: inserted {} recovered {}, expected \
                         {} / {recovered}, rejected {:?}, recovery {:?}, duplicates {:?}",
                            out.inserted,
                            out.recovered,
                            fresh.len(),
                            out.rejected.first().map(|r| r.error.to_string()),
                            out.recovery_failed.first().map(ToString::to_string),
                            out.duplicate_slots,
                        ));
                    }
                    "insert"
                }
                2 => {
                    let (Some(pick), Some(hi), Some(lo), Some(x)) = (
                        byte(&mut ops),
                        byte(&mut ops),
                        byte(&mut ops),
                        byte(&mut ops),
                    ) else {
                        break 'ops;
                    };
                    let index = usize::from(pick) % g.data.len();
                    let flip = Flip {
                        index,
                        pos: usize::from(u16::from_le_bytes([lo, hi])),
                        x: x | 1,
                    };
                    let stored =
                        corrupt_insert(store, g, flip, checked, &mut model.present[s], &window)
                            .map_err(|e| format!("step {step}: corrupt insert: {e}"))?;
                    if let Some((i, recovered)) = stored {
                        let touched = touched_sets(&model.fec_sets[s], true, &BTreeSet::from([i]));
                        let want = recover(&mut model, s, &touched);
                        if recovered != want {
                            return Err(format!(
                                "step {step}: corrupt insert recovered {recovered}, want {want}"
                            ));
                        }
                    }
                    "corrupt"
                }
                3 => {
                    let set = byte(&mut ops).map_or(0, |b| usize::from(b) % (g.sets.len() + 1));
                    let start = u32::try_from(set).map_err(|e| e.to_string())? * SET_SHREDS;
                    if window.is_armed() {
                        faults::fetch(store, &window, g.slot, start)
                            .map_err(|e| format!("step {step}: fetch under a fault: {e}"))?;
                    }
                    window.close();
                    check_fetch(store, ledger, &model, s, set)
                        .map_err(|e| format!("step {step}: fetch: {e}"))?;
                    "fetch"
                }
                4 => {
                    let result = store.set_dead_slot(g.slot);
                    if window
                        .outcome(result)
                        .map_err(|e| format!("step {step}: dead: {e}"))?
                        .is_none()
                    {
                        break 'op "failed dead";
                    }
                    model.dead.insert(s);
                    "dead"
                }
                _ => {
                    let result = store.set_roots([g.slot]);
                    if window
                        .outcome(result)
                        .map_err(|e| format!("step {step}: root: {e}"))?
                        .is_none()
                    {
                        break 'op "failed root";
                    }
                    model.roots.insert(s);
                    "root"
                }
            }
        };
        window.close();
        check_metas(store, ledger, &model).map_err(|e| format!("step {step} ({what}): {e}"))?;
    }
    // The input may end inside an operation whose fault never ran.
    if let Some(handle) = faults {
        handle.clear();
    }
    for s in 0..n {
        check_fetch(store, ledger, &model, s, 0).map_err(|e| format!("final fetch: {e}"))?;
    }
    Ok(())
}

/// Which data shred a corrupt insert changes, and how: byte `pos` (modulo the length) xor
/// `x` (never 0).
#[derive(Debug, Clone, Copy)]
struct Flip {
    index: usize,
    pos: usize,
    x: u8,
}

/// Inserts data shred `flip.index` of `g` with byte `flip.pos` xor `flip.x`. The store may take it only
/// when the change does not touch what the leader signed (the data it deshreds to), and
/// never makes a duplicate-slot proof of it (its signature is not the leader's).
/// Returns the index and the shreds the call recovered when the shred was stored; `None`
/// when it was not (rejected, or the call failed by an injected fault).
fn corrupt_insert<E: KvEngine>(
    store: &Blockstore<E>,
    g: &GenSlot,
    Flip { index, pos, x }: Flip,
    options: InsertOptions,
    present: &mut BTreeSet<u32>,
    window: &Window<'_>,
) -> Result<Option<(u32, usize)>, String> {
    let original = &g.data[index];
    let mut bad = original.clone();
    let pos = pos % bad.len();
    bad[pos] ^= x;
    // A call failed by a fault stores nothing, as a rejected shred does.
    let Some(out) = window.outcome(store.insert_shreds_with([&bad], options))? else {
        return Ok(None);
    };
    if !out.duplicate_slots.is_empty() || !out.recovery_failed.is_empty() {
        return Err(format!(
            "a shred corrupted at byte {pos} made {:?} / {:?}",
            out.duplicate_slots,
            out.recovery_failed.first().map(ToString::to_string)
        ));
    }
    if out.inserted == 0 {
        return Ok(None);
    }
    let index32 = u32::try_from(index).map_err(|e| e.to_string())?;
    let (a, b) = (ShredRef::parse(original), ShredRef::parse(&bad));
    let same = match (a, b) {
        (Ok(a), Ok(b)) => a.slot() == b.slot() && a.index() == b.index() && a.data() == b.data(),
        _ => false,
    };
    if !same || present.contains(&index32) {
        return Err(format!("a shred corrupted at byte {pos} was stored"));
    }
    present.insert(index32);
    Ok(Some((index32, out.recovered)))
}

/// The FEC sets of a generated slot, from its shreds' headers.
fn fec_sets(g: &GenSlot) -> BTreeMap<u32, (u32, Vec<u32>)> {
    let mut sets: BTreeMap<u32, (u32, Vec<u32>)> = BTreeMap::new();
    for (pos, payload) in g.code.iter().enumerate() {
        let Ok(shred) = ShredRef::parse(payload) else {
            continue;
        };
        let set = sets.entry(shred.fec_set_index()).or_default();
        set.0 = u32::from(shred.num_data().unwrap_or(0));
        set.1.push(u32::try_from(pos).unwrap_or(u32::MAX));
    }
    sets
}

/// The sets holding the freshly stored data indices (`data`) or code positions.
fn touched_sets(
    sets: &BTreeMap<u32, (u32, Vec<u32>)>,
    data: bool,
    fresh: &BTreeSet<u32>,
) -> BTreeSet<u32> {
    sets.iter()
        .filter(|(fec, (num_data, code))| {
            fresh.iter().any(|i| match data {
                true => (**fec..*fec + *num_data).contains(i),
                false => code.contains(i),
            })
        })
        .map(|(fec, _)| *fec)
        .collect()
}

/// Recovery as the store must do it: a touched set missing data shreds but holding at
/// least `num_data` shreds of either kind gets all its data shreds. Returns how many.
fn recover(model: &mut Model, s: usize, touched: &BTreeSet<u32>) -> usize {
    let mut recovered = 0;
    for fec in touched {
        let Some((num_data, code)) = model.fec_sets[s].get(fec) else {
            continue;
        };
        let range = *fec..*fec + *num_data;
        let data = model.present[s].range(range.clone()).count();
        let code = code
            .iter()
            .filter(|p| model.code_present[s].contains(p))
            .count();
        let need = *num_data as usize;
        if data < need && data + code >= need {
            recovered += need - data;
            model.present[s].extend(range);
        }
    }
    recovered
}
