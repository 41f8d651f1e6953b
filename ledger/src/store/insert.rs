//! `Blockstore::insert_shreds` (`docs/on-disk-layout.md#inserting-shreds`): validate, store, and
//! update each slot's meta,
//! all in one atomic RocksDB write batch per call.
//!
//! Writers: calls are serialised by the blockstore's writer mutex (a second inserting thread
//! waits); readers never wait. The presence cache (see `presence.rs`) is updated only after
//! the batch committed.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{SystemTime, UNIX_EPOCH};

use super::agave_meta::{ErasureMeta, SlotIndex};
use super::blockstore::Blockstore;
use super::chain;
use super::checks::{InsertOptions, LeaderCheck, SetRoots};
use super::columns::{
    CodeShred, DataShred, DeadSlots, ErasureMetaColumn, Index, MerkleRootMetaColumn, Meta, Orphans,
};
use super::data_sets::newly_completed;
use super::duplicates::{CallDuplicates, DuplicateKind, DuplicateSlot};
use super::index_set::ShredIndexSet;
use super::kv::KvEngine;
use super::parent_info::{self, ParentUpdate};
use super::presence::{PresenceCache, ShredColumn};
use super::sets::{CallSets, Origin};
use super::shape_rules::{self, ShapeRules};
use super::slot_meta::SlotMeta;
use super::slot_work::{SlotWork, slot_work};
use super::typed::{Engine, RowBatch};
use crate::FormatError;
use crate::defect::InsertDefect;
use crate::error::{LedgerError, Result};
use crate::shred::{ShredDefect, ShredKind, ShredRef, retransmitter_signature, verify_signature};
use crate::types::{ShredIndex, Signature, Slot};

/// What one `insert_shreds` call did.
#[derive(Debug, Default)]
pub struct InsertOutcome {
    /// Shreds newly stored (data and coding), not counting recovered ones.
    pub inserted: usize,
    /// Data shreds rebuilt from their FEC set's coding shreds and stored.
    pub recovered: usize,
    /// FEC sets whose recovery was attempted and refused (corrupt or inconsistent shreds:
    /// `LedgerError::Recovery` naming slot, set and cause); nothing of them was stored.
    pub recovery_failed: Vec<LedgerError>,
    /// Slots this call found duplicate and stored a proof for (one per slot, only when the
    /// slot had none).
    pub duplicate_slots: Vec<DuplicateSlot>,
    /// Shreds already stored (same kind, slot and index); ignored, the first write wins.
    pub duplicates: usize,
    /// Shreds not stored, in input order, with why.
    pub rejected: Vec<RejectedShred>,
    /// Data sets this call completed, by slot then start.
    pub completed_data_sets: Vec<CompletedDataSet>,
    /// Slots this call made full, ascending.
    pub slots_full: Vec<Slot>,
    /// Slots this call marked dead, ascending (Agave 4.x rules, `ShapeRules::Agave4`): a
    /// shred contradicting the slot's meta or its set (unless the slot was full), a
    /// chained-root conflict between sets, or a parent-info conflict.
    pub slots_marked_dead: Vec<Slot>,
}

/// A shred that was not stored.
#[derive(Debug)]
pub struct RejectedShred {
    /// Set when the header was readable that far.
    pub slot: Option<Slot>,
    /// The shred's index within its slot, when the header was readable that far.
    pub index: Option<ShredIndex>,
    /// `InvalidShred` (bad bytes) or `ShredRejected` (contradicts the slot's meta).
    pub error: LedgerError,
}

/// A data set that became complete: shreds `start..end` of `slot` (end exclusive; `end - 1`
/// is flagged data-complete).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CompletedDataSet {
    /// The slot the data set belongs to.
    pub slot: Slot,
    /// Index of the data set's first data shred.
    pub start: u32,
    /// One past the index of its last data shred (the one flagged data-complete).
    pub end: u32,
}

pub(super) enum Verdict {
    Inserted,
    Duplicate,
    Rejected(LedgerError),
}

/// `'e` borrows the engine (the batch's lifetime is tied to it exactly), `'c` the writer's
/// presence cache, which is updated after the batch is written.
pub(super) struct Work<'e, 'c, 'i, E: KvEngine> {
    pub(super) engine: &'e Engine<E>,
    pub(super) cache: &'c PresenceCache,
    batch: RowBatch<'e, E>,
    pub(super) slots: BTreeMap<Slot, SlotWork>,
    now_ms: u64,
    pub(super) options: InsertOptions,
    roots: SetRoots,
    pub(super) sets: CallSets,
    pub(super) dups: CallDuplicates,
    /// The call's packets (kept for the whole call: recovery and proofs read them back).
    pub(super) inputs: &'i [&'i [u8]],
    /// Slots this call marks dead (each written once, in `finish`).
    pub(super) dead: BTreeSet<Slot>,
}

impl<E: KvEngine> Blockstore<E> {
    /// Stores shred packets (received packets with trailing bytes, or stored payloads).
    ///
    /// Each packet is parsed with `ShredRef::parse`; data shreds go to `data_shred` and
    /// update their slot's meta (received, consumed, last index, parent, completed indexes,
    /// connected flags, and the parent's `next_slots`, creating a placeholder parent meta);
    /// coding shreds go to `code_shred`. A shred already stored is a duplicate (first write
    /// wins). Malformed shreds, and shreds that contradict the slot's meta
    /// ([`InsertDefect`]), are rejected and reported; the rest of the call still goes in.
    /// Everything the call stores is one atomic write. The call holds every packet until it
    /// returns (recovery and duplicate proofs read the call's own shreds back from them), so
    /// a caller bounds memory by the size of its calls.
    ///
    /// `Err` only for storage failures, corrupt stored metas, or a store not opened
    /// read-write; nothing of the call is written then.
    pub fn insert_shreds<I>(&self, packets: I) -> Result<InsertOutcome>
    where
        I: IntoIterator,
        I::Item: AsRef<[u8]>,
    {
        self.insert_shreds_with(packets, InsertOptions::default())
    }

    /// [`Self::insert_shreds`] with options: [`LeaderCheck::Verify`](super::LeaderCheck)
    /// also rejects every shred not signed by the named leader.
    pub fn insert_shreds_with<I>(&self, packets: I, options: InsertOptions) -> Result<InsertOutcome>
    where
        I: IntoIterator,
        I::Item: AsRef<[u8]>,
    {
        let packets: Vec<I::Item> = packets.into_iter().collect();
        let inputs: Vec<&[u8]> = packets.iter().map(AsRef::as_ref).collect();
        let batch = self.engine.batch_with_capacity(batch_estimate(&inputs))?;
        let mut cache = self.lock_writer();
        let mut work = Work {
            engine: &self.engine,
            cache: &cache,
            batch,
            slots: BTreeMap::new(),
            now_ms: now_ms(),
            options,
            roots: SetRoots::for_shreds(inputs.len()),
            sets: CallSets::default(),
            dups: CallDuplicates::default(),
            inputs: &inputs,
            dead: BTreeSet::new(),
        };
        let mut outcome = InsertOutcome::default();
        for (position, packet) in inputs.iter().enumerate() {
            let verdict = match ShredRef::parse(packet) {
                Ok(shred) => {
                    let origin = Origin::Input {
                        packet: position,
                        len: shred.payload().len(),
                    };
                    match shred.is_data() {
                        true => work.add_data(&shred, origin)?,
                        false => work.add_code(&shred, origin)?,
                    }
                }
                Err(error) => Verdict::Rejected(error.into()),
            };
            match verdict {
                Verdict::Inserted => outcome.inserted += 1,
                Verdict::Duplicate => outcome.duplicates += 1,
                Verdict::Rejected(error) => {
                    work.dead_after(&error);
                    outcome.rejected.push(rejected(error));
                }
            }
        }
        work.recover(&mut outcome)?;
        work.check_chains()?;
        work.finish(&mut outcome)?;
        let Work {
            batch,
            slots,
            roots,
            ..
        } = work;
        self.engine.write(batch)?;
        for ((slot, fec), root) in roots.into_roots() {
            cache.store_root(slot, fec, root);
        }
        for (slot, w) in slots {
            if let Some(set) = w.data {
                cache.store(slot, ShredColumn::Data, set);
            }
            if let Some(set) = w.code {
                cache.store(slot, ShredColumn::Code, set);
            }
        }
        Ok(outcome)
    }
}

/// About the bytes a call's batch holds when every packet is stored: each payload (at most
/// its packet) with its row header and key, plus the metas and `index` rows of a few slots.
/// Reserved up front, so the batch is not regrown (and copied) as it fills; a batch larger
/// than the cap grows as it fills.
fn batch_estimate(inputs: &[&[u8]]) -> usize {
    const ROW_OVERHEAD: usize = 32;
    const METAS: usize = 64 * 1024;
    const CAP: usize = 64 * 1024 * 1024;
    inputs
        .iter()
        .map(|p| p.len().saturating_add(ROW_OVERHEAD))
        .fold(METAS, usize::saturating_add)
        .min(CAP)
}

pub(super) fn rejected(error: LedgerError) -> RejectedShred {
    let (slot, index) = match &error {
        LedgerError::Format(FormatError::InvalidShred { slot, index, .. }) => (*slot, *index),
        LedgerError::ShredRejected { slot, index, .. } => (Some(*slot), Some(*index)),
        _ => (None, None),
    };
    RejectedShred { slot, index, error }
}

/// Whether a stored payload is `shred`, ignoring the retransmitter signature of resigned
/// shreds (each relay signs anew; Agave's `is_shred_duplicate` ignores it too).
fn same_shred(stored: &[u8], shred: &ShredRef<'_>) -> bool {
    let new = shred.payload();
    let signed = match retransmitter_signature(shred) {
        Some(_) => new.len().saturating_sub(Signature::LEN),
        None => new.len(),
    };
    stored.len() == new.len() && stored.get(..signed) == new.get(..signed)
}

/// The `erasure_meta` a coding shred describes (`None` for a data shred).
fn erasure_shape(shred: &ShredRef<'_>) -> Option<ErasureMeta> {
    let index = shred.index().0;
    Some(ErasureMeta {
        fec_set_index: shred.fec_set_index(),
        // `parse` checked position ≤ index.
        first_coding_index: u64::from(index.checked_sub(u32::from(shred.position()?))?),
        first_received_coding_index: u64::from(index),
        num_data: u64::from(shred.num_data()?),
        num_coding: u64::from(shred.num_code()?),
    })
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

fn reject(slot: Slot, index: u32, defect: InsertDefect) -> Verdict {
    Verdict::Rejected(LedgerError::ShredRejected {
        slot,
        index: ShredIndex(index),
        defect,
    })
}

/// Data and coding indices share the per-slot bitmap's bound (32,768).
fn index_too_large(shred: &ShredRef<'_>) -> Option<Verdict> {
    let index = shred.index().0;
    (index >= ShredIndexSet::CAPACITY).then(|| {
        Verdict::Rejected(LedgerError::Format(FormatError::InvalidShred {
            slot: Some(shred.slot()),
            index: Some(shred.index()),
            defect: ShredDefect::IndexTooLarge(index),
        }))
    })
}

/// The `docs/on-disk-layout.md#inserting-shreds` checks of a new data shred against the slot's
/// meta.
fn check_data(
    meta: &SlotMeta,
    index: u32,
    last_in_slot: bool,
    parent: Slot,
) -> Option<InsertDefect> {
    let index = u64::from(index);
    if let Some(last_index) = meta.last_index {
        if index > last_index {
            return Some(InsertDefect::PastLastIndex { last_index });
        }
        if last_in_slot && index != last_index {
            return Some(InsertDefect::SecondLastInSlot { last_index });
        }
    }
    if last_in_slot && meta.received > index + 1 {
        return Some(InsertDefect::LastInSlotBelowReceived {
            received: meta.received,
        });
    }
    match meta.parent_slot {
        // After an UpdateParent the meta holds the marker's parent, which is at or below the
        // shred header's (`parent_info::ParentInfo::validate`): shreds keep the header's.
        Some(expected) if meta.replay_fec_set_index > 0 && parent >= expected => None,
        Some(expected) if expected != parent => Some(InsertDefect::ParentMismatch {
            expected,
            found: parent,
        }),
        _ => None,
    }
}

impl<E: KvEngine> Work<'_, '_, '_, E> {
    pub(super) fn add_data(&mut self, shred: &ShredRef<'_>, origin: Origin) -> Result<Verdict> {
        let (slot, index) = (shred.slot(), shred.index().0);
        let Some(parent) = shred.parent_slot() else {
            // `parse` guarantees a data shred's parent; kept as an error, not a panic.
            return Ok(Verdict::Rejected(LedgerError::Format(
                FormatError::InvalidShred {
                    slot: Some(slot),
                    index: Some(shred.index()),
                    defect: ShredDefect::WrongKind { expected: "data" },
                },
            )));
        };
        if let Some(defect) = shape_rules::check(shred, self.options.shape) {
            return Ok(reject(slot, index, defect));
        }
        let (engine, cache, now_ms) = (self.engine, self.cache, self.now_ms);
        let w = slot_work(&mut self.slots, engine, slot)?;
        if w.data.is_none() {
            w.data = Some(cache.load(engine, slot, ShredColumn::Data, w.meta.as_ref())?);
        }
        let present = w.data.get_or_insert_with(ShredIndexSet::new);
        if present.contains(index) {
            return self.occupied(shred);
        }
        if let Some(rejected) = index_too_large(shred) {
            return Ok(rejected);
        }
        let set_root = self
            .sets
            .load(engine, (slot, shred.fec_set_index()))?
            .merkle;
        let known = || {
            cache
                .root(slot, shred.fec_set_index())
                .or(set_root.and_then(|m| m.merkle_root))
        };
        let root = match self
            .roots
            .check(shred, &self.options, known, engine, present)?
        {
            Ok(root) => root,
            Err(e) => return self.refused(shred, e),
        };
        let meta = w.meta.get_or_insert_with(|| SlotMeta::new(slot, None));
        if let Some(defect) = check_data(meta, index, shred.last_in_slot(), parent) {
            return Ok(reject(slot, index, defect));
        }
        let (sets, inputs) = (&self.sets, self.inputs);
        let neighbour = |i| sets.payload(engine, inputs, slot, ShredKind::Data, i);
        let max_root = || parent_info::max_root(engine);
        let marker_parent =
            match parent_info::parent_update(shred, parent, meta, max_root, neighbour)? {
                ParentUpdate::Keep => None,
                ParentUpdate::Set(info) => Some(info),
                ParentUpdate::Conflict(defect) => {
                    // As Agave 4.4: the dead flag is written, the shred dropped, the call goes on.
                    self.dead.insert(slot);
                    return Ok(reject(slot, index, InsertDefect::ParentInfo(defect)));
                }
            };
        self.batch
            .put_bytes::<DataShred>((slot, shred.index()), shred.payload())?;
        self.roots.accept(shred, root);
        present.insert(index);
        w.new_data.push(index);
        w.dirty = true;
        w.stored_any = true;
        if meta.parent_slot.is_none() {
            meta.parent_slot = Some(parent);
            w.new_parent = parent != slot;
        }
        if let Some(info) = marker_parent {
            info.apply(meta);
        }
        if meta.first_shred_timestamp == 0 {
            meta.first_shred_timestamp = now_ms;
        }
        meta.received = meta.received.max(u64::from(index) + 1);
        if shred.last_in_slot() {
            meta.last_index = Some(u64::from(index));
        }
        if shred.data_complete() {
            meta.completed_data_indexes.insert(index);
        }
        self.sets.stored(engine, shred, origin, root)?;
        Ok(Verdict::Inserted)
    }

    fn add_code(&mut self, shred: &ShredRef<'_>, origin: Origin) -> Result<Verdict> {
        let (slot, index) = (shred.slot(), shred.index().0);
        if let Some(defect) = shape_rules::check(shred, self.options.shape) {
            return Ok(reject(slot, index, defect));
        }
        let (engine, cache) = (self.engine, self.cache);
        let w = slot_work(&mut self.slots, engine, slot)?;
        if w.code.is_none() {
            w.code = Some(cache.load(engine, slot, ShredColumn::Code, None)?);
        }
        if w.code.as_ref().is_some_and(|p| p.contains(index)) {
            return self.occupied(shred);
        }
        if let Some(rejected) = index_too_large(shred) {
            return Ok(rejected);
        }
        if w.data.is_none() {
            w.data = Some(cache.load(engine, slot, ShredColumn::Data, w.meta.as_ref())?);
        }
        let data_present = w.data.get_or_insert_with(ShredIndexSet::new);
        let key = (slot, shred.fec_set_index());
        let set = self.sets.load(engine, key)?;
        let set_root = set.merkle.and_then(|m| m.merkle_root);
        let known = || cache.root(slot, shred.fec_set_index()).or(set_root);
        let root = match self
            .roots
            .check(shred, &self.options, known, engine, data_present)?
        {
            Ok(root) => root,
            Err(e) => return self.refused(shred, e),
        };
        let Some(shape) = erasure_shape(shred) else {
            return Ok(Verdict::Rejected(LedgerError::Format(
                FormatError::InvalidShred {
                    slot: Some(slot),
                    index: Some(shred.index()),
                    defect: ShredDefect::WrongKind { expected: "code" },
                },
            )));
        };
        if let Some(refused) = self.check_erasure(shred, key, shape)? {
            return Ok(refused);
        }
        self.batch
            .put_bytes::<CodeShred>((slot, shred.index()), shred.payload())?;
        self.roots.accept(shred, root);
        if let Some(w) = self.slots.get_mut(&slot) {
            w.code.get_or_insert_with(ShredIndexSet::new).insert(index);
            w.stored_any = true;
        }
        self.sets.stored(engine, shred, origin, root)?;
        Ok(Verdict::Inserted)
    }

    /// Marks the slot of a refused shred dead as Agave 4.x does
    /// ([`InsertDefect::marks_dead_unless_full`]), under [`ShapeRules::Agave4`] only.
    pub(super) fn dead_after(&mut self, error: &LedgerError) {
        let LedgerError::ShredRejected { slot, defect, .. } = error else {
            return;
        };
        if self.options.shape != ShapeRules::Agave4 || !defect.marks_dead_unless_full() {
            return;
        }
        // Full as of this shred, counting the shreds of this call before it (`consumed` is
        // only advanced in `finish`); every refused shred's slot was loaded.
        let full = self.slots.get(slot).is_some_and(|w| {
            w.meta.as_ref().is_some_and(|meta| {
                let consumed = w.consumed_now().unwrap_or(meta.consumed);
                meta.last_index.is_some_and(|last| consumed > last)
            })
        });
        if !full {
            self.dead.insert(*slot);
        }
    }

    /// A shred at an occupied (slot, index, kind): a duplicate, and a duplicate-slot proof
    /// when its payload differs from the stored one. A proof must be the leader's: with a
    /// leader key, a differing shred whose signature fails is refused for that instead.
    fn occupied(&mut self, shred: &ShredRef<'_>) -> Result<Verdict> {
        let (slot, index) = (shred.slot(), shred.index().0);
        if self.dups.has_proof(self.engine, slot)? {
            return Ok(Verdict::Duplicate);
        }
        let stored = self
            .sets
            .payload(self.engine, self.inputs, slot, shred.kind(), index)?;
        let Some(stored) = stored.filter(|p| !same_shred(p, shred)) else {
            return Ok(Verdict::Duplicate);
        };
        if let LeaderCheck::Verify(leader) = self.options.leader
            && let Err(e) = verify_signature(shred, &leader)
        {
            return Ok(Verdict::Rejected(e.into()));
        }
        let why = DuplicateKind::SamePosition;
        self.dups
            .record(self.engine, slot, why, stored, shred.payload())?;
        Ok(Verdict::Duplicate)
    }

    /// A shred refused by the root or signature checks; a root conflict within a set is a
    /// duplicate-slot proof against the set's first stored shred.
    fn refused(&mut self, shred: &ShredRef<'_>, error: LedgerError) -> Result<Verdict> {
        let conflict = matches!(
            &error,
            LedgerError::ShredRejected {
                defect: InsertDefect::MerkleRootMismatch { .. },
                ..
            }
        );
        if conflict {
            let key = (shred.slot(), shred.fec_set_index());
            if let Some(first) = self.sets.load(self.engine, key)?.merkle {
                let (kind, index) = (
                    first.first_received_shred_kind,
                    first.first_received_shred_index,
                );
                self.prove(shred, kind, index, DuplicateKind::MerkleRootConflict)?;
            }
        }
        Ok(Verdict::Rejected(error))
    }

    /// Records a proof: the stored shred (`kind`, `index`) of `shred`'s slot against `shred`.
    /// Without the stored shred (purged) there is no proof.
    pub(super) fn prove(
        &mut self,
        shred: &ShredRef<'_>,
        kind: ShredKind,
        index: u32,
        why: DuplicateKind,
    ) -> Result<()> {
        let slot = shred.slot();
        if self.dups.has_proof(self.engine, slot)? {
            return Ok(());
        }
        if let Some(first) = self
            .sets
            .payload(self.engine, self.inputs, slot, kind, index)?
        {
            self.dups
                .record(self.engine, slot, why, first, shred.payload())?;
        }
        Ok(())
    }

    /// Advances `consumed`, finds completed data sets and full slots, chains parents and
    /// connected flags, and puts every changed meta into the batch.
    fn finish(&mut self, outcome: &mut InsertOutcome) -> Result<()> {
        for (&slot, w) in &mut self.slots {
            if w.new_data.is_empty() {
                continue;
            }
            let Some(consumed) = w.consumed_now() else {
                continue;
            };
            let (Some(meta), Some(present)) = (w.meta.as_mut(), w.data.as_ref()) else {
                continue;
            };
            meta.consumed = consumed;
            for (start, end) in newly_completed(present, &meta.completed_data_indexes, &w.new_data)
            {
                outcome
                    .completed_data_sets
                    .push(CompletedDataSet { slot, start, end });
            }
            if !w.was_full && meta.is_full() {
                outcome.slots_full.push(slot);
            }
        }
        chain::link_parents(&mut self.slots, self.engine)?;
        chain::propagate_connected(&mut self.slots, self.engine)?;
        for (&slot, w) in &mut self.slots {
            if let (true, Some(meta)) = (w.dirty, w.meta.as_ref()) {
                self.batch.put::<Meta>(slot, meta)?;
            }
            match w.orphan {
                Some(true) => self.batch.put::<Orphans>(slot, &true)?,
                Some(false) => self.batch.delete::<Orphans>(slot)?,
                None => {}
            }
            if w.stored_any {
                let (engine, cache) = (self.engine, self.cache);
                if w.data.is_none() {
                    w.data = Some(cache.load(engine, slot, ShredColumn::Data, w.meta.as_ref())?);
                }
                if w.code.is_none() {
                    w.code = Some(cache.load(engine, slot, ShredColumn::Code, None)?);
                }
                if let (Some(data), Some(code)) = (&w.data, &w.code) {
                    let row = SlotIndex::encode_sets(slot, data, code);
                    self.batch.put_bytes::<Index>(slot, &row)?;
                }
            }
        }
        for (&key, set) in &self.sets.sets {
            if let (true, Some(erasure)) = (set.erasure_new, set.erasure.as_ref()) {
                self.batch.put::<ErasureMetaColumn>(key, erasure)?;
            }
            if let (true, Some(merkle)) = (set.merkle_new, set.merkle.as_ref()) {
                self.batch.put::<MerkleRootMetaColumn>(key, merkle)?;
            }
        }
        let dups = std::mem::take(&mut self.dups);
        outcome.duplicate_slots = dups.write(&mut self.batch)?;
        for &slot in &self.dead {
            self.batch.put::<DeadSlots>(slot, &true)?;
        }
        outcome.slots_marked_dead = self.dead.iter().copied().collect();
        Ok(())
    }
}
