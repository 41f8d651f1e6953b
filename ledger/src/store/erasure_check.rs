//! The erasure-config check of a code shred against its FEC set
//! (`docs/on-disk-layout.md#duplicate-slot-proofs`): the shred must state the set's
//! `num_data` and `num_code`, and share a reading of the set's first code index with every
//! code shred the set holds (`FirstCodeIndex`: a legacy shred stating position 0 reads two
//! ways, because leaders of Solana 1.7 and early 1.8 did not write positions).
//!
//! Invariants: the set's readings are the intersection of the readings of its stored code
//! shreds, so they are never empty; a conflict is proven only with a stored shred of the set
//! that shares no reading with the new one (or states another shape), which no honest
//! leader of any version makes. Without such a shred at hand the new shred is refused
//! without a proof: a false proof is worse than none.

use super::agave_meta::ErasureMeta;
use super::columns::SetKey;
use super::duplicates::DuplicateKind;
use super::index_set::ShredIndexSet;
use super::insert::{Verdict, Work};
use super::kv::KvEngine;
use crate::defect::InsertDefect;
use crate::error::{LedgerError, Result};
use crate::shred::{FirstCodeIndex, ShredKind, ShredRef};
use crate::types::Slot;

/// The code indices `present` holds where the set's code shreds can be: `num_coding` from
/// the set's first code index when `readings` (the set's, if known) leave one, else from
/// both the set's index (positionless leaders) and the first stored shred's stated first code
/// index. Shreds of other sets may be among them; callers check `fec_set_index`.
pub(super) fn set_code_indices(
    present: &ShredIndexSet,
    erasure: &ErasureMeta,
    readings: Option<FirstCodeIndex>,
) -> Vec<u32> {
    let cap = u64::from(ShredIndexSet::CAPACITY);
    let span = |start: u64| {
        let end = start.saturating_add(erasure.num_coding).min(cap);
        (start.min(cap) as u32, end as u32)
    };
    if let Some(r) = readings.filter(|r| !r.is_ambiguous()) {
        let (start, end) = span(u64::from(r.stated()));
        return present.range(start, end).collect();
    }
    let (a, b) = (
        span(u64::from(erasure.fec_set_index)),
        span(erasure.first_coding_index),
    );
    let mut out: Vec<u32> = present.range(a.0, a.1).collect();
    out.extend(present.range(b.0, b.1).filter(|i| !(a.0..a.1).contains(i)));
    out
}

/// The readings of the set's first stored code shred when its `erasure_meta` alone tells:
/// a stated position other than 0 (`first_coding_index ≠ first_received_coding_index`), or
/// position 0 at the set's own index, leave one reading. Otherwise the shred is read.
fn certain_reading(known: &ErasureMeta) -> Option<FirstCodeIndex> {
    let stated = u32::try_from(known.first_coding_index).ok()?;
    let at_set_index = known.first_coding_index == u64::from(known.fec_set_index);
    let position_zero = known.first_coding_index == known.first_received_coding_index;
    (at_set_index || !position_zero).then(|| FirstCodeIndex::exactly(stated))
}

impl<E: KvEngine> Work<'_, '_, '_, E> {
    /// The erasure-config check of `shred`, a code shred of set `key` describing `shape`.
    /// The set's first code shred defines its `erasure_meta`; a later one that conflicts is
    /// refused (`Some(verdict)`) and, with a witness, proven duplicate. `None`: store it.
    pub(super) fn check_erasure(
        &mut self,
        shred: &ShredRef<'_>,
        key: SetKey,
        shape: ErasureMeta,
    ) -> Result<Option<Verdict>> {
        let Some(readings) = FirstCodeIndex::of(shred) else {
            return Ok(None);
        };
        let Some(known) = self.sets.load(self.engine, key)?.erasure else {
            let set = self.sets.load(self.engine, key)?;
            set.erasure = Some(shape);
            set.erasure_new = true;
            set.code_readings = Some(readings);
            return Ok(None);
        };
        let first = u32::try_from(known.first_received_coding_index).unwrap_or(u32::MAX);
        let same_shape = (known.num_data, known.num_coding) == (shape.num_data, shape.num_coding);
        if same_shape {
            let Some(set_readings) = self.set_readings(key, &known)? else {
                // The set's stored code shreds cannot be read: no evidence either way.
                return Ok(None);
            };
            if let Some(narrowed) = set_readings.narrow(&readings) {
                self.sets.load(self.engine, key)?.code_readings = Some(narrowed);
                return Ok(None);
            }
        }
        let witness = match same_shape {
            true => self.witness(key, &known, &readings)?,
            false => Some(first),
        };
        if let Some(witness) = witness {
            let why = DuplicateKind::ErasureConfigConflict;
            self.prove(shred, ShredKind::Code, witness, why)?;
        }
        Ok(Some(Verdict::Rejected(LedgerError::ShredRejected {
            slot: shred.slot(),
            index: shred.index(),
            defect: InsertDefect::ErasureConfigConflict {
                fec_set_index: key.1,
                num_data: known.num_data,
                num_coding: known.num_coding,
            },
        })))
    }

    /// The readings every stored code shred of the set admits, starting from the shred that
    /// made its `erasure_meta`; other stored shreds are read only while two readings remain.
    /// Cached for the call. `None` when the first shred cannot be read.
    fn set_readings(&mut self, key: SetKey, known: &ErasureMeta) -> Result<Option<FirstCodeIndex>> {
        if let Some(cached) = self.sets.load(self.engine, key)?.code_readings {
            return Ok(Some(cached));
        }
        let first = u32::try_from(known.first_received_coding_index).unwrap_or(u32::MAX);
        let from_meta = certain_reading(known);
        let Some(mut readings) =
            from_meta.map_or_else(|| self.stored_readings(key, first), |r| Ok(Some(r)))?
        else {
            return Ok(None);
        };
        if readings.is_ambiguous() {
            for index in self.held_code(key.0, known) {
                if index == first {
                    continue;
                }
                if let Some(narrowed) = self
                    .stored_readings(key, index)?
                    .and_then(|r| readings.narrow(&r))
                {
                    readings = narrowed;
                }
                if !readings.is_ambiguous() {
                    break;
                }
            }
        }
        self.sets.load(self.engine, key)?.code_readings = Some(readings);
        Ok(Some(readings))
    }

    /// A stored code shred of the set sharing no reading with `readings`: the first shred
    /// when it does not, else the first such other shred.
    fn witness(
        &mut self,
        key: SetKey,
        known: &ErasureMeta,
        readings: &FirstCodeIndex,
    ) -> Result<Option<u32>> {
        let first = u32::try_from(known.first_received_coding_index).unwrap_or(u32::MAX);
        let others = self
            .held_code(key.0, known)
            .into_iter()
            .filter(|&i| i != first);
        for index in std::iter::once(first).chain(others) {
            if let Some(stored) = self.stored_readings(key, index)?
                && !stored.agrees_with(readings)
            {
                return Ok(Some(index));
            }
        }
        Ok(None)
    }

    /// The readings of the stored code shred at `index` when it belongs to set `key`.
    fn stored_readings(&self, key: SetKey, index: u32) -> Result<Option<FirstCodeIndex>> {
        let (slot, fec) = key;
        let payload = self
            .sets
            .payload(self.engine, self.inputs, slot, ShredKind::Code, index)?;
        Ok(payload.and_then(|p| {
            let shred = ShredRef::parse(&p).ok()?;
            let ours = shred.slot() == slot && shred.fec_set_index() == fec;
            ours.then(|| FirstCodeIndex::of(&shred)).flatten()
        }))
    }

    /// The slot's stored code indices where the set's code shreds can be.
    fn held_code(&self, slot: Slot, known: &ErasureMeta) -> Vec<u32> {
        self.slots
            .get(&slot)
            .and_then(|w| w.code.as_ref())
            .map(|present| set_code_indices(present, known, None))
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_meta_tells_the_readings_unless_position_zero_away_from_the_set() {
        let meta = |first_coding_index, first_received_coding_index| ErasureMeta {
            fec_set_index: 64,
            first_coding_index,
            first_received_coding_index,
            num_data: 32,
            num_coding: 32,
        };
        assert_eq!(
            certain_reading(&meta(64, 70)),
            Some(FirstCodeIndex::exactly(64))
        );
        assert_eq!(
            certain_reading(&meta(64, 64)),
            Some(FirstCodeIndex::exactly(64))
        );
        assert_eq!(certain_reading(&meta(70, 70)), None);
    }

    #[test]
    fn code_indices_cover_both_readings_once() {
        let mut present = ShredIndexSet::new();
        for i in [60, 64, 70, 95, 96, 100, 127, 128] {
            present.insert(i);
        }
        let erasure = ErasureMeta {
            fec_set_index: 64,
            first_coding_index: 70,
            first_received_coding_index: 70,
            num_data: 32,
            num_coding: 32,
        };
        assert_eq!(
            set_code_indices(&present, &erasure, None),
            vec![64, 70, 95, 96, 100]
        );
        let known = Some(FirstCodeIndex::exactly(64));
        assert_eq!(
            set_code_indices(&present, &erasure, known),
            vec![64, 70, 95]
        );
    }
}
