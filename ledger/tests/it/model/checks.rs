//! The model's checks after each operation: every fetch (owned and views) and every meta,
//! chain link, connected flag, dead and root flag against what the model knows.

use bstore_ledger::entry::{Entry, encode_entries};
use bstore_ledger::fetch::{AllowDead, EntryFetch, FetchBuffer, SlotEntries, ViewFetch};
use bstore_ledger::store::{Blockstore, KvEngine};
use bstore_ledger::{LedgerError, Slot};

use super::{GenLedger, Model, SET_SHREDS};

/// The model's first missing data index of slot `s`.
fn consumed(model: &Model, s: usize) -> u32 {
    (0..).find(|i| !model.present[s].contains(i)).unwrap_or(0)
}

fn has_meta(ledger: &GenLedger, model: &Model, s: usize) -> bool {
    let slot = ledger.slots[s].slot;
    !model.present[s].is_empty()
        || ledger
            .slots
            .iter()
            .enumerate()
            .any(|(c, g)| g.parent == slot && g.slot != slot && !model.present[c].is_empty())
}

pub(super) fn check_fetch<E: KvEngine>(
    store: &Blockstore<E>,
    ledger: &GenLedger,
    model: &Model,
    s: usize,
    first_set: usize,
) -> Result<(), String> {
    let g = &ledger.slots[s];
    let start = u32::try_from(first_set).map_err(|e| e.to_string())? * SET_SHREDS;
    let got = store.get_slot_entries_with_shred_info(g.slot, start, AllowDead::No);
    let mut buf = FetchBuffer::new();
    let views = store.fetch_slot_views(g.slot, start, AllowDead::No, &mut buf);
    if !has_meta(ledger, model, s) {
        return match got {
            Ok(SlotEntries {
                entries,
                num_shreds: 0,
                is_full: false,
                ..
            }) if entries.is_empty() => Ok(()),
            other => Err(format!("slot {} without meta: {other:?}", g.slot)),
        };
    }
    if model.dead.contains(&s) {
        return match (got, views) {
            (Err(LedgerError::DeadSlot { .. }), Err(LedgerError::DeadSlot { .. })) => Ok(()),
            (a, b) => Err(format!(
                "dead slot {}: {a:?} / {:?}",
                g.slot,
                b.map(|v| v.num_shreds)
            )),
        };
    }
    let consumed = consumed(model, s);
    let total = u32::try_from(g.data.len()).map_err(|e| e.to_string())?;
    let done_sets = (consumed / SET_SHREDS) as usize;
    let want: Vec<Entry> = g.sets[first_set.min(done_sets)..done_sets]
        .iter()
        .flatten()
        .cloned()
        .collect();
    let want_shreds = u64::from((consumed / SET_SHREDS * SET_SHREDS).saturating_sub(start));
    let want_full = consumed == total;
    let SlotEntries {
        entries,
        num_shreds,
        is_full: full,
        ..
    } = got.map_err(|e| format!("slot {}: {e}", g.slot))?;
    let want_full_flag = want_full && !want.is_empty();
    if entries != want || num_shreds != want_shreds || full != want_full_flag {
        return Err(format!(
            "slot {} from {start}: got {} entries / {num_shreds} shreds / full {full}, want {} / {want_shreds} / {want_full}",
            g.slot,
            entries.len(),
            want.len()
        ));
    }
    let views = views.map_err(|e| format!("slot {} views: {e}", g.slot))?;
    let bytes: Vec<u8> = g.sets[first_set.min(done_sets)..done_sets]
        .iter()
        .flat_map(|set| encode_entries(set))
        .collect();
    let got_bytes: Vec<u8> = views
        .sets
        .iter()
        .flat_map(|v| v.entries.bytes().to_vec())
        .collect();
    if got_bytes != bytes || views.num_shreds != want_shreds {
        return Err(format!("slot {} views differ from owned entries", g.slot));
    }
    Ok(())
}

/// Metas, chaining, connected flags, roots.
pub(super) fn check_metas<E: KvEngine>(
    store: &Blockstore<E>,
    ledger: &GenLedger,
    model: &Model,
) -> Result<(), String> {
    let full = |s: usize| consumed(model, s) as usize == ledger.slots[s].data.len();
    let index_of = |slot: Slot| ledger.slots.iter().position(|g| g.slot == slot);
    for (s, g) in ledger.slots.iter().enumerate() {
        let meta = store.meta(g.slot).map_err(|e| e.to_string())?;
        let Some(meta) = meta else {
            if has_meta(ledger, model, s) {
                return Err(format!("slot {} has no meta", g.slot));
            }
            continue;
        };
        if !model.present[s].is_empty() {
            let received = model.present[s].last().map_or(0, |i| u64::from(*i) + 1);
            if meta.received != received || meta.consumed != u64::from(consumed(model, s)) {
                return Err(format!(
                    "slot {}: received/consumed {}/{} want {received}/{}",
                    g.slot,
                    meta.received,
                    meta.consumed,
                    consumed(model, s)
                ));
            }
            if meta.parent_slot != Some(g.parent) || meta.is_full() != full(s) {
                return Err(format!(
                    "slot {}: parent or full flag wrong: {meta:?}",
                    g.slot
                ));
            }
        }
        let mut connected = full(s);
        let mut cur = s;
        while connected && ledger.slots[cur].slot != Slot(0) {
            match index_of(ledger.slots[cur].parent) {
                Some(p) => {
                    connected = full(p);
                    cur = p;
                }
                None => connected = false,
            }
        }
        if meta.is_connected() != connected {
            return Err(format!(
                "slot {}: connected {} want {connected}",
                g.slot,
                meta.is_connected()
            ));
        }
        for (c, child) in ledger.slots.iter().enumerate() {
            let linked =
                child.parent == g.slot && child.slot != g.slot && !model.present[c].is_empty();
            if linked && !meta.next_slots.contains(&child.slot) {
                return Err(format!("slot {}: next_slots lacks {}", g.slot, child.slot));
            }
        }
        let dead = store.is_dead(g.slot).map_err(|e| e.to_string())?;
        let root = store.is_root(g.slot).map_err(|e| e.to_string())?;
        if dead != model.dead.contains(&s) || root != model.roots.contains(&s) {
            return Err(format!("slot {}: dead {dead} root {root}", g.slot));
        }
    }
    Ok(())
}
