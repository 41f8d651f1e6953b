//! Refused and repeated shreds: dead-slot marking after a refusal, duplicates, and the
//! duplicate-slot proofs they make.

use super::{Verdict, Work};
use crate::defect::InsertDefect;
use crate::error::{LedgerError, Result};
use crate::shred::{ShredKind, ShredRef, retransmitter_signature, verify_signature};
use crate::store::checks::LeaderCheck;
use crate::store::duplicates::DuplicateKind;
use crate::store::kv::KvEngine;
use crate::store::shape_rules::ShapeRules;
use crate::types::Signature;

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

impl<E: KvEngine> Work<'_, '_, '_, E> {
    /// Marks the slot of a refused shred dead as Agave 4.x does
    /// ([`InsertDefect::marks_dead_unless_full`]), under [`ShapeRules::Agave4`] only.
    pub(in crate::store) fn dead_after(&mut self, error: &LedgerError) {
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
    pub(super) fn occupied(&mut self, shred: &ShredRef<'_>) -> Result<Verdict> {
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
    pub(super) fn refused(&mut self, shred: &ShredRef<'_>, error: LedgerError) -> Result<Verdict> {
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
    pub(in crate::store) fn prove(
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
}
