//! Duplicate-slot proofs (`docs/on-disk-layout.md#duplicate-slot-proofs`): two shreds of one
//! slot that a leader cannot both have made for one block. Insert keeps the first shred,
//! stores one proof per slot in `duplicate_slots` (Agave's layout, the stored shred first)
//! and reports the slot once, when its proof is new.
//!
//! What counts, as in Agave: a different payload at an occupied (slot, index, kind); a
//! Merkle root unlike the one of the set's first stored shred; a coding header unlike the
//! set's `erasure_meta`; a set whose chained root is not the previous set's root (or whose
//! root is not what the next set chains to).

use std::collections::BTreeMap;
use std::fmt;

use super::agave_meta::DuplicateSlotProof;
use super::columns::DuplicateSlots;
use super::kv::KvEngine;
use super::typed::{Engine, RowBatch};
use crate::error::Result;
use crate::types::Slot;

/// What made a slot duplicate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DuplicateKind {
    /// Two different payloads for the same (slot, index, kind).
    SamePosition,
    /// Two Merkle roots in one FEC set.
    MerkleRootConflict,
    /// Two coding headers (shape) in one FEC set.
    ErasureConfigConflict,
    /// A set's chained Merkle root is not the root of the set before it.
    ChainedMerkleRootConflict,
}

impl DuplicateKind {
    /// A stable snake_case name (metrics tags, CLI output).
    pub fn name(&self) -> &'static str {
        match self {
            Self::SamePosition => "same_position",
            Self::MerkleRootConflict => "merkle_root_conflict",
            Self::ErasureConfigConflict => "erasure_config_conflict",
            Self::ChainedMerkleRootConflict => "chained_merkle_root_conflict",
        }
    }
}

impl fmt::Display for DuplicateKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A slot an insert call found duplicate and stored a proof for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DuplicateSlot {
    /// The slot with two conflicting shreds.
    pub slot: Slot,
    /// Which conflict the two shreds show.
    pub kind: DuplicateKind,
}

/// Proofs found by one call, at most one per slot, and which slots already had one.
#[derive(Debug, Default)]
pub(super) struct CallDuplicates {
    found: BTreeMap<Slot, (DuplicateKind, DuplicateSlotProof)>,
    stored: BTreeMap<Slot, bool>,
}

impl CallDuplicates {
    /// Whether the slot has a proof (stored before, or found by this call).
    pub(super) fn has_proof<E: KvEngine>(
        &mut self,
        engine: &Engine<E>,
        slot: Slot,
    ) -> Result<bool> {
        if self.found.contains_key(&slot) {
            return Ok(true);
        }
        if let Some(&known) = self.stored.get(&slot) {
            return Ok(known);
        }
        let known = engine.get_pinned::<DuplicateSlots>(slot)?.is_some();
        self.stored.insert(slot, known);
        Ok(known)
    }

    /// Records a proof unless the slot has one. `first` is the shred stored earlier.
    pub(super) fn record<E: KvEngine>(
        &mut self,
        engine: &Engine<E>,
        slot: Slot,
        kind: DuplicateKind,
        first: Vec<u8>,
        second: &[u8],
    ) -> Result<()> {
        if !self.has_proof(engine, slot)? {
            let proof = DuplicateSlotProof {
                shred1: first,
                shred2: second.to_vec(),
            };
            self.found.insert(slot, (kind, proof));
        }
        Ok(())
    }

    /// Puts the new proofs into the batch and returns the slots, ascending.
    pub(super) fn write<E: KvEngine>(
        self,
        batch: &mut RowBatch<'_, E>,
    ) -> Result<Vec<DuplicateSlot>> {
        let mut out = Vec::with_capacity(self.found.len());
        for (slot, (kind, proof)) in self.found {
            batch.put::<DuplicateSlots>(slot, &proof)?;
            out.push(DuplicateSlot { slot, kind });
        }
        Ok(out)
    }
}
