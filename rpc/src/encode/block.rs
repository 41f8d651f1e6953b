//! The block object (Agave `UiConfirmedBlock`): `previousBlockhash`, `blockhash`,
//! `parentSlot`, then `transactions` or `signatures` by detail level, `rewards` and
//! `numRewardPartitions` when asked, `blockTime`, `blockHeight`.

use bstore_ledger::fetch::DataSetView;
use bstore_ledger::history::{SlotRewards, StatusMeta};
use bstore_ledger::{Hash, Slot};

use super::json::JsonOut;
use super::meta::write_rewards;
use super::transaction::write_transaction_with_meta;
use crate::error::RpcError;
use crate::params::{BlockConfig, Encoding, TransactionDetails};

/// The block facts that do not come from its transactions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BlockHeader {
    pub parent_slot: Slot,
    /// The slot's last entry hash.
    pub blockhash: Hash,
    /// The parent's last entry hash (the default hash when the parent is not stored).
    pub previous_blockhash: Hash,
    pub block_time: Option<i64>,
    pub block_height: Option<u64>,
}

/// What the validator recorded about a block's execution: its history rows, as the methods
/// read them from the ledger.
#[derive(Debug, Default)]
pub(crate) struct BlockHistory<'a> {
    /// One status per transaction, in block order; `None` when the ledger holds no status
    /// for any of them (a ledger ingested from shreds): each `meta` is then `null`.
    pub statuses: Option<Vec<StatusMeta<'a>>>,
    pub rewards: SlotRewards<'a>,
}

/// The encoded size expected from the data set bytes: the encoder's first allocation (so
/// the buffer rarely regrows) and what `getBlock` reserves before encoding.
pub(crate) fn encoded_size_hint(sets: &[DataSetView<'_>], cfg: &BlockConfig) -> usize {
    let bytes: usize = sets.iter().map(|s| s.entries.bytes().len()).sum();
    let factor = match (cfg.details, cfg.encoding) {
        (TransactionDetails::None, _) => 0,
        (TransactionDetails::Signatures, _) => 1,
        (_, Encoding::Base64) => 2,
        _ => 3,
    };
    bytes.saturating_mul(factor).saturating_add(512)
}

/// Encodes the block. Fails (as Agave does, for the whole block) on a v0 or v1 transaction
/// above the client's `maxSupportedTransactionVersion` (or when it set none).
pub(crate) fn encode_block(
    header: &BlockHeader,
    sets: &[DataSetView<'_>],
    history: &BlockHistory<'_>,
    cfg: &BlockConfig,
) -> Result<String, RpcError> {
    let mut out = JsonOut::with_capacity(encoded_size_hint(sets, cfg));
    out.raw("{\"previousBlockhash\":");
    out.b58(header.previous_blockhash.as_bytes());
    out.raw(",\"blockhash\":");
    out.b58(header.blockhash.as_bytes());
    out.raw(",\"parentSlot\":");
    out.u64(header.parent_slot.0);
    let transactions = || sets.iter().flat_map(|s| s.entries.transactions());
    match cfg.details {
        TransactionDetails::Full | TransactionDetails::Accounts => {
            out.raw(",\"transactions\":");
            let statuses = history.statuses.as_deref();
            out.try_array(transactions().enumerate(), |out, (i, tx)| {
                let meta = statuses.and_then(|s| s.get(i));
                write_transaction_with_meta(out, &tx, meta, cfg)
            })?;
        }
        TransactionDetails::Signatures => {
            out.raw(",\"signatures\":");
            // A transaction always has a first signature once it sanitizes; a stored one
            // without shows as the all-zero signature rather than failing the block.
            out.array(transactions(), |out, tx| {
                out.b58(tx.first_signature().unwrap_or(&[0u8; 64]))
            });
        }
        TransactionDetails::None => {}
    }
    if cfg.rewards {
        out.raw(",\"rewards\":");
        write_rewards(&mut out, &history.rewards.rewards);
    }
    // Agave writes the partition count whether or not rewards were asked for.
    if let Some(n) = history.rewards.num_partitions {
        out.raw(",\"numRewardPartitions\":");
        out.u64(n);
    }
    out.raw(",\"blockTime\":");
    out.opt_i64(header.block_time);
    out.raw(",\"blockHeight\":");
    out.opt_u64(header.block_height);
    out.raw("}");
    out.into_string()
}
