//! One way to read a stored block, for every reader of blocks: RPC `getBlock` and
//! `FetchedBlock`, the archive's block records (`Blockstore::block_record`), and
//! `getTransaction`'s one transaction ([`BlockReader::block_transaction`], which reads the
//! block only as far as the transaction). reth's
//! `BlockReader` is the model: a trait over the store that answers with the block's frame
//! and views, and its history rows on request.
//!
//! The rules (Agave 4.4's `get_complete_block`, `fetch/block.rs` for the frame):
//! - a slot without a meta, not full, or without any entry is no block: `Ok(None)`; a slot
//!   this process purged (before or during the read) is `SlotCleanedUp`; a dead slot is
//!   `DeadSlot`;
//! - the previous blockhash is the parent's blockhash when the parent is stored, full, not
//!   dead and readable; a parent that cannot be read for any reason but a failure of the
//!   store itself (its meta or rows do not decode, it vanished) gives none, as Agave's
//!   `build_versioned_confirmed_block` ignores every error reading the parent;
//! - a caller that has already read the meta and checked the dead flag (RPC availability)
//!   hands the meta over, and neither is read again;
//! - a block read whole is remembered in the transaction memo (`store/tx_memo.rs`), as a
//!   walk to its end would be, so a `getTransaction` after a `getBlock` (an explorer's
//!   pattern) reads only the data set holding its transaction.

use std::ops::Deref;

use crate::error::{LedgerError, Result};
use crate::fetch::block::{block_start, parent_blockhash_and_state};
use crate::fetch::block_state::{ParentState, or_unreadable};
use crate::fetch::store_fetch::ranges_of;
use crate::fetch::{DataSetView, FetchBuffer, FoundTransaction, Located};
use crate::store::{Blockstore, KvEngine, SlotMeta};
use crate::types::{Hash, Slot};

/// What the caller has read of the slot before asking for its block.
#[derive(Debug, Clone)]
pub enum SlotRead {
    /// Nothing: the reader reads the meta and checks the dead flag.
    Unread,
    /// The slot's meta, read by the caller with the slot found not dead.
    Checked(SlotMeta),
}

/// A stored block: its frame and its data sets as views over the caller's buffer.
#[derive(Debug)]
pub struct Block<'b> {
    /// The slot.
    pub slot: Slot,
    /// The slot's meta (full).
    pub meta: SlotMeta,
    /// The block's blockhash: its last entry's hash.
    pub blockhash: Hash,
    /// The parent's blockhash; `None` when the parent is not stored, not full, dead or not
    /// readable (callers answer the default hash, or refuse, as they document).
    pub previous_blockhash: Option<Hash>,
    /// What `previous_blockhash` was read from, read before the parent's shreds.
    pub parent_state: ParentState,
    /// The `blocktime` row.
    pub block_time: Option<i64>,
    /// The `block_height` row.
    pub block_height: Option<u64>,
    /// The block's data sets from its start (`fetch::block_start`), in order.
    pub sets: Vec<DataSetView<'b>>,
}

impl<'b> Block<'b> {
    /// The parent slot (0 when the meta names none).
    pub fn parent_slot(&self) -> Slot {
        self.meta.parent_slot.unwrap_or_default()
    }

    /// The first signature of every transaction, in block order (64 zero bytes for an
    /// unsigned one, which no status row is keyed by).
    pub fn signatures(&self) -> Vec<&'b [u8; 64]> {
        first_signatures(&self.sets)
    }
}

/// The first signature of every transaction of `sets`, in order (64 zero bytes for an
/// unsigned one): the keys of a block's `transaction_status` rows.
pub fn first_signatures<'b>(sets: &[DataSetView<'b>]) -> Vec<&'b [u8; 64]> {
    sets.iter()
        .flat_map(|set| set.entries.transactions())
        .map(|tx| tx.first_signature().unwrap_or(&[0u8; 64]))
        .collect()
}

/// Reads whole blocks and their history rows.
pub trait BlockReader {
    /// A stored row, without a copy where the store can.
    type Row<'a>: Deref<Target = [u8]> + AsRef<[u8]>
    where
        Self: 'a;

    /// The block of `slot` (see the module docs for what is no block and what an error).
    fn block<'b>(
        &self,
        slot: Slot,
        read: SlotRead,
        buf: &'b mut FetchBuffer,
    ) -> Result<Option<Block<'b>>>;

    /// The `transaction_status` row of each transaction of `block`, in block order.
    fn block_statuses(&self, block: &Block<'_>) -> Result<Vec<Option<Self::Row<'_>>>>;

    /// The `rewards` row of `slot`.
    fn block_rewards(&self, slot: Slot) -> Result<Option<Vec<u8>>>;

    /// The transaction of `slot`'s block whose first signature is `signature`, with its
    /// position among the block's transactions (`meta`: the slot's meta as the caller read
    /// it). The same answers as [`Self::block`] for a missing, dead or purged slot, but only
    /// the data sets up to the transaction's are read (`fetch::find_tx`).
    fn block_transaction<'b>(
        &self,
        slot: Slot,
        meta: &SlotMeta,
        signature: &[u8; 64],
        buf: &'b mut FetchBuffer,
    ) -> Result<Option<FoundTransaction<'b>>>;

    /// [`Self::block_transaction`] reading at most the one data set the transaction memo
    /// names (`Located::Unlocated`, nothing walked, when it names none or the set does not
    /// hold it).
    fn located_transaction<'b>(
        &self,
        slot: Slot,
        meta: &SlotMeta,
        signature: &[u8; 64],
        buf: &'b mut FetchBuffer,
    ) -> Result<Located<'b>>;
}

impl<E: KvEngine> BlockReader for Blockstore<E> {
    type Row<'a>
        = E::Pinned<'a>
    where
        Self: 'a;

    fn block<'b>(
        &self,
        slot: Slot,
        read: SlotRead,
        buf: &'b mut FetchBuffer,
    ) -> Result<Option<Block<'b>>> {
        self.read_guarded(slot, || {
            let meta = match read {
                SlotRead::Checked(meta) => meta,
                SlotRead::Unread => {
                    let Some(meta) = self.meta(slot)? else {
                        return Ok(None);
                    };
                    if self.is_dead(slot)? {
                        return Err(LedgerError::DeadSlot { slot });
                    }
                    meta
                }
            };
            if !meta.is_full() {
                return Ok(None);
            }
            let (previous_blockhash, parent_state) =
                readable_parent_blockhash(self, meta.parent_slot, buf)?;
            let block_time = self.block_time(slot)?;
            let block_height = self.block_height(slot)?;
            let start = block_start(&meta);
            let ranges = ranges_of(&meta, start);
            let views = self.views_of(slot, start, ranges.clone(), true, buf)?;
            let Some(blockhash) = views.blockhash() else {
                return Ok(None);
            };
            self.remember_block_read(slot, &meta, start, &ranges, &views.sets, blockhash);
            Ok(Some(Block {
                slot,
                meta,
                blockhash,
                previous_blockhash,
                parent_state,
                block_time,
                block_height,
                sets: views.sets,
            }))
        })
    }

    fn block_statuses(&self, block: &Block<'_>) -> Result<Vec<Option<E::Pinned<'_>>>> {
        self.transaction_status_pinned(block.slot, &block.signatures())
    }

    fn block_rewards(&self, slot: Slot) -> Result<Option<Vec<u8>>> {
        self.rewards_row(slot)
    }

    fn block_transaction<'b>(
        &self,
        slot: Slot,
        meta: &SlotMeta,
        signature: &[u8; 64],
        buf: &'b mut FetchBuffer,
    ) -> Result<Option<FoundTransaction<'b>>> {
        self.find_block_transaction(slot, meta, signature, buf)
    }

    fn located_transaction<'b>(
        &self,
        slot: Slot,
        meta: &SlotMeta,
        signature: &[u8; 64],
        buf: &'b mut FetchBuffer,
    ) -> Result<Located<'b>> {
        self.find_located_transaction(slot, meta, signature, buf)
    }
}

/// [`parent_blockhash_and_state`], with every error but the store's own failure read as
/// "no previous blockhash" (Agave's rule, module docs) from an unreadable parent.
fn readable_parent_blockhash<E: KvEngine>(
    store: &Blockstore<E>,
    parent: Option<Slot>,
    buf: &mut FetchBuffer,
) -> Result<(Option<Hash>, ParentState)> {
    or_unreadable(
        parent_blockhash_and_state(store, parent, buf),
        (None, ParentState::Unreadable),
    )
}
