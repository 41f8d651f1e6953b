//! `EntryBatch`: the entries one fetch call returned, in whichever form the fetch design
//! produced them. The serial fetch hands out zero-copy views over replay's own buffer; the
//! pooled fetch (feature `fetch-pool`) hands out owned entries. PoH verification and the
//! executor see one interface for both.

use bstore_ledger::Hash;
use bstore_ledger::entry::{
    Entry, EntryView, PohEntry, TransactionIter, TransactionView, TxVersion, VersionedTransaction,
    encoded_transaction_len,
};
use bstore_ledger::fetch::DataSetView;

/// The entries of one fetch call, in slot order.
#[derive(Debug, Clone, Copy)]
pub enum EntryBatch<'a> {
    /// Data sets as views over the fetch buffer (no allocation per transaction).
    Views(&'a [DataSetView<'a>]),
    /// Owned entries (what the pooled fetch returns).
    Owned(&'a [Entry]),
}

impl<'a> EntryBatch<'a> {
    /// Number of entries.
    pub fn len(&self) -> usize {
        match self {
            Self::Views(sets) => sets.iter().map(|s| s.entries.len()).sum(),
            Self::Owned(entries) => entries.len(),
        }
    }

    /// True when the call returned no entry.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of transactions over all entries.
    pub fn num_transactions(&self) -> usize {
        match self {
            Self::Views(sets) => sets.iter().map(|s| s.entries.num_transactions()).sum(),
            Self::Owned(entries) => entries.iter().map(|e| e.transactions.len()).sum(),
        }
    }

    /// The entries in order (one boxed iterator per call, nothing per entry).
    pub fn entries(&self) -> Box<dyn Iterator<Item = BatchEntry<'a>> + 'a> {
        match *self {
            Self::Views(sets) => Box::new(
                sets.iter()
                    .flat_map(|s| s.entries.iter())
                    .map(BatchEntry::View),
            ),
            Self::Owned(entries) => Box::new(entries.iter().map(BatchEntry::Owned)),
        }
    }
}

/// One entry of a batch.
#[derive(Debug, Clone, Copy)]
pub enum BatchEntry<'a> {
    /// An entry borrowed from the fetched data set bytes.
    View(EntryView<'a>),
    /// An owned, decoded entry.
    Owned(&'a Entry),
}

impl<'a> BatchEntry<'a> {
    /// The entry's transactions in order.
    pub fn transactions(&self) -> BatchTransactions<'a> {
        match *self {
            Self::View(view) => BatchTransactions::View(view.transactions()),
            Self::Owned(entry) => BatchTransactions::Owned(entry.transactions.iter()),
        }
    }

    /// Number of transactions.
    pub fn num_transactions(&self) -> usize {
        match self {
            Self::View(view) => view.num_transactions(),
            Self::Owned(entry) => entry.transactions.len(),
        }
    }
}

impl PohEntry for BatchEntry<'_> {
    fn num_hashes(&self) -> u64 {
        match self {
            Self::View(v) => v.num_hashes(),
            Self::Owned(e) => e.num_hashes,
        }
    }

    fn hash(&self) -> Hash {
        match self {
            Self::View(v) => v.hash(),
            Self::Owned(e) => e.hash,
        }
    }

    fn is_tick(&self) -> bool {
        match self {
            Self::View(v) => v.is_tick(),
            Self::Owned(e) => e.is_tick(),
        }
    }

    fn mixin(&self) -> Option<Hash> {
        match self {
            Self::View(v) => PohEntry::mixin(v),
            Self::Owned(e) => PohEntry::mixin(*e),
        }
    }
}

/// The transactions of one [`BatchEntry`] (no allocation).
#[derive(Debug, Clone)]
pub enum BatchTransactions<'a> {
    /// Transactions of a borrowed entry.
    View(TransactionIter<'a>),
    /// Transactions of an owned entry.
    Owned(std::slice::Iter<'a, VersionedTransaction>),
}

impl<'a> Iterator for BatchTransactions<'a> {
    type Item = BatchTransaction<'a>;

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Self::View(it) => it.next().map(BatchTransaction::View),
            Self::Owned(it) => it.next().map(BatchTransaction::Owned),
        }
    }
}

/// One transaction of a batch.
#[derive(Debug, Clone, Copy)]
pub enum BatchTransaction<'a> {
    /// A transaction borrowed from the fetched data set bytes.
    View(TransactionView<'a>),
    /// An owned, decoded transaction.
    Owned(&'a VersionedTransaction),
}

impl<'a> BatchTransaction<'a> {
    /// Its wire size in bytes (signatures and message).
    pub fn serialized_len(&self) -> usize {
        match self {
            Self::View(tx) => tx.bytes().len(),
            Self::Owned(tx) => encoded_transaction_len(tx),
        }
    }

    /// Its message format.
    pub fn version(&self) -> TxVersion {
        match self {
            Self::View(tx) => tx.version(),
            Self::Owned(tx) => tx.version(),
        }
    }

    /// Number of signatures.
    pub fn num_signatures(&self) -> usize {
        match self {
            Self::View(tx) => tx.num_signatures(),
            Self::Owned(tx) => tx.signatures.len(),
        }
    }

    /// The first signature (the transaction's id), if it has one.
    pub fn first_signature(&self) -> Option<&'a [u8; 64]> {
        match *self {
            Self::View(tx) => tx.first_signature(),
            Self::Owned(tx) => tx.first_signature().map(|s| &s.0),
        }
    }
}
