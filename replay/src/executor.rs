//! The pluggable executor: what replay does with entries once their PoH checked out.
//!
//! bstore has no bank; the default [`CountingExecutor`] counts and checks what a bank would
//! refuse before running anything (a transaction larger than its version allows, one
//! without a signature). A validator would plug its bank in here.

use bstore_ledger::Slot;
use bstore_ledger::entry::MAX_LEGACY_TRANSACTION_BYTES;

use crate::batch::EntryBatch;

/// Largest legacy or v0 transaction (Agave's `PACKET_DATA_SIZE`: 1280 − 40 − 8 bytes); a v1
/// transaction may reach `MAX_V1_TRANSACTION_BYTES` (4,096), as Agave's bank allows.
pub const MAX_TRANSACTION_BYTES: usize = MAX_LEGACY_TRANSACTION_BYTES;

/// Why an executor refused a batch; replay marks the slot dead with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExecuteError {
    /// The refused entry, counted from 0 within the slot.
    pub entry: usize,
    /// The refused transaction, counted from 0 within its entry.
    pub transaction: usize,
    /// Human-readable cause.
    pub reason: String,
}

/// Runs the entries of a slot, batch by batch, in order.
pub trait Executor {
    /// Executes one fetch call's entries of `slot`. `first_entry` is the slot-relative index
    /// of the batch's first entry. Called only after the batch's PoH verified.
    fn execute(
        &mut self,
        slot: Slot,
        first_entry: usize,
        batch: &EntryBatch<'_>,
    ) -> Result<(), ExecuteError>;
}

impl<E: Executor + ?Sized> Executor for Box<E> {
    fn execute(
        &mut self,
        slot: Slot,
        first_entry: usize,
        batch: &EntryBatch<'_>,
    ) -> Result<(), ExecuteError> {
        (**self).execute(slot, first_entry, batch)
    }
}

/// What a [`CountingExecutor`] has seen.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ExecutionTotals {
    pub entries: u64,
    pub transactions: u64,
    pub signatures: u64,
    /// Serialized transaction bytes.
    pub transaction_bytes: u64,
}

/// The default executor: counts entries, transactions, signatures and bytes, and refuses a
/// transaction larger than its version allows ([`MAX_TRANSACTION_BYTES`] for legacy and v0,
/// 4,096 bytes for v1) or without a signature.
#[derive(Debug, Clone, Default)]
pub struct CountingExecutor {
    totals: ExecutionTotals,
}

impl CountingExecutor {
    /// A fresh counter.
    pub fn new() -> Self {
        Self::default()
    }

    /// Everything executed so far, over all slots.
    pub fn totals(&self) -> ExecutionTotals {
        self.totals
    }
}

impl Executor for CountingExecutor {
    fn execute(
        &mut self,
        _slot: Slot,
        first_entry: usize,
        batch: &EntryBatch<'_>,
    ) -> Result<(), ExecuteError> {
        let mut totals = self.totals;
        for (i, entry) in batch.entries().enumerate() {
            totals.entries += 1;
            for (t, tx) in entry.transactions().enumerate() {
                let refuse = |reason: String| ExecuteError {
                    entry: first_entry + i,
                    transaction: t,
                    reason,
                };
                let len = tx.serialized_len();
                let max = tx.version().max_transaction_bytes();
                if len > max {
                    return Err(refuse(format!(
                        "transaction is {len} bytes, more than its version allows ({max})"
                    )));
                }
                let signatures = tx.num_signatures();
                if signatures == 0 {
                    return Err(refuse("transaction has no signature".into()));
                }
                totals.transactions += 1;
                totals.signatures += signatures as u64;
                totals.transaction_bytes += len as u64;
            }
        }
        // Counted only for a batch accepted whole, like a bank that commits or aborts.
        self.totals = totals;
        Ok(())
    }
}
