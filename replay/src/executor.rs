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
    /// Entries executed, ticks included.
    pub entries: u64,
    /// Transactions executed.
    pub transactions: u64,
    /// Signatures over those transactions.
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

#[cfg(test)]
mod tests {
    use bstore_ledger::entry::{
        CompiledInstruction, Entry, LegacyMessage, MessageHeader, TransactionConfig, V1Message,
        VersionedMessage, VersionedTransaction, encoded_transaction_len,
    };
    use bstore_ledger::{Hash, Pubkey, Signature};

    use super::*;

    const HEADER: MessageHeader = MessageHeader {
        num_required_signatures: 1,
        num_readonly_signed_accounts: 0,
        num_readonly_unsigned_accounts: 1,
    };

    fn instruction(data_len: usize) -> Vec<CompiledInstruction> {
        vec![CompiledInstruction {
            program_id_index: 1,
            accounts: vec![0],
            data: vec![7; data_len],
        }]
    }

    fn legacy(data_len: usize) -> VersionedTransaction {
        VersionedTransaction {
            signatures: vec![Signature([1; 64])],
            message: VersionedMessage::Legacy(LegacyMessage {
                header: HEADER,
                account_keys: vec![Pubkey([2; 32]), Pubkey([3; 32])],
                recent_blockhash: Hash([4; 32]),
                instructions: instruction(data_len),
            }),
        }
    }

    fn v1(data_len: usize) -> VersionedTransaction {
        VersionedTransaction {
            signatures: vec![Signature([1; 64])],
            message: VersionedMessage::V1(V1Message {
                header: HEADER,
                config: TransactionConfig {
                    compute_unit_limit: Some(200_000),
                    ..TransactionConfig::default()
                },
                recent_blockhash: Hash([4; 32]),
                account_keys: vec![Pubkey([2; 32]), Pubkey([3; 32])],
                instructions: instruction(data_len),
            }),
        }
    }

    fn run(tx: VersionedTransaction) -> Result<(), ExecuteError> {
        let entries = [Entry {
            num_hashes: 1,
            hash: Hash([5; 32]),
            transactions: vec![tx],
        }];
        CountingExecutor::new().execute(Slot(1), 0, &EntryBatch::Owned(&entries))
    }

    #[test]
    fn the_size_cap_follows_the_transaction_version() {
        let (big_v1, too_big_v1, big_legacy) = (v1(2_000), v1(4_000), legacy(2_000));
        assert!(encoded_transaction_len(&big_v1) > MAX_TRANSACTION_BYTES);
        assert!(encoded_transaction_len(&too_big_v1) > 4096);
        run(big_v1).expect("a v1 transaction may exceed a packet");
        run(v1(10)).expect("a small v1 transaction");
        run(legacy(10)).expect("a small legacy transaction");
        let e = run(big_legacy).expect_err("a legacy transaction may not");
        assert!(e.reason.contains("(1232)"), "{}", e.reason);
        let e = run(too_big_v1).expect_err("nor a v1 one over 4,096 bytes");
        assert!(e.reason.contains("(4096)"), "{}", e.reason);
    }
}
