//! The end of an insert call, before metas are finished
//! (`docs/on-disk-layout.md#recovery-on-insert`):
//!
//! 1. **Recovery**: every FEC set a stored shred of this call belongs to, whose shape is known
//!    (`erasure_meta`), that misses data shreds and holds at least `num_data` shreds of
//!    either kind, is rebuilt with [`recover_fec_set_with`] (which checks every present and
//!    recovered shred against the set's root, and the leader's signature when the caller
//!    named the leader). Recovered data shreds go through the same insert path as received
//!    ones, into the same batch; a set that cannot be rebuilt is reported and nothing of it
//!    is stored. Recovered coding shreds are not stored (as Agave).
//! 2. **Chained roots**: for each set this call gave a new `erasure_meta`, the next set must
//!    chain to its root; for each set given a new `merkle_root_meta`, its chained root must be
//!    the previous set's root. A mismatch is a duplicate-slot proof; the shreds stay stored.

use super::columns::{ErasureMetaColumn, SetKey};
use super::duplicates::DuplicateKind;
use super::erasure_check::set_code_indices;
use super::index_set::ShredIndexSet;
use super::insert::{InsertOutcome, Verdict, Work};
use super::kv::{Direction, KvEngine};
use super::presence::ShredColumn;
use super::sets::Origin;
use super::shape_rules::ShapeRules;
use super::{Column, ErasureMeta, LeaderCheck};
use crate::error::Result;
use crate::shred::{
    RecoverOptions, ShredKind, ShredRef, chained_merkle_root, merkle_root, recover_fec_set_with,
};
use crate::types::{Hash, Slot};

/// The set's indices in `range` that `present` holds (the range clamped to a slot's bound,
/// so a corrupt row cannot make this walk further).
fn held(present: &ShredIndexSet, range: std::ops::Range<u64>) -> Vec<u32> {
    let cap = u64::from(ShredIndexSet::CAPACITY);
    let (start, end) = (range.start.min(cap) as u32, range.end.min(cap) as u32);
    present.range(start, end).collect()
}

impl<E: KvEngine> Work<'_, '_, '_, E> {
    /// Step 1: rebuilds the missing data shreds of every recoverable set the call touched.
    pub(super) fn recover(&mut self, outcome: &mut InsertOutcome) -> Result<()> {
        let candidates: Vec<(SetKey, ErasureMeta)> = self
            .sets
            .sets
            .iter()
            .filter(|(_, set)| set.touched)
            .filter_map(|(&key, set)| Some((key, set.erasure?)))
            .collect();
        for ((slot, _), erasure) in candidates {
            let Some(payloads) = self.recoverable(slot, &erasure)? else {
                continue;
            };
            let shreds: Vec<ShredRef<'_>> = payloads
                .iter()
                .filter_map(|p| ShredRef::parse(p).ok())
                .collect();
            let options = RecoverOptions {
                leader: match self.options.leader {
                    LeaderCheck::Verify(leader) => Some(leader),
                    LeaderCheck::Skip => None,
                },
                ..RecoverOptions::default()
            };
            let rebuilt = match recover_fec_set_with(&shreds, &options) {
                Ok(rebuilt) => rebuilt,
                Err(e) => {
                    outcome.recovery_failed.push(e.into());
                    continue;
                }
            };
            for payload in &rebuilt.data {
                let verdict = match ShredRef::parse(payload) {
                    Ok(shred) => self.add_data(&shred, Origin::Recovered(payload.clone()))?,
                    Err(e) => Verdict::Rejected(e.into()),
                };
                match verdict {
                    Verdict::Inserted => outcome.recovered += 1,
                    Verdict::Duplicate => {}
                    Verdict::Rejected(e) => {
                        self.dead_after(&e);
                        outcome.rejected.push(super::insert::rejected(e));
                    }
                }
            }
        }
        Ok(())
    }

    /// The payloads of the set's stored shreds when it misses data shreds and holds enough
    /// to rebuild them (Agave's `should_recover_shreds`).
    fn recoverable(&mut self, slot: Slot, erasure: &ErasureMeta) -> Result<Option<Vec<Vec<u8>>>> {
        let (engine, cache) = (self.engine, self.cache);
        let readings = self.sets.sets.get(&(slot, erasure.fec_set_index));
        let readings = readings.and_then(|s| s.code_readings);
        let Some(w) = self.slots.get_mut(&slot) else {
            return Ok(None);
        };
        if w.code.is_none() {
            w.code = Some(cache.load(engine, slot, ShredColumn::Code, None)?);
        }
        if w.data.is_none() {
            w.data = Some(cache.load(engine, slot, ShredColumn::Data, w.meta.as_ref())?);
        }
        let (Some(data), Some(code)) = (w.data.as_ref(), w.code.as_ref()) else {
            return Ok(None);
        };
        let data = held(data, erasure.data_range());
        let code = set_code_indices(code, erasure, readings);
        let (have, need) = (data.len() as u64, erasure.num_data);
        if have >= need || have + (code.len() as u64) < need {
            return Ok(None);
        }
        let mut payloads = Vec::with_capacity(data.len() + code.len());
        for (kind, indices) in [(ShredKind::Data, data), (ShredKind::Code, code)] {
            for index in indices {
                if let Some(p) = self.sets.payload(engine, self.inputs, slot, kind, index)? {
                    payloads.push(p);
                }
            }
        }
        // The code indices looked at may hold another set's shreds (sets of leaders before
        // Solana 1.9 number code shreds like data shreds).
        payloads.retain(|p| {
            ShredRef::parse(p).is_ok_and(|s| s.fec_set_index() == erasure.fec_set_index)
        });
        Ok((payloads.len() as u64 >= need).then_some(payloads))
    }

    /// Step 2: chained Merkle root checks on the sets this call created rows for.
    pub(super) fn check_chains(&mut self) -> Result<()> {
        let new_sets: Vec<(SetKey, Option<ErasureMeta>, bool)> = self
            .sets
            .sets
            .iter()
            .map(|(&key, set)| (key, set.erasure.filter(|_| set.erasure_new), set.merkle_new))
            .collect();
        for ((slot, fec), new_erasure, new_merkle) in new_sets {
            let settled = match self.options.shape {
                ShapeRules::Agave4 => self.dead.contains(&slot),
                ShapeRules::Legacy => self.dups.has_proof(self.engine, slot)?,
            };
            if settled {
                continue;
            }
            if let Some(erasure) = new_erasure {
                self.check_forward(slot, &erasure)?;
            }
            if new_merkle && fec != 0 {
                self.check_backward(slot, fec)?;
            }
        }
        Ok(())
    }

    /// The next set (`fec + num_data`), when known, must chain to this set's root.
    fn check_forward(&mut self, slot: Slot, erasure: &ErasureMeta) -> Result<()> {
        let Some(next) = erasure.next_fec_set_index() else {
            return Ok(());
        };
        let first_code = u32::try_from(erasure.first_received_coding_index).unwrap_or(u32::MAX);
        let Some(next_meta) = self.sets.load(self.engine, (slot, next))?.merkle else {
            return Ok(());
        };
        let (next_kind, next_index) = (
            next_meta.first_received_shred_kind,
            next_meta.first_received_shred_index,
        );
        self.compare_chain(slot, (ShredKind::Code, first_code), (next_kind, next_index))
    }

    /// This set's first stored shred must chain to the previous set's root; the previous set
    /// is the one whose `erasure_meta` ends at `fec`.
    fn check_backward(&mut self, slot: Slot, fec: u32) -> Result<()> {
        let Some(first) = self.sets.sets.get(&(slot, fec)).and_then(|s| s.merkle) else {
            return Ok(());
        };
        let Some(prev) = self.previous_set(slot, fec)? else {
            return Ok(());
        };
        let prev_code = u32::try_from(prev.first_received_coding_index).unwrap_or(u32::MAX);
        let this = (
            first.first_received_shred_kind,
            first.first_received_shred_index,
        );
        self.compare_chain(slot, (ShredKind::Code, prev_code), this)
    }

    /// The `erasure_meta` of the set ending at `fec`: this call's, else the stored row just
    /// below `(slot, fec)`.
    fn previous_set(&self, slot: Slot, fec: u32) -> Result<Option<ErasureMeta>> {
        let local = self
            .sets
            .sets
            .range((slot, 0)..(slot, fec))
            .filter_map(|(_, s)| s.erasure)
            .find(|e| e.next_fec_set_index() == Some(fec));
        if local.is_some() {
            return Ok(local);
        }
        let lower = ErasureMetaColumn::encode_key((slot, 0));
        let upper = ErasureMetaColumn::encode_key((slot, fec));
        let mut rows = self.engine.range::<ErasureMetaColumn, _>(
            lower,
            Some(upper),
            Direction::Reverse,
            |k, v| {
                let key = ErasureMetaColumn::decode_key(k)?;
                ErasureMetaColumn::decode_value(key, v)
            },
        );
        Ok(match rows.next().transpose()? {
            Some(prev) if prev.next_fec_set_index() == Some(fec) => Some(prev),
            _ => None,
        })
    }

    /// Proof when `later`'s chained root is not `earlier`'s root (both stored shreds of
    /// `slot`; a shred missing or without roots is no evidence).
    fn compare_chain(
        &mut self,
        slot: Slot,
        earlier: (ShredKind, u32),
        later: (ShredKind, u32),
    ) -> Result<()> {
        let (engine, sets, inputs) = (self.engine, &self.sets, self.inputs);
        let (Some(a), Some(b)) = (
            sets.payload(engine, inputs, slot, earlier.0, earlier.1)?,
            sets.payload(engine, inputs, slot, later.0, later.1)?,
        ) else {
            return Ok(());
        };
        let (Ok(sa), Ok(sb)) = (ShredRef::parse(&a), ShredRef::parse(&b)) else {
            return Ok(());
        };
        let root: Option<Hash> = merkle_root(&sa).ok().filter(|_| sa.proof_size().is_some());
        match chained_merkle_root(&sb) {
            // Agave 4.x stores no proof for a chained-root conflict: it marks the slot dead
            // (`handle_duplicate_shred`, outside Alpenglow). Before 4.x it stored the pair.
            Some(chained) if Some(chained) != root => match self.options.shape {
                ShapeRules::Agave4 => {
                    self.dead.insert(slot);
                    Ok(())
                }
                ShapeRules::Legacy => self.dups.record(
                    engine,
                    slot,
                    DuplicateKind::ChainedMerkleRootConflict,
                    a.clone(),
                    &b,
                ),
            },
            _ => Ok(()),
        }
    }
}
