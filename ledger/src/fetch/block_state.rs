//! What a block read finds besides the block's own rows, kept to tell later whether a read
//! then would find the same block (`bstore-rpc`'s kept `getBlock` answers): the slot's
//! [`BlockFrame`] and its parent's [`ParentState`].

use crate::error::{LedgerError, Result};
use crate::store::{Blockstore, KvEngine, SlotMeta};
use crate::types::{Hash, Slot};

/// The part of a slot's meta a read of its block depends on: all of it but `next_slots`
/// and `connected_flags`, which change as children arrive. A full slot's shreds are never
/// replaced (a shred at a held index or past the last one is refused), so two reads of a
/// full slot that find the same frame read the same data sets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockFrame {
    slot: Slot,
    consumed: u64,
    received: u64,
    first_shred_timestamp: u64,
    last_index: Option<u64>,
    parent_slot: Option<Slot>,
    parent_block_id: Hash,
    replay_fec_set_index: u32,
    /// The completed data indexes' bitmap words, trailing zero words left out.
    completed: Box<[u64]>,
}

impl BlockFrame {
    /// The frame of `meta`.
    pub fn of(meta: &SlotMeta) -> Self {
        Self {
            slot: meta.slot,
            consumed: meta.consumed,
            received: meta.received,
            first_shred_timestamp: meta.first_shred_timestamp,
            last_index: meta.last_index,
            parent_slot: meta.parent_slot,
            parent_block_id: meta.parent_block_id,
            replay_fec_set_index: meta.replay_fec_set_index,
            completed: meta.completed_data_indexes.trimmed_words().into(),
        }
    }

    /// Heap bytes held beyond the struct itself.
    pub fn heap_bytes(&self) -> usize {
        std::mem::size_of_val(&*self.completed)
    }
}

/// What [`parent_blockhash`] reads a block's previous blockhash from besides the parent's
/// shreds: the parent's [`BlockFrame`] and, when it is full, its dead flag. Two reads that
/// find the same state find the same previous blockhash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParentState {
    /// No parent slot, or no meta for it: no previous blockhash.
    Absent,
    /// The parent's meta or dead flag does not decode: no previous blockhash either.
    Unreadable,
    /// The parent's meta was read.
    Stored {
        /// Its frame.
        frame: BlockFrame,
        /// Its dead flag (read only for a full parent, else `false`).
        dead: bool,
    },
}

impl ParentState {
    /// Heap bytes held beyond the value itself.
    pub fn heap_bytes(&self) -> usize {
        match self {
            Self::Stored { frame, .. } => frame.heap_bytes(),
            Self::Absent | Self::Unreadable => 0,
        }
    }
}

impl<E: KvEngine> Blockstore<E> {
    /// The [`ParentState`] of the block of `slot` stored for `meta`, read between two checks
    /// of `slot`'s cleaned-up mark, as a block read is (`Err(SlotCleanedUp)` when this
    /// process purged `slot`). Only the store's own failures are errors: a row that does
    /// not decode is [`ParentState::Unreadable`], as a block read finds it.
    pub fn block_parent_state(&self, slot: Slot, meta: &SlotMeta) -> Result<ParentState> {
        self.read_guarded(slot, || {
            or_unreadable(
                read_parent(self, meta.parent_slot).map(|(state, _)| state),
                ParentState::Unreadable,
            )
        })
    }
}

/// The [`ParentState`] of a block whose parent is `parent`, with the parent's meta when it
/// has one. Errors are the store's and those of rows that do not decode
/// ([`or_unreadable`] tells them apart).
pub(crate) fn read_parent<E: KvEngine>(
    store: &Blockstore<E>,
    parent: Option<Slot>,
) -> Result<(ParentState, Option<SlotMeta>)> {
    let Some(parent) = parent else {
        return Ok((ParentState::Absent, None));
    };
    let Some(meta) = store.meta(parent)? else {
        return Ok((ParentState::Absent, None));
    };
    let dead = meta.is_full() && store.is_dead(parent)?;
    let state = ParentState::Stored {
        frame: BlockFrame::of(&meta),
        dead,
    };
    Ok((state, Some(meta)))
}

/// `read` with every error but the store's own failure read as `unreadable`: Agave gives
/// no previous blockhash for a parent it cannot read, whatever the reason.
pub(crate) fn or_unreadable<T>(read: Result<T>, unreadable: T) -> Result<T> {
    match read {
        Err(e @ LedgerError::Storage { .. }) => Err(e),
        Err(_) => Ok(unreadable),
        ok => ok,
    }
}
