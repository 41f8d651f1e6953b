//! Where the transactions of recently read full blocks sit: for each block, the data set
//! holding each transaction (by its first signature) and the number of transactions before
//! that set. A transaction lookup (`getTransaction`) that finds its block here reads that one
//! data set instead of walking the block from its start; a block walked only part of the way
//! is resumed where the last walk stopped.
//!
//! Invariants:
//! - Only hints. A lookup reads the hinted set and checks the signature in it; a miss
//!   (a hint overwritten by another transaction with the same 8-byte signature prefix, a
//!   changed block) falls back to the walk from the block's start, which records afresh.
//! - A block is remembered under its [`MemoKey`]: the block's start, its data sets and the
//!   time its first shred was received. A full block's shreds never change while its meta
//!   stays; a block purged and received again (another version) gets a new first-shred time,
//!   so its key differs and the old entry is dropped at the next lookup. This process's own
//!   purges forget their range at once ([`TxMemo::forget`]).
//! - A block read whole also leaves its blockhash (its last entry's hash), under the same
//!   key: a later block whose parent it is takes its previous blockhash from here instead
//!   of reading the parent's last data set (`fetch::parent_blockhash`).
//! - Bounded: at most [`MEMO_BUDGET`] bytes by default (estimated per transaction;
//!   `Blockstore::set_transaction_memo_budget` changes it, 0 turns the memo off); the lowest
//!   slots go first when it is full (recent blocks are the ones asked for again).

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::sync::Mutex;

use crate::types::{Hash, Slot};

/// The memo's default memory bound, in estimated bytes (exported as `TX_MEMO_BUDGET`;
/// `Blockstore::set_transaction_memo_budget` changes it).
pub const MEMO_BUDGET: usize = 32 << 20;

/// Estimated bytes per remembered transaction (its entries in the block's map and in the
/// signature index, with their shares of the tables).
const ENTRY_BYTES: usize = 56;

/// Estimated fixed bytes per remembered block.
const BLOCK_BYTES: usize = 128;

/// What a block's hints are valid for (see the module's invariants).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct MemoKey {
    start: u32,
    first_shred_timestamp: u64,
    sets: usize,
    end: u32,
    /// Shreds in the block's widest data set (what reading one hinted set costs at most).
    widest: u32,
}

impl MemoKey {
    /// The key of a full block starting at `start` whose data sets are `ranges`.
    pub(crate) fn new(start: u32, first_shred_timestamp: u64, ranges: &[Range<u32>]) -> Self {
        Self {
            start,
            first_shred_timestamp,
            sets: ranges.len(),
            end: ranges.last().map_or(start, |r| r.end),
            widest: ranges
                .iter()
                .map(|r| r.end.saturating_sub(r.start))
                .max()
                .unwrap_or(0),
        }
    }
}

/// A data set by its first shred index, and the block's transactions before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SetHint {
    /// The set's first shred index.
    pub(crate) set_start: u32,
    /// How many of the block's transactions precede the set.
    pub(crate) tx_base: u32,
}

/// What the memo knows about a transaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Hint {
    /// The set that held it when its block was walked.
    Set(SetHint),
    /// Not among the sets walked so far; the walk stopped before this set.
    ResumeAt(SetHint),
    /// The block is not remembered (or was remembered under another key).
    Unknown,
}

#[derive(Debug)]
struct BlockTxs {
    key: MemoKey,
    /// First 8 signature bytes → the set holding that transaction.
    sets: HashMap<u64, SetHint>,
    /// The first set no walk has read yet (`None`: walked to the end).
    resume: Option<SetHint>,
    /// The block's blockhash, once a whole read of it found it.
    blockhash: Option<Hash>,
}

#[derive(Debug)]
struct Inner {
    blocks: BTreeMap<Slot, BlockTxs>,
    /// Signature prefix → the slot whose block holds a set hint for it (the latest recorded
    /// wins); only slots in `blocks`.
    located: HashMap<u64, Slot>,
    bytes: usize,
    /// At most this many estimated bytes are held (0: nothing is remembered).
    budget: usize,
}

impl Default for Inner {
    fn default() -> Self {
        Self {
            blocks: BTreeMap::new(),
            located: HashMap::new(),
            bytes: 0,
            budget: MEMO_BUDGET,
        }
    }
}

impl Inner {
    /// Drops the lowest slots until `more` bytes fit the budget.
    fn make_room(&mut self, more: usize) {
        while self.bytes.saturating_add(more) > self.budget {
            let Some((&lowest, _)) = self.blocks.first_key_value() else {
                break;
            };
            self.remove(lowest);
        }
    }

    /// Takes `slot`'s block out: its bytes and its entries in `located` go with it.
    fn remove(&mut self, slot: Slot) -> Option<BlockTxs> {
        let old = self.blocks.remove(&slot)?;
        self.bytes = self.bytes.saturating_sub(block_bytes(&old));
        for prefix in old.sets.keys() {
            if self.located.get(prefix) == Some(&slot) {
                self.located.remove(prefix);
            }
        }
        Some(old)
    }
}

fn block_bytes(block: &BlockTxs) -> usize {
    BLOCK_BYTES.saturating_add(block.sets.len().saturating_mul(ENTRY_BYTES))
}

/// The first 8 bytes of a signature, the memo's key for a transaction.
pub(crate) fn signature_prefix(signature: &[u8; 64]) -> u64 {
    let mut prefix = [0u8; 8];
    prefix.copy_from_slice(&signature[..8]);
    u64::from_le_bytes(prefix)
}

/// The memo (one per store).
#[derive(Debug, Default)]
pub(crate) struct TxMemo {
    inner: Mutex<Inner>,
}

impl TxMemo {
    /// Whether anything can be remembered (the budget is not 0).
    pub(crate) fn enabled(&self) -> bool {
        self.inner.lock().is_ok_and(|inner| inner.budget > 0)
    }

    /// What is known of `signature` in `slot`'s block, if it is remembered under `key`.
    pub(crate) fn lookup(&self, slot: Slot, key: MemoKey, signature: &[u8; 64]) -> Hint {
        let Ok(inner) = self.inner.lock() else {
            return Hint::Unknown;
        };
        match inner.blocks.get(&slot) {
            Some(block) if block.key == key => match block.sets.get(&signature_prefix(signature)) {
                Some(hint) => Hint::Set(*hint),
                None => block.resume.map_or(Hint::Unknown, Hint::ResumeAt),
            },
            _ => Hint::Unknown,
        }
    }

    /// When `slot`'s block is remembered under `key` walked to its end (a whole-block read
    /// has nothing to add but its blockhash): notes `hash` as its blockhash and says so; any
    /// other case changes nothing. One lock for both.
    pub(crate) fn note_blockhash_if_whole(&self, slot: Slot, key: MemoKey, hash: Hash) -> bool {
        let Ok(mut inner) = self.inner.lock() else {
            return false;
        };
        match inner.blocks.get_mut(&slot) {
            Some(block) if block.key == key && block.resume.is_none() => {
                block.blockhash = Some(hash);
                true
            }
            _ => false,
        }
    }

    /// Records a walk of `slot`'s block under `key`: the transactions `seen` (signature
    /// prefix and set), and where the walk stopped (`resume`, `None` at the block's end).
    /// `continued` says the walk resumed the remembered one (its sets are kept); otherwise
    /// the walk started at the block's start and replaces what was remembered.
    pub(crate) fn record(
        &self,
        slot: Slot,
        key: MemoKey,
        seen: &[(u64, SetHint)],
        resume: Option<SetHint>,
        continued: bool,
    ) {
        let Ok(mut inner) = self.inner.lock() else {
            return;
        };
        // Taken out whole (bytes and index entries), and put back below if it still fits.
        let mut block = inner
            .remove(slot)
            .filter(|old| continued && old.key == key)
            .unwrap_or_else(|| BlockTxs {
                key,
                sets: HashMap::new(),
                resume: None,
                blockhash: None,
            });
        // The first set a prefix was seen in stays (a block's first transaction with a
        // signature is the one a walk finds).
        for &(prefix, hint) in seen {
            block.sets.entry(prefix).or_insert(hint);
        }
        block.resume = resume;
        let bytes = block_bytes(&block);
        if bytes > inner.budget {
            return;
        }
        inner.make_room(bytes);
        inner.bytes = inner.bytes.saturating_add(bytes);
        for &prefix in block.sets.keys() {
            inner.located.insert(prefix, slot);
        }
        inner.blocks.insert(slot, block);
    }

    /// `slot`'s blockhash, if its block is remembered under `key` with one.
    pub(crate) fn blockhash(&self, slot: Slot, key: MemoKey) -> Option<Hash> {
        let inner = self.inner.lock().ok()?;
        let block = inner.blocks.get(&slot)?;
        (block.key == key).then_some(block.blockhash).flatten()
    }

    /// Notes `slot`'s blockhash, found by a whole read of the block remembered under `key`
    /// (nothing happens when it is not remembered under that key).
    pub(crate) fn note_blockhash(&self, slot: Slot, key: MemoKey, hash: Hash) {
        let Ok(mut inner) = self.inner.lock() else {
            return;
        };
        if let Some(block) = inner.blocks.get_mut(&slot)
            && block.key == key
        {
            block.blockhash = Some(hash);
        }
    }

    /// When a block's walk located `signature`: shreds in that block's widest data set
    /// (what a lookup that reads only the hinted set reads at most).
    pub(crate) fn located(&self, signature: &[u8; 64]) -> Option<u32> {
        let inner = self.inner.lock().ok()?;
        let prefix = signature_prefix(signature);
        let block = inner.blocks.get(inner.located.get(&prefix)?)?;
        block.sets.contains_key(&prefix).then_some(block.key.widest)
    }

    /// Sets the memory bound (0 turns the memo off); what no longer fits is dropped, lowest
    /// slots first.
    pub(crate) fn set_budget(&self, bytes: usize) {
        let Ok(mut inner) = self.inner.lock() else {
            return;
        };
        inner.budget = bytes;
        inner.make_room(0);
    }

    /// Forgets the blocks of slots `from..=to` (this process purged them).
    pub(crate) fn forget(&self, from: Slot, to: Slot) {
        let Ok(mut inner) = self.inner.lock() else {
            return;
        };
        let slots: Vec<Slot> = inner.blocks.range(from..=to).map(|(s, _)| *s).collect();
        for slot in slots {
            inner.remove(slot);
        }
    }

    /// Estimated bytes held now.
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> usize {
        self.inner.lock().map_or(0, |i| i.bytes)
    }
}

#[cfg(test)]
#[path = "tx_memo_tests.rs"]
mod tests;
