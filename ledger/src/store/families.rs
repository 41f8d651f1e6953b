//! The column-family set of an Agave 4.x ledger (`docs/on-disk-layout.md#column-families`),
//! and the retired families an older ledger may still carry.
//!
//! RocksDB opens a database read-write only when every family on disk is named, so an open
//! names the families below that exist plus every one of [`AGAVE4`] (created empty when
//! missing); read-only and secondary opens name what exists.

use super::column::Family;
use super::columns::FAMILIES;

const fn names<const N: usize>(families: [Family; N]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = families[i].name;
        i += 1;
    }
    out
}

/// Every column family Agave 4.2 / 4.4 opens, in Agave's order: the names of
/// [`FAMILIES`]. A new ledger gets all of them.
pub const AGAVE4: [&str; FAMILIES.len()] = names(FAMILIES);

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

    use super::super::columns;
    use super::*;

    #[test]
    fn bstore_declares_exactly_agave_4x_set() {
        let declared: BTreeSet<&str> = AGAVE4.into_iter().collect();
        // Agave 4.x's `Rocks::columns()`, copied by name from its source as the record the
        // declaration must keep.
        let agave = [
            "erasure_meta",
            "dead_slots",
            "duplicate_slots",
            "index",
            "orphans",
            "bank_hashes",
            "root",
            "meta",
            "data_shred",
            "code_shred",
            "transaction_status",
            "address_signatures",
            "transaction_memos",
            "rewards",
            "blocktime",
            "perf_samples",
            "block_height",
            "optimistic_slots",
            "merkle_root_meta",
            "alt_meta",
            "alt_index",
            "alt_data_shred",
            "alt_merkle_root_meta",
            "double_merkle_meta",
        ];
        assert_eq!(AGAVE4, agave);
        assert_eq!(declared.len(), AGAVE4.len(), "every family declared once");
        assert!(!declared.contains("transaction_status_index"));
        assert!(RETIRED.iter().all(|r| is_known(r) && !declared.contains(r)));
        assert!(!is_known("future_column"));
        // What a range purge reaches: every family but the three keyed by signature or
        // address, which the purge finds through the slots' transactions.
        let by_range: BTreeSet<&str> = columns::slot_keyed().collect();
        let others: BTreeSet<&str> = declared.difference(&by_range).copied().collect();
        assert_eq!(
            others,
            BTreeSet::from([
                "transaction_status",
                "address_signatures",
                "transaction_memos"
            ])
        );
    }
}

#[cfg(all(test, feature = "storage"))]
#[path = "families_rocks_tests.rs"]
mod rocks_tests;
