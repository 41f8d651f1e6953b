//! A slot's parent as its Alpenglow block markers declare it, set on insert as Agave 4.4's
//! `maybe_update_parent_info` does (`docs/on-disk-layout.md#slotmeta`).
//!
//! Two markers name a parent: the block header (the data of shred 0) and an UpdateParent
//! (the data of the first shred of an FEC set that follows a DATA_COMPLETE shred). A marker
//! is only seen when its data set fits in that one shred: a marker spread over several
//! shreds does not parse from the first one, and Agave ignores it too. A marker that
//! contradicts the shred header, the root or an earlier marker refuses the shred and marks
//! the slot dead, so no arrival order lets two validators derive different parents.

use super::columns::{self, Root};
use super::kv::{Direction, KvEngine};
use super::slot_meta::SlotMeta;
use super::typed::Engine;
use crate::block::{BlockMarker, is_block_marker};
use crate::defect::ParentInfoDefect;
use crate::error::Result;
use crate::shred::ShredRef;
use crate::types::{Hash, Slot};

/// Data shreds per FEC set (Agave's `DATA_SHREDS_PER_FEC_BLOCK`).
const DATA_SHREDS_PER_FEC_SET: u32 = 32;
/// Slots per leader window (Agave's `NUM_CONSECUTIVE_LEADER_SLOTS`): an UpdateParent is only
/// valid in a window's first slot.
const LEADER_WINDOW_SLOTS: u64 = 4;

/// The parent a marker declares. Invariant: `replay_fec_set_index` is 0 for a block header
/// and the (non-zero) FEC set index of the UpdateParent's set otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct ParentInfo {
    pub(super) parent_slot: Slot,
    pub(super) parent_block_id: Hash,
    pub(super) replay_fec_set_index: u32,
}

impl ParentInfo {
    /// The marker parent a meta holds; `None` when no marker set it (the block id is zero
    /// and no UpdateParent was applied), as Agave 4.4's `ParentInfo::from_slot_meta`.
    pub(super) fn from_meta(meta: &SlotMeta) -> Option<Self> {
        let info = Self {
            parent_slot: meta.parent_slot?,
            parent_block_id: meta.parent_block_id,
            replay_fec_set_index: meta.replay_fec_set_index,
        };
        (info.is_update_parent() || info.parent_block_id != Hash::default()).then_some(info)
    }

    pub(super) fn apply(self, meta: &mut SlotMeta) {
        meta.parent_slot = Some(self.parent_slot);
        meta.parent_block_id = self.parent_block_id;
        meta.replay_fec_set_index = self.replay_fec_set_index;
    }

    fn is_update_parent(&self) -> bool {
        self.replay_fec_set_index > 0
    }

    fn block(&self) -> (Slot, Hash) {
        (self.parent_slot, self.parent_block_id)
    }

    /// Agave's `validate_update_parent_slot` then `validate_shred_parent`.
    fn validate(&self, slot: Slot, shred_parent: Slot, root: Slot) -> Option<ParentInfoDefect> {
        if self.is_update_parent() && !slot.0.is_multiple_of(LEADER_WINDOW_SLOTS) {
            return Some(ParentInfoDefect::UpdateParentNotFirstInLeaderWindow);
        }
        let parent = self.parent_slot;
        // Slot 0 may name itself as parent (Agave's `verify_shred_slots`).
        let zero = slot.0 == 0 && parent.0 == 0 && root.0 == 0;
        if !(zero || (root <= parent && parent < slot)) {
            return Some(ParentInfoDefect::ParentOutsideRoot {
                parent_slot: parent,
                root,
            });
        }
        if !self.is_update_parent() && parent != shred_parent {
            return Some(ParentInfoDefect::BlockHeaderParentMismatch {
                header: parent,
                shred: shred_parent,
            });
        }
        if self.is_update_parent() && parent > shred_parent {
            return Some(ParentInfoDefect::UpdateParentAboveShredParent {
                update_parent: parent,
                shred: shred_parent,
            });
        }
        None
    }

    /// Agave's `should_write_parent_info`: whether `self` replaces `prev`. An UpdateParent
    /// outranks the block header whatever the arrival order.
    fn replaces(&self, prev: &Self) -> std::result::Result<bool, ParentInfoDefect> {
        let (update, header, replaces) = match (self.is_update_parent(), prev.is_update_parent()) {
            (false, true) => (prev, self, false),
            (true, false) => (self, prev, true),
            (true, true) if self == prev => return Ok(false),
            (true, true) => return Err(ParentInfoDefect::MultipleUpdateParents),
            (false, false) if self == prev => return Ok(false),
            (false, false) => return Err(ParentInfoDefect::BlockHeaderConflict),
        };
        if update.block() == header.block() {
            return Err(ParentInfoDefect::UpdateParentMatchesBlockHeader);
        }
        if update.parent_slot > header.parent_slot {
            return Err(ParentInfoDefect::UpdateParentAboveBlockHeader);
        }
        Ok(replaces)
    }
}

/// What a data shred's markers do to its slot's meta.
pub(super) enum ParentUpdate {
    /// Nothing to change.
    Keep,
    /// Write this parent into the meta once the shred is stored.
    Set(ParentInfo),
    /// Refuse the shred and mark the slot dead.
    Conflict(ParentInfoDefect),
}

/// Agave 4.4's `maybe_update_parent_info` for a data shred about to be stored. `neighbour`
/// returns a stored data shred's payload (this call's or the store's) by index; `max_root`
/// the highest root (0 when none), read only when a marker was found.
pub(super) fn parent_update(
    shred: &ShredRef<'_>,
    shred_parent: Slot,
    meta: &SlotMeta,
    max_root: impl FnOnce() -> Result<Slot>,
    mut neighbour: impl FnMut(u32) -> Result<Option<Vec<u8>>>,
) -> Result<ParentUpdate> {
    let index = shred.index().0;
    let found = if index == 0 {
        block_header(shred.data())
    } else {
        update_parent(shred, &mut neighbour)?
    };
    let Some(new) = found else {
        return Ok(ParentUpdate::Keep);
    };
    if let Some(defect) = new.validate(shred.slot(), shred_parent, max_root()?) {
        return Ok(ParentUpdate::Conflict(defect));
    }
    Ok(
        match ParentInfo::from_meta(meta).map(|prev| new.replaces(&prev)) {
            None | Some(Ok(true)) => ParentUpdate::Set(new),
            Some(Ok(false)) => ParentUpdate::Keep,
            Some(Err(defect)) => ParentUpdate::Conflict(defect),
        },
    )
}

/// A block header marker filling `data` exactly.
fn block_header(data: &[u8]) -> Option<ParentInfo> {
    let header = *marker(data)?.as_header()?;
    Some(ParentInfo {
        parent_slot: header.parent_slot,
        parent_block_id: header.parent_block_id,
        replay_fec_set_index: 0,
    })
}

/// The UpdateParent at the FEC set boundary `shred` stands on: after it when it is
/// DATA_COMPLETE (the next set's shred 0, if stored), or itself when it opens a set whose
/// previous shred is DATA_COMPLETE.
fn update_parent(
    shred: &ShredRef<'_>,
    neighbour: &mut impl FnMut(u32) -> Result<Option<Vec<u8>>>,
) -> Result<Option<ParentInfo>> {
    let index = shred.index().0;
    let (first, fec_set_index) = if shred.data_complete() {
        let Some(next) = shred.fec_set_index().checked_add(DATA_SHREDS_PER_FEC_SET) else {
            return Ok(None);
        };
        let Some(payload) = neighbour(next)? else {
            return Ok(None);
        };
        (payload, next)
    } else if index.is_multiple_of(DATA_SHREDS_PER_FEC_SET) {
        // index > 0: the caller handles shred 0 as the block header.
        let previous = neighbour(index - 1)?;
        let closes = previous
            .as_deref()
            .and_then(|p| ShredRef::parse(p).ok())
            .is_some_and(|p| p.data_complete());
        if !closes {
            return Ok(None);
        }
        (shred.payload().to_vec(), shred.fec_set_index())
    } else {
        return Ok(None);
    };
    let Ok(first) = ShredRef::parse(&first) else {
        return Ok(None);
    };
    let Some(update) = marker(first.data()).and_then(|m| m.as_update_parent().copied()) else {
        return Ok(None);
    };
    Ok(Some(ParentInfo {
        parent_slot: update.new_parent_slot,
        parent_block_id: update.new_parent_block_id,
        replay_fec_set_index: fec_set_index,
    }))
}

/// A marker filling `data` exactly (Agave deserializes the shred's whole data).
fn marker(data: &[u8]) -> Option<BlockMarker> {
    is_block_marker(data)
        .then(|| BlockMarker::parse_exact(data).ok())
        .flatten()
}

/// The highest root, 0 when nothing is rooted (Agave's `max_root`).
pub(super) fn max_root<E: KvEngine>(engine: &Engine<E>) -> Result<Slot> {
    let mut roots = engine.range::<Root, Option<Slot>>(
        columns::slot_key(Slot(0)),
        None,
        Direction::Reverse,
        |key, value| {
            use super::column::Column;
            let slot = Root::decode_key(key)?;
            Ok(Root::decode_value(slot, value)?.then_some(slot))
        },
    );
    for root in roots.by_ref() {
        if let Some(slot) = root? {
            return Ok(slot);
        }
    }
    Ok(Slot(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(parent: u64, id: u8, fec: u32) -> ParentInfo {
        ParentInfo {
            parent_slot: Slot(parent),
            parent_block_id: Hash([id; 32]),
            replay_fec_set_index: fec,
        }
    }

    /// An UpdateParent outranks a header in either order; equal repeats change nothing;
    /// differing repeats and an UpdateParent naming the header's block conflict.
    #[test]
    fn replacement_rules_are_agaves() {
        let (header, update) = (info(41, 1, 0), info(40, 2, 128));
        assert_eq!(update.replaces(&header), Ok(true));
        assert_eq!(header.replaces(&update), Ok(false));
        assert_eq!(header.replaces(&header), Ok(false));
        assert_eq!(update.replaces(&update), Ok(false));
        assert_eq!(
            info(41, 3, 0).replaces(&header),
            Err(ParentInfoDefect::BlockHeaderConflict)
        );
        assert_eq!(
            info(40, 2, 160).replaces(&update),
            Err(ParentInfoDefect::MultipleUpdateParents)
        );
        assert_eq!(
            info(41, 1, 128).replaces(&header),
            Err(ParentInfoDefect::UpdateParentMatchesBlockHeader)
        );
        assert_eq!(
            info(39, 1, 0).replaces(&info(40, 2, 128)),
            Err(ParentInfoDefect::UpdateParentAboveBlockHeader)
        );
    }

    #[test]
    fn validation_bounds_the_parent() {
        let (slot, root) = (Slot(44), Slot(10));
        assert_eq!(info(41, 1, 0).validate(slot, Slot(41), root), None);
        assert_eq!(
            info(41, 1, 0).validate(slot, Slot(42), root),
            Some(ParentInfoDefect::BlockHeaderParentMismatch {
                header: Slot(41),
                shred: Slot(42)
            })
        );
        assert_eq!(info(40, 1, 32).validate(slot, Slot(41), root), None);
        assert_eq!(
            info(42, 1, 32).validate(slot, Slot(41), root),
            Some(ParentInfoDefect::UpdateParentAboveShredParent {
                update_parent: Slot(42),
                shred: Slot(41)
            })
        );
        assert_eq!(
            info(9, 1, 0).validate(slot, Slot(9), root),
            Some(ParentInfoDefect::ParentOutsideRoot {
                parent_slot: Slot(9),
                root
            })
        );
        assert_eq!(
            info(40, 1, 32).validate(Slot(45), Slot(41), root),
            Some(ParentInfoDefect::UpdateParentNotFirstInLeaderWindow)
        );
        assert_eq!(info(0, 0, 0).validate(Slot(0), Slot(0), Slot(0)), None);
    }
}
