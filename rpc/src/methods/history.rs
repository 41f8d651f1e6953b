//! A block's history rows, read with one sorted multi-get and decoded as views
//! (`bstore_ledger::history`), and the rule for a block whose statuses are not all there.
//!
//! Agave's RPC answers `null` for a rooted block with any transaction whose status is
//! missing or does not decode (`MissingTransactionMetadata`). bstore does the same, with one
//! exception: a block none of whose transactions has a status comes from a ledger that
//! records no history (bstore ingested it from shreds; nothing executed it), and is served
//! with `"meta": null` for each transaction.

use bstore_ledger::Slot;
use bstore_ledger::history::{SlotRewards, StatusMeta};
use bstore_ledger::store::{Blockstore, KvEngine};

use crate::encode::BlockHistory;
use crate::error::RpcError;

/// The raw rows of one block, as the engine hands them out (`R`: pinned or owned bytes).
#[derive(Debug)]
pub(crate) struct HistoryRows<R> {
    pub statuses: Vec<Option<R>>,
    pub rewards: Option<Vec<u8>>,
}

/// Why a block's history cannot be served (names the transaction or the rewards row).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Incomplete(pub String);

/// The first signature of every transaction of the block, in order (the ledger's rule).
pub(crate) use bstore_ledger::fetch::first_signatures as block_signatures;

/// Reads the block's statuses (one multi-get) and rewards.
pub(crate) fn read_rows<'s, E: KvEngine>(
    store: &'s Blockstore<E>,
    slot: Slot,
    signatures: &[&[u8; 64]],
) -> Result<HistoryRows<impl AsRef<[u8]> + 's>, RpcError> {
    Ok(HistoryRows {
        statuses: store.transaction_status_pinned(slot, signatures)?,
        rewards: store.rewards_row(slot)?,
    })
}

/// Decodes the rows by the rule in the module docs (a rewards row that does not decode
/// fails the block too, as in Agave).
pub(crate) fn decode<R: AsRef<[u8]>>(
    rows: &HistoryRows<R>,
) -> Result<BlockHistory<'_>, Incomplete> {
    let rewards = match rows.rewards.as_deref().map(SlotRewards::decode) {
        None => SlotRewards::default(),
        Some(Ok(r)) => r,
        Some(Err(e)) => return Err(Incomplete(format!("the rewards row does not decode: {e}"))),
    };
    if rows.statuses.iter().all(Option::is_none) {
        return Ok(BlockHistory {
            statuses: None,
            rewards,
        });
    }
    let mut statuses = Vec::with_capacity(rows.statuses.len());
    for (index, row) in rows.statuses.iter().enumerate() {
        let Some(row) = row else {
            return Err(Incomplete(format!("transaction {index} has no status")));
        };
        match StatusMeta::decode(row.as_ref()) {
            Ok(meta) => statuses.push(meta),
            Err(e) => {
                return Err(Incomplete(format!(
                    "the status of transaction {index} does not decode: {e}"
                )));
            }
        }
    }
    Ok(BlockHistory {
        statuses: Some(statuses),
        rewards,
    })
}
