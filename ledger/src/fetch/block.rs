//! Where a block starts and what its hashes are, by Agave 4.4's rules, in one place for
//! every block reader (RPC `getBlock` and `getTransaction`, `FetchedBlock`, the archive's
//! block records):
//!
//! - a block's data sets start at its slot's `replay_fec_set_index` (0 unless an
//!   UpdateParent marker moved the block to a new parent: what precedes it is not part of
//!   the block);
//! - its blockhash is the last entry of its last entry batch, block markers skipped;
//! - its previous blockhash is the parent's blockhash read the same way from the parent's
//!   own `replay_fec_set_index`, and only when the parent is full and not dead.

use crate::error::{LedgerError, Result};
use crate::fetch::block_state::{ParentState, read_parent};
use crate::fetch::store_fetch::ranges_of;
use crate::fetch::{AllowDead, FetchBuffer, SlotViews, ViewFetch};
use crate::store::{Blockstore, KvEngine, SlotMeta};
use crate::types::{Hash, Slot};

/// The first shred index of the block stored for `meta`'s slot.
pub fn block_start(meta: &SlotMeta) -> u32 {
    meta.replay_fec_set_index
}

impl SlotViews<'_> {
    /// The block's blockhash: the last entry of the last data set holding entries (markers
    /// and empty batches skipped); `None` without any entry.
    pub fn blockhash(&self) -> Option<Hash> {
        self.sets
            .iter()
            .rev()
            .filter(|set| set.marker.is_none())
            .find_map(|set| set.entries.get(set.entries.len().checked_sub(1)?))
            .map(|entry| entry.hash())
    }
}

/// The previous blockhash of a block whose parent is `parent`: the parent's blockhash when
/// the parent is stored, full and not dead; `None` otherwise. Reads the parent's completed
/// data sets from its last one backwards until one holds an entry (one read for a block
/// that ends in entries, as every block does), unless a whole read of the parent left its
/// blockhash in the transaction memo under the parent's present key (`store/tx_memo.rs`:
/// the same start, data sets and first-shred time; a reader of consecutive blocks reads
/// each block once). A parent whose data cannot be read
/// (a bad or missing shred, an aborted block) gives `None`, as Agave gives no previous
/// blockhash for a parent it cannot read; only the store's own failures are errors.
pub fn parent_blockhash<E: KvEngine>(
    store: &Blockstore<E>,
    parent: Option<Slot>,
    buf: &mut FetchBuffer,
) -> Result<Option<Hash>> {
    Ok(parent_blockhash_and_state(store, parent, buf)?.0)
}

/// [`parent_blockhash`] and the [`ParentState`] it found, read before the parent's shreds
/// (so a later change shows as another state, never as the same state with other data).
pub fn parent_blockhash_and_state<E: KvEngine>(
    store: &Blockstore<E>,
    parent: Option<Slot>,
    buf: &mut FetchBuffer,
) -> Result<(Option<Hash>, ParentState)> {
    let (state, meta) = read_parent(store, parent)?;
    let (Some(parent), Some(meta)) = (parent, meta) else {
        return Ok((None, state));
    };
    if !meta.is_full() || matches!(state, ParentState::Stored { dead: true, .. }) {
        return Ok((None, state));
    }
    let start = block_start(&meta);
    let ranges = ranges_of(&meta, start);
    if let Some(hash) = store.remembered_blockhash(parent, &meta, start, &ranges) {
        return Ok((Some(hash), state));
    }
    for range in ranges.into_iter().rev() {
        let views = match store.fetch_data_block_views(parent, range, buf) {
            Ok(views) => views,
            Err(
                LedgerError::Format(_)
                | LedgerError::MissingShred { .. }
                | LedgerError::InvalidShredData { .. }
                | LedgerError::BlockAborted { .. }
                | LedgerError::DeadSlot { .. },
            ) => return Ok((None, state)),
            Err(e) => return Err(e),
        };
        if let Some(hash) = views.blockhash() {
            return Ok((Some(hash), state));
        }
    }
    Ok((None, state))
}

/// A stored block's data sets, from its start (see [`block_start`]).
pub fn fetch_block_views<'b, E: KvEngine>(
    store: &Blockstore<E>,
    slot: Slot,
    meta: &SlotMeta,
    buf: &'b mut FetchBuffer,
) -> Result<SlotViews<'b>> {
    store.fetch_slot_views(slot, block_start(meta), AllowDead::No, buf)
}
