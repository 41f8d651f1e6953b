//! Datapoints of the insert stage that feeds replay (`docs/metrics.md#insert`): an
//! [`InsertTally`] sums insert calls (a slot's, or an ingest batch's) into one
//! `blockstore-insert` point, plus one `blockstore-duplicate-slot` point per slot found
//! duplicate (tag `kind`, [`DuplicateKind::name`](bstore_ledger::store::DuplicateKind::name)).

use bstore_ledger::store::{DuplicateSlot, InsertOutcome};
use bstore_metrics::{DataPoint, create_datapoint};

/// The measurement name of summed insert counts.
pub const BLOCKSTORE_INSERT: &str = "blockstore-insert";
/// The measurement name of a slot with a new duplicate-slot proof.
pub const BLOCKSTORE_DUPLICATE_SLOT: &str = "blockstore-duplicate-slot";

/// Counts of insert calls, summed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InsertTally {
    /// Insert calls added.
    pub calls: u64,
    /// Shreds newly stored, recovered ones not counted.
    pub inserted: u64,
    /// Shreds already stored and ignored.
    pub duplicates: u64,
    /// Shreds refused: bad bytes or contradicting their slot's meta.
    pub rejected: u64,
    /// Data shreds rebuilt by erasure recovery and stored.
    pub recovered: u64,
    /// FEC sets whose recovery was attempted and refused.
    pub recovery_failed: u64,
    /// Data sets that became complete.
    pub completed_data_sets: u64,
    /// Every duplicate-slot proof the calls stored, in call order.
    pub duplicate_slots: Vec<DuplicateSlot>,
}

impl InsertTally {
    /// Adds one call's outcome.
    pub fn add(&mut self, outcome: &InsertOutcome) {
        self.calls += 1;
        self.inserted += outcome.inserted as u64;
        self.duplicates += outcome.duplicates as u64;
        self.rejected += outcome.rejected.len() as u64;
        self.recovered += outcome.recovered as u64;
        self.recovery_failed += outcome.recovery_failed.len() as u64;
        self.completed_data_sets += outcome.completed_data_sets.len() as u64;
        self.duplicate_slots
            .extend(outcome.duplicate_slots.iter().copied());
    }

    /// The points of the tally; empty when no call was added.
    pub fn datapoints(&self) -> Vec<DataPoint> {
        if self.calls == 0 {
            return Vec::new();
        }
        let mut points = vec![create_datapoint!(
            @point BLOCKSTORE_INSERT,
            ("num_calls", self.calls, i64),
            ("num_inserted", self.inserted, i64),
            ("num_duplicates", self.duplicates, i64),
            ("num_rejected", self.rejected, i64),
            ("num_recovered", self.recovered, i64),
            ("num_recovery_failed", self.recovery_failed, i64),
            ("num_duplicate_slots", self.duplicate_slots.len(), i64),
            ("num_completed_data_sets", self.completed_data_sets, i64),
        )];
        for dup in &self.duplicate_slots {
            points.push(create_datapoint!(
                @point BLOCKSTORE_DUPLICATE_SLOT,
                "kind" => dup.kind.name(),
                ("slot", dup.slot.0, i64),
            ));
        }
        points
    }
}

#[cfg(test)]
mod tests {
    use bstore_ledger::Slot;
    use bstore_ledger::store::DuplicateKind;
    use bstore_metrics::FieldValue;

    use super::*;

    #[test]
    fn calls_are_summed_and_duplicates_tagged() {
        let mut tally = InsertTally::default();
        assert!(tally.datapoints().is_empty());
        let outcome = InsertOutcome {
            inserted: 3,
            recovered: 2,
            duplicate_slots: vec![DuplicateSlot {
                slot: Slot(7),
                kind: DuplicateKind::MerkleRootConflict,
            }],
            ..InsertOutcome::default()
        };
        tally.add(&outcome);
        tally.add(&InsertOutcome {
            inserted: 1,
            ..InsertOutcome::default()
        });
        let points = tally.datapoints();
        assert_eq!(points.len(), 2);
        assert_eq!(points[0].field("num_inserted"), Some(&FieldValue::I64(4)));
        assert_eq!(points[0].field("num_recovered"), Some(&FieldValue::I64(2)));
        assert_eq!(points[0].field("num_calls"), Some(&FieldValue::I64(2)));
        assert_eq!(points[1].tag("kind"), Some("merkle_root_conflict"));
        assert_eq!(points[1].field("slot"), Some(&FieldValue::I64(7)));
    }
}
