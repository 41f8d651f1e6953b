//! `Blockstore::insert_shreds` (`docs/on-disk-layout.md#inserting-shreds`): validate, store, and
//! update each slot's meta,
//! all in one atomic RocksDB write batch per call.
//!
//! Writers: calls are serialised by the blockstore's writer mutex (a second inserting thread
//! waits); readers never wait. The presence cache (see `presence.rs`) is updated only after
//! the batch committed.

mod add;
mod finish;
mod proofs;

use std::collections::{BTreeMap, BTreeSet};
use std::time::{SystemTime, UNIX_EPOCH};

use super::blockstore::Blockstore;
use super::checks::{InsertOptions, SetRoots};
use super::duplicates::{CallDuplicates, DuplicateSlot};
use super::kv::KvEngine;
use super::presence::{PresenceCache, ShredColumn};
use super::sets::{CallSets, Origin};
use super::slot_work::SlotWork;
use super::typed::{Engine, RowBatch};
use crate::FormatError;
use crate::error::{LedgerError, Result};
use crate::shred::ShredRef;
use crate::types::{ShredIndex, Slot};

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

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}
