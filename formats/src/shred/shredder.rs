//! Leader side: turns serialized data sets (the bincode bytes of a `Vec<Entry>`) into
//! signed, chained Merkle shreds, the way today's leaders do
//! (`docs/formats-shreds.md#merkle-tree-and-signatures`):
//!
//! - every FEC set has 32 data and 32 code shreds, proof size 6 (64 leaves); data shreds are
//!   variant `0x96` (capacity 963), code shreds `0x66`;
//! - data fills shreds at full capacity; the last FEC set of a batch is padded with empty
//!   data shreds (`size` 88); the batch's last shred carries DATA_COMPLETE, and LAST_IN_SLOT
//!   when the caller says so; every shred carries the batch's reference tick;
//! - code shreds are real Reed–Solomon parity (the scheme Agave uses), so the Merkle tree is
//!   the tree Agave would build over the same data shreds. Code shred `i` of the set at
//!   `fec_set_index` has index `fec_set_index + i` (32:32 sets keep both sequences equal);
//! - each set carries the previous set's root; the first set of the shredder chains to the
//!   root given by [`Shredder::with_chained_root`] (default all zeros);
//! - with [`Resign::Yes`] on the slot's last batch, its last FEC set is chained + resigned
//!   (`0xB6` / `0x76`, capacity 899) and the retransmitter signature is the leader's own
//!   signature of the root. When the remaining data would not fit a resigned set but does not
//!   fill a whole plain set, it all goes into plain sets and the resigned set is 32 empty
//!   data shreds.

use ed25519_dalek::SigningKey;

use super::erasure::Encoder;
use super::fec_set::{DataPiece, SetHeader, build_set};
use super::layout::{
    FLAG_DATA_COMPLETE, FLAG_LAST_IN_SLOT, MAX_SHREDS_PER_SLOT, REFERENCE_TICK_MASK,
    merkle_data_capacity,
};
use crate::error::FormatError;
use crate::types::{Hash, ShredIndex, Slot};

/// Data (and code) shreds per FEC set.
pub const SHREDS_PER_FEC_SET: usize = 32;
const PROOF_SIZE: u8 = 6;
const CAPACITY: usize = merkle_data_capacity(PROOF_SIZE, true, false);
const CAPACITY_RESIGNED: usize = merkle_data_capacity(PROOF_SIZE, true, true);

/// Whether a batch is the slot's last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LastInSlot {
    /// The batch ends the slot: its last data shred is flagged last-in-slot.
    Yes,
    /// More batches of the slot follow.
    No,
}

/// Whether the slot's last FEC set is resigned (only with `LastInSlot::Yes`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resign {
    /// The last FEC set is resigned: its shreds carry a retransmitter signature slot.
    Yes,
    /// The last FEC set is chained but not resigned.
    No,
}

/// Options of one [`Shredder::shred_batch`] call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchOptions {
    /// Whether this batch ends the slot.
    pub last_in_slot: LastInSlot,
    /// Reference tick, 0..=63.
    pub reference_tick: u8,
    /// Whether the slot's last FEC set is resigned (ignored unless `last_in_slot` is `Yes`).
    pub resign_last: Resign,
}

/// Payloads of one batch, each in index order: data shreds (1203 bytes, the stored form)
/// and code shreds (1228 bytes).
#[derive(Debug)]
pub struct ShredBatch {
    /// Data shred payloads, 1203 bytes each.
    pub data: Vec<Vec<u8>>,
    /// Code shred payloads, 1228 bytes each.
    pub code: Vec<Vec<u8>>,
}

/// Shreds one slot. Keeps the next index and the chained root between batches.
pub struct Shredder {
    slot: Slot,
    parent_offset: u16,
    version: u16,
    key: SigningKey,
    next_index: u32,
    chained_root: [u8; 32],
    finished: bool,
    encoder: Encoder,
}

impl std::fmt::Debug for Shredder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The signing key is left out on purpose.
        f.debug_struct("Shredder")
            .field("slot", &self.slot)
            .field("parent_offset", &self.parent_offset)
            .field("version", &self.version)
            .field("next_index", &self.next_index)
            .field("finished", &self.finished)
            .finish_non_exhaustive()
    }
}

fn refuse(reason: impl Into<String>) -> FormatError {
    FormatError::Shredder(reason.into())
}

impl Shredder {
    /// A shredder for `slot` whose parent is `parent` (`parent < slot`, or both 0, and at
    /// most 65,535 slots back).
    pub fn new(slot: Slot, parent: Slot, version: u16, key: SigningKey) -> crate::Result<Self> {
        let offset = slot
            .0
            .checked_sub(parent.0)
            .ok_or_else(|| refuse(format!("parent {parent} is after slot {slot}")))?;
        if offset == 0 && slot.0 != 0 {
            return Err(refuse(format!("slot {slot} cannot be its own parent")));
        }
        let parent_offset = u16::try_from(offset).map_err(|_| {
            refuse(format!(
                "parent {parent} is more than 65535 slots before {slot}"
            ))
        })?;
        let encoder = Encoder::new(SHREDS_PER_FEC_SET, SHREDS_PER_FEC_SET)
            .ok_or_else(|| refuse("32:32 Reed-Solomon shape rejected"))?;
        Ok(Self {
            slot,
            parent_offset,
            version,
            key,
            next_index: 0,
            chained_root: [0; 32],
            finished: false,
            encoder,
        })
    }

    /// Sets the root the next FEC set chains to (normally the parent slot's last root).
    pub fn with_chained_root(mut self, root: Hash) -> Self {
        self.chained_root = root.0;
        self
    }

    /// Index the next data shred will get.
    pub fn next_index(&self) -> ShredIndex {
        ShredIndex(self.next_index)
    }

    /// Root of the last FEC set produced (or the initial chained root).
    pub fn last_root(&self) -> Hash {
        Hash(self.chained_root)
    }

    /// Shreds one data set; returns the data payloads (1203 bytes each) in index order.
    pub fn shred_batch(&mut self, data: &[u8], opts: BatchOptions) -> crate::Result<Vec<Vec<u8>>> {
        self.shred_batch_with_code(data, opts).map(|b| b.data)
    }

    /// Like [`Self::shred_batch`], also returning the code shreds.
    ///
    /// Errors (the shredder is unchanged): the slot's last batch was already shredded,
    /// `reference_tick > 63`, `Resign::Yes` without `LastInSlot::Yes`, or the batch would
    /// take an index past 32,768.
    pub fn shred_batch_with_code(
        &mut self,
        data: &[u8],
        opts: BatchOptions,
    ) -> crate::Result<ShredBatch> {
        if self.finished {
            return Err(refuse(format!(
                "slot {} already has its last shred",
                self.slot
            )));
        }
        if opts.reference_tick > REFERENCE_TICK_MASK {
            return Err(refuse(format!(
                "reference_tick {} is above 63",
                opts.reference_tick
            )));
        }
        let resign = opts.resign_last == Resign::Yes;
        if resign && opts.last_in_slot == LastInSlot::No {
            return Err(refuse("only the slot's last batch can be resigned"));
        }
        let sets = plan_sets(data.len(), resign);
        let shreds = sets.len() * SHREDS_PER_FEC_SET;
        let end = u64::from(self.next_index) + shreds as u64;
        if end > u64::from(MAX_SHREDS_PER_SLOT) {
            return Err(refuse(format!(
                "slot {}: {shreds} more shreds from index {} pass the {MAX_SHREDS_PER_SLOT} limit",
                self.slot, self.next_index
            )));
        }

        let last_flags = match opts.last_in_slot {
            LastInSlot::Yes => FLAG_LAST_IN_SLOT,
            LastInSlot::No => FLAG_DATA_COMPLETE,
        };
        let mut out = ShredBatch {
            data: Vec::with_capacity(shreds),
            code: Vec::with_capacity(shreds),
        };
        let num_sets = sets.len();
        for (n, set) in sets.into_iter().enumerate() {
            let capacity = if set.resigned {
                CAPACITY_RESIGNED
            } else {
                CAPACITY
            };
            // `plan_sets` bounds each range to 32 × capacity of the input.
            let bytes = data.get(set.start..set.end).unwrap_or_default();
            let mut chunks = bytes.chunks(capacity);
            let pieces: Vec<DataPiece<'_>> = (0..SHREDS_PER_FEC_SET)
                .map(|k| {
                    let last = n + 1 == num_sets && k + 1 == SHREDS_PER_FEC_SET;
                    let flags = opts.reference_tick | if last { last_flags } else { 0 };
                    DataPiece {
                        data: chunks.next().unwrap_or_default(),
                        flags,
                    }
                })
                .collect();
            let header = SetHeader {
                slot: self.slot.0,
                version: self.version,
                parent_offset: self.parent_offset,
                fec_set_index: self.next_index,
                first_code_index: self.next_index,
                resigned: set.resigned,
                chained_root: self.chained_root,
            };
            let built = build_set(&header, &pieces, &self.encoder, &self.key);
            self.chained_root = built.root;
            // ≤ 32,768 by the check above.
            self.next_index += SHREDS_PER_FEC_SET as u32;
            out.data.extend(built.data);
            out.code.extend(built.code);
        }
        if opts.last_in_slot == LastInSlot::Yes {
            self.finished = true;
        }
        Ok(out)
    }
}

/// One FEC set's share of the batch: `data[start..end]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PlannedSet {
    start: usize,
    end: usize,
    resigned: bool,
}

/// Splits `len` bytes into FEC sets: full plain sets while more than the last set can hold,
/// then one last set (resigned when asked). Always at least one set.
fn plan_sets(len: usize, resign_last: bool) -> Vec<PlannedSet> {
    let full = SHREDS_PER_FEC_SET * CAPACITY;
    let last_max = SHREDS_PER_FEC_SET
        * if resign_last {
            CAPACITY_RESIGNED
        } else {
            CAPACITY
        };
    let mut sets = Vec::with_capacity(len / full + 2);
    let mut start = 0;
    while len - start > last_max {
        let end = start + full.min(len - start);
        sets.push(PlannedSet {
            start,
            end,
            resigned: false,
        });
        start = end;
    }
    sets.push(PlannedSet {
        start,
        end: len,
        resigned: resign_last,
    });
    sets
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_cover_the_input_once() {
        for len in [0, 1, 963, 30_816, 30_817, 28_768, 28_769, 30_000, 100_000] {
            for resign in [false, true] {
                let sets = plan_sets(len, resign);
                assert_eq!(sets.first().map(|s| s.start), Some(0));
                assert_eq!(sets.last().map(|s| s.end), Some(len));
                assert!(sets.windows(2).all(|w| w[0].end == w[1].start));
                for s in &sets {
                    let cap = if s.resigned {
                        CAPACITY_RESIGNED
                    } else {
                        CAPACITY
                    };
                    assert!(s.end - s.start <= SHREDS_PER_FEC_SET * cap);
                }
                assert_eq!(
                    sets.iter().filter(|s| s.resigned).count(),
                    usize::from(resign)
                );
            }
        }
    }
}
