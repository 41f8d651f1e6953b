//! The column-family set of an Agave 4.x ledger (`docs/on-disk-layout.md#column-families`),
//! and the retired families an older ledger may still carry.
//!
//! RocksDB opens a database read-write only when every family on disk is named, so an open
//! names the families below that exist plus every one of [`AGAVE4`] (created empty when
//! missing); read-only and secondary opens name what exists.

use super::alt_columns::{
    AltDataShred, AltIndex, AltMerkleRootMeta, AltMeta, DoubleMerkleMetaColumn,
};
use super::column::Column;
use super::columns;

/// Every column family Agave 4.2 / 4.4 opens, in Agave's order. A new ledger gets all of
/// them (bstore's [`columns::ALL`] plus [`columns::AGAVE_OTHER_COLUMNS`]).
pub const AGAVE4: [&str; 24] = [
    columns::Meta::NAME,
    columns::DeadSlots::NAME,
    columns::DuplicateSlots::NAME,
    columns::ErasureMetaColumn::NAME,
    columns::Orphans::NAME,
    "bank_hashes",
    columns::Root::NAME,
    columns::Index::NAME,
    columns::DataShred::NAME,
    columns::CodeShred::NAME,
    columns::TRANSACTION_STATUS,
    columns::ADDRESS_SIGNATURES,
    columns::TRANSACTION_MEMOS,
    columns::REWARDS,
    columns::BlockTime::NAME,
    "perf_samples",
    columns::BlockHeight::NAME,
    "optimistic_slots",
    columns::MerkleRootMetaColumn::NAME,
    AltMeta::NAME,
    AltIndex::NAME,
    AltDataShred::NAME,
    AltMerkleRootMeta::NAME,
    DoubleMerkleMetaColumn::NAME,
];

/// Families older Agave versions kept and Agave 4.x drops when it opens a ledger
/// read-write: `transaction_status_index` (the primary-index rotation of ≤ 1.x history,
/// unused since 2.x) and `program_costs` (≤ 2.x). bstore opens and keeps them when present
/// (never drops a family: that is Agave's decision to make), never creates them.
pub const RETIRED: [&str; 2] = ["transaction_status_index", "program_costs"];

/// RocksDB's own family, always present.
pub const DEFAULT: &str = "default";

/// Whether `name` is a family bstore knows: Agave 4.x's, a retired one, or `default`.
pub fn is_known(name: &str) -> bool {
    AGAVE4.contains(&name) || RETIRED.contains(&name) || name == DEFAULT
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    #[test]
    fn bstore_declares_exactly_agave_4x_set() {
        let declared: BTreeSet<&str> = columns::ALL
            .iter()
            .map(|(n, _)| *n)
            .chain(columns::AGAVE_OTHER_COLUMNS)
            .collect();
        let agave: BTreeSet<&str> = AGAVE4.into_iter().collect();
        assert_eq!(declared, agave);
        assert_eq!(
            declared.len(),
            columns::ALL.len() + columns::AGAVE_OTHER_COLUMNS.len()
        );
        assert!(!declared.contains("transaction_status_index"));
        assert!(RETIRED.iter().all(|r| is_known(r) && !agave.contains(r)));
        assert!(!is_known("future_column"));
    }
}

#[cfg(all(test, feature = "storage"))]
#[path = "families_rocks_tests.rs"]
mod rocks_tests;
