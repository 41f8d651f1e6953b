//! What insert verifies of a shred beyond parsing, before it is stored:
//!
//! - **Merkle consistency**: every Merkle shred's proof must lead to the root of its FEC set.
//!   The set's root is the one of the first shred of the set the store accepted (in this
//!   call, in an earlier call still in the writer's cache, or a stored data shred of the set
//!   read back); a shred whose proof leads elsewhere was not made with the set's other
//!   shreds and is rejected with [`InsertDefect::MerkleRootMismatch`]. A shred whose proof
//!   cannot be evaluated at all is `InvalidShred`.
//! - **Leader signature**, only when the caller names the slot leader
//!   ([`LeaderCheck::Verify`]): Merkle shreds once per (slot, set, root, signature) per
//!   call, legacy shreds each. Without a leader key a forged set is caught only by the root check against
//!   shreds already stored.
//!
//! The set's root also comes from its `merkle_root_meta` row (the caller's `known`). What is
//! not checked here: the chained root against the previous set (`duplicates.rs`, which does
//! not refuse the shred, as Agave), and legacy shreds against each other (they carry no root).

use std::collections::BTreeMap;

use super::columns::DataShred;
use super::index_set::ShredIndexSet;
use super::kv::KvEngine;
use super::typed::Engine;
use crate::defect::InsertDefect;
use crate::error::{LedgerError, Result};
use crate::shred::{NodeMemo, ShredRef, merkle_root, merkle_root_with, verify_signature};
use crate::types::{Hash, Pubkey, ShredIndex, Signature, Slot};

/// Whether insert verifies the leader's signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LeaderCheck {
    /// Signatures are not checked (the caller verified them, as Agave's sigverify stage
    /// does before its blockstore).
    #[default]
    Skip,
    /// Every shred must carry this leader's valid signature.
    Verify(Pubkey),
}

/// Whether insert checks Merkle shreds against their FEC set's root.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MerkleCheck {
    /// Every Merkle shred's proof must lead to its set's root (what Agave's insert does).
    #[default]
    Verify,
    /// No root check: only for importing historic shreds of a pre-release Merkle layout
    /// (e.g. Firedancer's early `0x85` localnet fixtures, which store the root in the
    /// payload), whose proofs no current validator can evaluate.
    Skip,
}

/// Options of [`Blockstore::insert_shreds_with`](super::Blockstore::insert_shreds_with).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct InsertOptions {
    /// Whether each shred's leader signature is verified.
    pub leader: LeaderCheck,
    /// Whether each Merkle shred's proof is checked against its set's root.
    pub merkle: MerkleCheck,
    /// Agave 4.x's FEC-set shape rules (`shape_rules.rs`), or none for legacy ledgers.
    pub shape: super::shape_rules::ShapeRules,
}

/// Data shreds of one FEC set sit at `fec_set_index..fec_set_index + num_data`; a Merkle set
/// has at most this many (a stored shred of the set is looked for that far).
const MAX_DATA_PER_SET: u32 = 64;

/// Roots known to one insert call, and which were signature-checked.
#[derive(Debug, Default)]
pub(super) struct SetRoots {
    roots: BTreeMap<(Slot, u32), Hash>,
    /// Root and signature verified per set: every shred of a Merkle set carries the same
    /// signature of the same root, so a shred with both equal needs no second verify.
    verified: BTreeMap<(Slot, u32), (Hash, Signature)>,
    /// Inner nodes the call's proofs computed: each shred's root is still computed from its
    /// own leaf and proof, the memo only skips hashing a node input already hashed.
    nodes: NodeMemo,
}

impl SetRoots {
    /// For a call of `shreds` packets.
    pub(super) fn for_shreds(shreds: usize) -> Self {
        Self {
            nodes: NodeMemo::for_shreds(shreds),
            ..Self::default()
        }
    }

    /// The roots this call learned, for the writer's cache once the batch is committed.
    pub(super) fn into_roots(self) -> BTreeMap<(Slot, u32), Hash> {
        self.roots
    }

    /// `Ok(Ok(root))` when the shred passes (`root` is `None` for legacy shreds and with
    /// `MerkleCheck::Skip`); `Ok(Err(rejection))` when it does not; `Err` only for a storage
    /// failure or a corrupt stored shred of the same set. A passing root is not recorded
    /// here: the caller calls [`Self::accept`] once the shred is actually stored, so a shred
    /// refused later (by the meta rules) never defines its set's root.
    pub(super) fn check<E: KvEngine>(
        &mut self,
        shred: &ShredRef<'_>,
        options: &InsertOptions,
        known: impl FnOnce() -> Option<Hash>,
        engine: &Engine<E>,
        data_present: &ShredIndexSet,
    ) -> Result<std::result::Result<Option<Hash>, LedgerError>> {
        let (slot, fec) = (shred.slot(), shred.fec_set_index());
        if shred.proof_size().is_none() || options.merkle == MerkleCheck::Skip {
            // Legacy (no root), or the root check is off: only the signature is checked.
            return Ok(match options.leader {
                LeaderCheck::Verify(leader) => verify_signature(shred, &leader)
                    .map(|()| None)
                    .map_err(Into::into),
                LeaderCheck::Skip => Ok(None),
            });
        }
        let root = match merkle_root_with(shred, &mut self.nodes) {
            Ok(root) => root,
            Err(e) => return Ok(Err(e.into())),
        };
        let expected = match self.roots.get(&(slot, fec)) {
            Some(r) => Some(*r),
            None => match known() {
                Some(r) => Some(r),
                None => stored_root(engine, slot, fec, data_present)?,
            },
        };
        if let Some(expected) = expected.filter(|e| *e != root) {
            // A conflicting root makes a duplicate-slot proof, so it must be the leader's:
            // with a leader key, a shred whose signature fails is refused for that instead.
            if let LeaderCheck::Verify(leader) = options.leader
                && let Err(e) = verify_signature(shred, &leader)
            {
                return Ok(Err(e.into()));
            }
            return Ok(Err(LedgerError::ShredRejected {
                slot,
                index: shred.index(),
                defect: InsertDefect::MerkleRootMismatch {
                    fec_set_index: fec,
                    expected,
                    found: root,
                },
            }));
        }
        if let LeaderCheck::Verify(leader) = options.leader {
            let seen = (root, shred.signature());
            if self.verified.get(&(slot, fec)) != Some(&seen) {
                if let Err(e) = verify_signature(shred, &leader) {
                    return Ok(Err(e.into()));
                }
                self.verified.insert((slot, fec), seen);
            }
        }
        Ok(Ok(Some(root)))
    }

    /// Records `root` as the root of `shred`'s set: the shred was stored.
    pub(super) fn accept(&mut self, shred: &ShredRef<'_>, root: Option<Hash>) {
        if let Some(root) = root {
            self.roots
                .entry((shred.slot(), shred.fec_set_index()))
                .or_insert(root);
        }
    }
}

/// The root of a stored data shred of set `fec` (the first one present), `None` when the
/// store holds none of the set's data shreds.
fn stored_root<E: KvEngine>(
    engine: &Engine<E>,
    slot: Slot,
    fec: u32,
    data_present: &ShredIndexSet,
) -> Result<Option<Hash>> {
    let end = fec
        .saturating_add(MAX_DATA_PER_SET)
        .min(ShredIndexSet::CAPACITY);
    let mut from = fec;
    while let Some(index) = data_present.next_member(from, end) {
        from = index + 1;
        let Some(payload) = engine.get_pinned::<DataShred>((slot, ShredIndex(index)))? else {
            continue;
        };
        let corrupt = |reason: String| LedgerError::CorruptValue {
            column: "data_shred",
            key: format!("({slot}, {index})"),
            reason,
        };
        let stored = ShredRef::parse(&payload).map_err(|e| corrupt(e.to_string()))?;
        if stored.fec_set_index() != fec {
            // Past the set: a later set's shred.
            return Ok(None);
        }
        if stored.proof_size().is_none() {
            return Ok(None);
        }
        return merkle_root(&stored)
            .map(Some)
            .map_err(|e| corrupt(e.to_string()));
    }
    Ok(None)
}
