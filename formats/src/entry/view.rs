//! Zero-copy views over a deshredded data set (`docs/fetch-pipeline.md#views-and-owned-entries`).
//!
//! `EntriesView::parse` walks the whole `Vec<Entry>` once with the same checks as
//! `decode_entries` (it accepts exactly the same inputs and reports the same first error)
//! and records where each entry and each transaction begins. It allocates two vectors, both
//! sized up front from the byte length, and nothing per transaction; afterwards every
//! accessor is infallible and borrows from the original buffer.

use super::EntryDefect;
use super::decode::{check_data_set_size, decode_entries};
use super::layout::{ENTRY_HEADER_BYTES, MIN_TRANSACTION_BYTES};
use super::model::Entry;
use super::reader::{Fault, Reader, Step};
use super::scan::skip_transaction;
use super::tx_view::TransactionView;
use crate::types::Hash;

/// Where an entry's bytes begin and which transactions are its own.
#[derive(Debug, Clone, Copy)]
struct EntrySlot {
    start: u32,
    /// Index into `EntriesView::txs` of the entry's first transaction.
    first_tx: u32,
}

/// A validated data set, borrowed.
#[derive(Debug, Clone)]
pub struct EntriesView<'a> {
    /// The encoded vector, without the ignored trailing bytes.
    bytes: &'a [u8],
    entries: Vec<EntrySlot>,
    /// Start offset of every transaction, in order. Offsets fit in `u32` because a data set
    /// is at most `MAX_DATA_SET_BYTES`.
    txs: Vec<u32>,
}

impl<'a> EntriesView<'a> {
    /// Validates the whole data set once and records entry and transaction offsets.
    pub fn parse(bytes: &'a [u8]) -> crate::Result<EntriesView<'a>> {
        Ok(Self::walk(bytes)?)
    }

    fn walk(bytes: &'a [u8]) -> Step<Self> {
        let mut r = Reader::new(bytes);
        let n = r.u64_count("entry count", ENTRY_HEADER_BYTES)?;
        let mut entries = Vec::with_capacity(n);
        // Upper bound on the transactions the bytes can hold: the vector never grows.
        let mut txs = Vec::with_capacity(
            r.remaining().saturating_sub(n * ENTRY_HEADER_BYTES) / MIN_TRANSACTION_BYTES,
        );
        for _ in 0..n {
            let start = offset32(&r)?;
            r.skip(8, "entry num_hashes")?;
            r.skip(32, "entry hash")?;
            let count = r.u64_count("transaction count", MIN_TRANSACTION_BYTES)?;
            entries.push(EntrySlot {
                start,
                first_tx: txs.len() as u32,
            });
            for _ in 0..count {
                txs.push(offset32(&r)?);
                skip_transaction(&mut r)?;
            }
        }
        check_data_set_size(r.pos())?;
        Ok(Self {
            bytes: bytes.get(..r.pos()).unwrap_or(bytes),
            entries,
            txs,
        })
    }

    /// The view of an empty batch (the 8-byte zero count): what a block marker's data set
    /// holds as entries.
    pub fn empty() -> EntriesView<'static> {
        EntriesView {
            bytes: &[0; 8],
            entries: Vec::new(),
            txs: Vec::new(),
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when the vector holds no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Number of transactions over all entries.
    pub fn num_transactions(&self) -> usize {
        self.txs.len()
    }

    /// Bytes the encoded vector spans (trailing bytes excluded).
    pub fn encoded_len(&self) -> usize {
        self.bytes.len()
    }

    /// The encoded vector (trailing bytes excluded).
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The entries in order, borrowing the data set's bytes.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = EntryView<'a>> + '_ {
        (0..self.entries.len()).map(|i| self.entry_at(i))
    }

    /// Entry `i` (0-based), or `None` past the last one.
    pub fn get(&self, i: usize) -> Option<EntryView<'a>> {
        (i < self.entries.len()).then(|| self.entry_at(i))
    }

    /// Every transaction of every entry, in order, found through the recorded offsets.
    pub fn transactions(&self) -> impl ExactSizeIterator<Item = TransactionView<'a>> + '_ {
        (0..self.txs.len()).map(|i| self.tx_at(i))
    }

    /// Transaction `i` counted over the whole data set.
    pub fn transaction(&self, i: usize) -> Option<TransactionView<'a>> {
        (i < self.txs.len()).then(|| self.tx_at(i))
    }

    /// Owned copies of all entries.
    pub fn to_owned_entries(&self) -> crate::Result<Vec<Entry>> {
        decode_entries(self.bytes)
    }

    fn entry_at(&self, i: usize) -> EntryView<'a> {
        let start = self.entries.get(i).map_or(0, |e| e.start as usize);
        let end = self
            .entries
            .get(i + 1)
            .map_or(self.bytes.len(), |e| e.start as usize);
        EntryView {
            bytes: self.bytes.get(start..end).unwrap_or(&[]),
        }
    }

    fn tx_at(&self, i: usize) -> TransactionView<'a> {
        let start = self.txs.get(i).map_or(0, |&s| s as usize);
        let end = self.tx_end(i);
        TransactionView::from_validated(self.bytes.get(start..end).unwrap_or(&[]))
    }

    /// A transaction ends where the next one starts unless it is its entry's last, in which
    /// case it ends where the next entry starts (or at the end of the vector).
    fn tx_end(&self, i: usize) -> usize {
        let next_entry = self.entries.partition_point(|e| e.first_tx as usize <= i);
        let entry_end = self
            .entries
            .get(next_entry)
            .map_or(self.bytes.len(), |e| e.start as usize);
        match self.txs.get(i + 1) {
            Some(&next) if (next as usize) < entry_end => next as usize,
            _ => entry_end,
        }
    }
}

fn offset32(r: &Reader<'_>) -> Step<u32> {
    u32::try_from(r.pos()).map_err(|_| Fault {
        offset: r.pos(),
        defect: EntryDefect::LengthTooLarge {
            what: "data set",
            declared: r.pos() as u64,
            max: u32::MAX as u64,
        },
    })
}

/// One validated entry, borrowed: its header and the bytes of its transactions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EntryView<'a> {
    bytes: &'a [u8],
}

impl<'a> EntryView<'a> {
    /// Hashes since the previous entry (the entry's first 8 bytes, little-endian).
    pub fn num_hashes(&self) -> u64 {
        self.bytes
            .first_chunk::<8>()
            .map_or(0, |b| u64::from_le_bytes(*b))
    }

    /// The entry's hash, borrowed from the data set's bytes.
    pub fn hash_bytes(&self) -> &'a [u8; 32] {
        const ZERO: [u8; 32] = [0; 32];
        self.bytes
            .get(8..)
            .and_then(|b| b.first_chunk::<32>())
            .unwrap_or(&ZERO)
    }

    /// The entry's hash (a 32-byte copy).
    pub fn hash(&self) -> Hash {
        Hash(*self.hash_bytes())
    }

    /// Number of transactions in the entry (0 for a tick).
    pub fn num_transactions(&self) -> usize {
        self.bytes
            .get(40..)
            .and_then(|b| b.first_chunk::<8>())
            .map_or(0, |b| u64::from_le_bytes(*b) as usize)
    }

    /// A tick is an entry without transactions.
    pub fn is_tick(&self) -> bool {
        self.num_transactions() == 0
    }

    /// The entry's bytes (header and transactions).
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The entry's transactions. Each step re-walks one (validated) transaction to find its
    /// end: the view keeps no per-entry offset table it could borrow for `'a`.
    pub fn transactions(&self) -> TransactionIter<'a> {
        TransactionIter {
            reader: Reader::new(self.bytes.get(ENTRY_HEADER_BYTES..).unwrap_or(&[])),
            left: self.num_transactions(),
        }
    }

    /// All signatures of all transactions, in order (the PoH mixin's leaves).
    pub fn signatures(&self) -> impl Iterator<Item = &'a [u8; 64]> + use<'a> {
        self.transactions().flat_map(|tx| tx.signatures())
    }
}

/// Iterator over the transactions of one `EntryView`.
#[derive(Debug, Clone)]
pub struct TransactionIter<'a> {
    reader: Reader<'a>,
    left: usize,
}

impl<'a> Iterator for TransactionIter<'a> {
    type Item = TransactionView<'a>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.left == 0 {
            return None;
        }
        let start = self.reader.pos();
        // Validated bytes: the walk cannot fail; if it did, iteration would just stop.
        skip_transaction(&mut self.reader).ok()?;
        self.left -= 1;
        let bytes = self.reader.bytes().get(start..self.reader.pos())?;
        Some(TransactionView::from_validated(bytes))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for TransactionIter<'_> {}
