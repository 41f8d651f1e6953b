//! The FEC-set shape rules of Agave 4.x (`docs/on-disk-layout.md#shape-rules-of-agave-4x`),
//! enforced by insert without a feature gate unless the caller asks for [`ShapeRules::Legacy`].
//!
//! Agave 4.x applies them where shreds enter the validator (its shred filter, before the
//! blockstore, also to shreds recovered by erasure coding): a shred that breaks one is
//! dropped, not stored and not taken as duplicate evidence. Its blockstore insert itself does
//! not re-check them, which is how a ledger written by an older validator still holds its
//! old slots. bstore's insert is both the ingest and the store, so it checks them here,
//! before any other rule (a misshaped shred never reaches the duplicate checks, as in Agave):
//!
//! - the variant is one Agave 4.x parses: chained Merkle (`0x6_`, `0x7_`, `0x9_`, `0xB_`);
//!   legacy and unchained Merkle shreds no longer exist for it;
//! - fixed 32:32 sets: `fec_set_index` a multiple of 32 and `fec_set_index ≤ index <
//!   fec_set_index + 32` (data and coding alike); a coding shred says 32 data and 32 coding;
//! - DATA_COMPLETE only on a set's last data shred (`index = fec_set_index + 31`);
//! - LAST_IN_SLOT only where `index + 1` is a multiple of 32 (the last set is full);
//! - a Merkle proof of 6 entries: a fixed 32:32 set has 64 leaves (Agave 4.4's
//!   `enforce_correct_proof_size`, SIMD-0317; any proof size of a 4.x shredder's shreds).

use crate::defect::InsertDefect;
use crate::shred::{ShredRef, ShredVariant};

/// Data (and coding) shreds of a fixed FEC set.
pub(super) const FIXED_SET_SHREDS: u32 = 32;

/// Merkle proof entries of a fixed 32:32 set (64 leaves).
pub(super) const FIXED_SET_PROOF_SIZE: u8 = 6;

/// Which shred shapes insert accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ShapeRules {
    /// Agave 4.x's rules (see the module docs): what a 4.x cluster produces.
    #[default]
    Agave4,
    /// No shape rule: importing slots written by pre-4.x validators (legacy and unchained
    /// Merkle shreds, sets of other sizes, DATA_COMPLETE at every entry batch's end). The
    /// meta, Merkle and signature rules still apply.
    Legacy,
}

/// Why `shred` breaks the Agave 4.x shape rules, `None` when it passes (or when `rules` is
/// `Legacy`).
pub(super) fn check(shred: &ShredRef<'_>, rules: ShapeRules) -> Option<InsertDefect> {
    if rules == ShapeRules::Legacy {
        return None;
    }
    let chained = match shred.variant() {
        ShredVariant::MerkleData { chained, .. } | ShredVariant::MerkleCode { chained, .. } => {
            chained
        }
        ShredVariant::LegacyData | ShredVariant::LegacyCode => false,
    };
    if !chained {
        return Some(InsertDefect::VariantRetired {
            variant: shred.variant().to_byte(),
        });
    }
    if let Some(proof_size) = shred.proof_size()
        && proof_size != FIXED_SET_PROOF_SIZE
    {
        return Some(InsertDefect::ProofSizeNotFixed { proof_size });
    }
    let (index, fec) = (shred.index().0, shred.fec_set_index());
    let in_set = fec
        .checked_add(FIXED_SET_SHREDS)
        .is_some_and(|end| fec % FIXED_SET_SHREDS == 0 && fec <= index && index < end);
    if !in_set {
        return Some(InsertDefect::SetNotFixed { fec_set_index: fec });
    }
    if let (Some(num_data), Some(num_code)) = (shred.num_data(), shred.num_code()) {
        let fixed =
            u32::from(num_data) == FIXED_SET_SHREDS && u32::from(num_code) == FIXED_SET_SHREDS;
        if !fixed {
            return Some(InsertDefect::ErasureConfigNotFixed { num_data, num_code });
        }
    }
    let set_end = index % FIXED_SET_SHREDS == FIXED_SET_SHREDS - 1;
    // LAST_IN_SLOT includes the DATA_COMPLETE bit: name the stricter rule first.
    if shred.last_in_slot() && !set_end {
        return Some(InsertDefect::LastInSlotInsideSet);
    }
    if shred.data_complete() && !set_end {
        return Some(InsertDefect::DataCompleteInsideSet { fec_set_index: fec });
    }
    None
}

#[cfg(test)]
#[path = "shape_rules_tests.rs"]
mod tests;
