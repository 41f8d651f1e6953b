//! What one insert call knows of the FEC sets it touches (`docs/on-disk-layout.md#agave-insert-columns`):
//! each set's `erasure_meta` and `merkle_root_meta` rows (loaded on first touch, new ones
//! written with the batch), and where the payload of every shred the call stored is, because
//! the write batch cannot be read back (recovery and duplicate proofs need those bytes):
//! received shreds by their position in the call's input (no copy), recovered ones owned.
//!
//! Invariants: a row marked new is not in the database; a set's rows, once made, are never
//! replaced within the call (the first stored shred defines them, as in Agave).

use std::collections::btree_map::Entry;
use std::collections::{BTreeMap, HashMap};

use super::agave_meta::{ErasureMeta, MerkleRootMeta};
use super::columns::{CodeShred, DataShred, ErasureMetaColumn, MerkleRootMetaColumn, SetKey};
use super::kv::KvEngine;
use super::typed::Engine;
use crate::error::Result;
use crate::shred::{FirstCodeIndex, ShredKind, ShredRef, merkle_root};
use crate::types::{Hash, ShredIndex, Slot};

/// One FEC set's rows during a call.
#[derive(Debug, Default)]
pub(super) struct SetWork {
    pub(super) erasure: Option<ErasureMeta>,
    pub(super) erasure_new: bool,
    pub(super) merkle: Option<MerkleRootMeta>,
    pub(super) merkle_new: bool,
    /// A shred of the set was stored by this call (the set is a recovery candidate).
    pub(super) touched: bool,
    /// The first code index readings all the set's stored code shreds admit, once the
    /// erasure check has read them (`erasure_check.rs`).
    pub(super) code_readings: Option<FirstCodeIndex>,
}

/// Where the payload of a shred stored by this call is.
#[derive(Debug)]
pub(super) enum Origin {
    /// The input packet at this position; the stored payload is its first `len` bytes.
    Input { packet: usize, len: usize },
    /// Rebuilt by recovery.
    Recovered(Vec<u8>),
}

/// The call's FEC sets and stored payloads.
#[derive(Debug, Default)]
pub(super) struct CallSets {
    pub(super) sets: BTreeMap<SetKey, SetWork>,
    data: HashMap<(Slot, u32), Origin>,
    code: HashMap<(Slot, u32), Origin>,
}

impl CallSets {
    /// The set's rows, loaded from the database on first touch.
    pub(super) fn load<E: KvEngine>(
        &mut self,
        engine: &Engine<E>,
        key: SetKey,
    ) -> Result<&mut SetWork> {
        Ok(match self.sets.entry(key) {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(e) => e.insert(SetWork {
                erasure: engine.get::<ErasureMetaColumn>(key)?,
                merkle: engine.get::<MerkleRootMetaColumn>(key)?,
                ..SetWork::default()
            }),
        })
    }

    /// Records a stored shred: its payload copy, and its set's `merkle_root_meta` when the
    /// set has none yet. `root` is the shred's Merkle root when the caller already computed
    /// it (the root check), else it is computed here.
    pub(super) fn stored<E: KvEngine>(
        &mut self,
        engine: &Engine<E>,
        shred: &ShredRef<'_>,
        origin: Origin,
        root: Option<Hash>,
    ) -> Result<()> {
        let (slot, index) = (shred.slot(), shred.index().0);
        let map = match shred.kind() {
            ShredKind::Data => &mut self.data,
            ShredKind::Code => &mut self.code,
        };
        map.insert((slot, index), origin);
        let set = self.load(engine, (slot, shred.fec_set_index()))?;
        set.touched = true;
        if set.merkle.is_none() {
            set.merkle = Some(MerkleRootMeta {
                // Legacy shreds (and Merkle shreds whose proof cannot be evaluated, which
                // parse and the root check refuse anyway) have no root.
                merkle_root: root.or_else(|| {
                    merkle_root(shred)
                        .ok()
                        .filter(|_| shred.proof_size().is_some())
                }),
                first_received_shred_index: index,
                first_received_shred_kind: shred.kind(),
            });
            set.merkle_new = true;
        }
        Ok(())
    }

    /// A stored shred's payload: this call's (from `inputs`, the call's packets), else the
    /// database's.
    pub(super) fn payload<E: KvEngine>(
        &self,
        engine: &Engine<E>,
        inputs: &[&[u8]],
        slot: Slot,
        kind: ShredKind,
        index: u32,
    ) -> Result<Option<Vec<u8>>> {
        let copies = match kind {
            ShredKind::Data => &self.data,
            ShredKind::Code => &self.code,
        };
        match copies.get(&(slot, index)) {
            Some(Origin::Recovered(p)) => return Ok(Some(p.clone())),
            Some(Origin::Input { packet, len }) => {
                let bytes = inputs.get(*packet).and_then(|p| p.get(..*len));
                return Ok(bytes.map(<[u8]>::to_vec));
            }
            None => {}
        }
        let key = (slot, ShredIndex(index));
        Ok(match kind {
            ShredKind::Data => engine
                .get_pinned::<DataShred>(key)?
                .map(|p| p.as_ref().to_vec()),
            ShredKind::Code => engine
                .get_pinned::<CodeShred>(key)?
                .map(|p| p.as_ref().to_vec()),
        })
    }
}
