//! The calls whose signatures differ between Agave 4.2, 4.3 and 4.4, behind the `agave43`
//! cargo feature (on in interop/agave43 and interop/agave44, off in interop/agave) and the
//! `agave44` one (on in interop/agave44 only; it implies `agave43`). Everything else in the
//! tool builds unchanged against all three.
//!
//! - 4.3 dropped `insert_shreds`'s leader-schedule argument (4.2 took `None` here) and the
//!   same argument of `insert_shreds_handle_duplicate`.
//! - 4.3 dropped `purge_from_next_slots`; `purge_slots_cleanup_chaining` purges the range and
//!   removes the purged slots from their surviving parents' `next_slots` in one write batch.
//! - 4.4's `get_write_batch` cannot fail (it returned a `Result` before), and
//!   `Shredder::make_merkle_shreds_from_entries` returns a `Vec` instead of an iterator.

use std::borrow::Cow;

use solana_ledger::blockstore::{
    Blockstore, BlockstoreError, BlockstoreInsertionMetrics, CompletedDataSetInfo,
    PossibleDuplicateShred, PurgeType,
};
use solana_ledger::blockstore_meta::BlockLocation;
use solana_ledger::shred::Shred;
use solana_ledger::shred::filter::ShredRecoveryContext;

/// The Agave release the tool links, for its JSON output.
#[cfg(not(feature = "agave43"))]
pub const AGAVE_VERSION: &str = "4.2.2";
#[cfg(all(feature = "agave43", not(feature = "agave44")))]
pub const AGAVE_VERSION: &str = "4.3.2";
#[cfg(feature = "agave44")]
pub const AGAVE_VERSION: &str = "4.4.0";

type InsertResult = Result<Vec<CompletedDataSetInfo>, BlockstoreError>;

/// `Blockstore::insert_shreds` with `is_trusted = false` and no leader schedule.
pub fn insert_shreds(blockstore: &Blockstore, shreds: Vec<Shred>) -> InsertResult {
    #[cfg(not(feature = "agave43"))]
    let result = blockstore.insert_shreds(shreds, None, false);
    #[cfg(feature = "agave43")]
    let result = blockstore.insert_shreds(shreds, false);
    result
}

/// The window service's call: `insert_shreds_at_location_handle_duplicate` at the original
/// block location, not repaired, `is_trusted = false`, no leader schedule. On 4.3 the caller
/// also hands in a pinnable slice and a write batch to reuse; one of each per call here.
pub fn insert_handle_duplicate<F: Fn(PossibleDuplicateShred)>(
    blockstore: &Blockstore,
    shreds: Vec<Shred>,
    recovery: &mut ShredRecoveryContext,
    handle_duplicate: &F,
    metrics: &mut BlockstoreInsertionMetrics,
) -> InsertResult {
    let shreds = shreds.into_iter().map(|shred| {
        (
            Cow::Owned(shred),
            /*is_repaired:*/ false,
            BlockLocation::Original,
        )
    });
    #[cfg(not(feature = "agave43"))]
    let result = blockstore.insert_shreds_at_location_handle_duplicate(
        shreds,
        None,
        false,
        recovery,
        handle_duplicate,
        metrics,
    );
    #[cfg(feature = "agave43")]
    let result = {
        let mut pinned = blockstore.new_pinnable_slice();
        #[cfg(not(feature = "agave44"))]
        let mut batch = blockstore.get_write_batch()?;
        #[cfg(feature = "agave44")]
        let mut batch = blockstore.get_write_batch();
        blockstore.insert_shreds_at_location_handle_duplicate(
            shreds,
            false,
            recovery,
            &mut pinned,
            &mut batch,
            handle_duplicate,
            metrics,
        )
    };
    result
}

/// agave-ledger-tool's `purge START END` (inclusive) on this release.
pub fn purge(blockstore: &Blockstore, start: u64, end: u64) -> Result<(), BlockstoreError> {
    #[cfg(not(feature = "agave43"))]
    let result = {
        blockstore.purge_from_next_slots(start, end);
        blockstore.purge_slots(start, end, PurgeType::Exact)
    };
    #[cfg(feature = "agave43")]
    let result = blockstore.purge_slots_cleanup_chaining(start, end, PurgeType::Exact);
    result
}

/// What `Shredder::make_merkle_shreds_from_entries` made, as a `Vec`: 4.2 and 4.3 hand back
/// an iterator, 4.4 the `Vec` itself.
#[cfg(not(feature = "agave44"))]
pub fn shreds_vec(made: impl Iterator<Item = Shred>) -> Vec<Shred> {
    made.collect()
}
#[cfg(feature = "agave44")]
pub fn shreds_vec(made: Vec<Shred>) -> Vec<Shred> {
    made
}

/// Agave 4.4's replay read of a whole slot, `get_slot_entry_views_with_shred_info(slot, 0,
/// false)`: entries whose transactions are unsanitized views over the data sets' bytes
/// (block markers dropped). Returns the entry count. Agave 4.2 and 4.3 have no such read.
#[cfg(feature = "agave44")]
pub fn slot_entry_views(blockstore: &Blockstore, slot: u64) -> crate::error::Result<usize> {
    use crate::error::Context;
    let (entries, _, _) = blockstore
        .get_slot_entry_views_with_shred_info(slot, 0, false)
        .context(format!("Agave view fetch of slot {slot}"))?;
    Ok(entries.len())
}
#[cfg(not(feature = "agave44"))]
pub fn slot_entry_views(_blockstore: &Blockstore, _slot: u64) -> crate::error::Result<usize> {
    Err(crate::error::Error::new(
        "entry views (get_slot_entry_views_with_shred_info) exist from Agave 4.4 on",
    ))
}
