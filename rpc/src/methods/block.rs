//! `getBlock`: availability check, one fetch of the slot (one multi-get, zero-copy views),
//! the parent's last data set for `previousBlockhash`, then the encoder, all on a fetch
//! worker so the I/O threads only move bytes.

use bstore_ledger::fetch::{AllowDead, FetchBuffer, ViewFetch, last_entry_hash};
use bstore_ledger::store::Blockstore;
use bstore_ledger::{Hash, LedgerError, Slot};

use super::{Answer, Ctx};
use crate::budget::Budget;
use crate::chain::Chain;
use crate::encode::{BlockHeader, encode_block, encoded_size_hint};
use crate::error::RpcError;
use crate::history::{self, block_signatures, read_rows};
use crate::params::BlockConfig;

/// How a block fetch is bounded besides the worker pool.
#[derive(Debug, Clone)]
pub struct BlockBounds {
    /// Reserved for the encoded text before encoding (estimate) and after (capacity).
    pub budget: Budget,
    /// `Limits::confirmed_window_slots`.
    pub confirmed_window: u64,
}

/// `getBlock` on a fetch worker.
pub async fn get_block(ctx: &Ctx, slot: Slot, cfg: BlockConfig) -> Result<Answer, RpcError> {
    let bounds = BlockBounds {
        budget: ctx.budget.clone(),
        confirmed_window: ctx.confirmed_window,
    };
    ctx.workers
        .run(move |store, buf| block_json(store, buf, slot, &cfg, &bounds))
        .await
}

/// The parent's last entry hash, from the parent's last completed data set only.
///
/// Agave's RPC (`get_rooted_block(slot, require_previous_blockhash = true)`) refuses a
/// block whose parent has no entries in the ledger; its blockstore without that flag
/// (ledger-tool) answers with the default hash. bstore answers with the default hash
/// (`11111111111111111111111111111111`), so the first block of a ledger that starts at a
/// snapshot is still served. A dead parent, or one whose last set does not decode, counts
/// as absent, as in Agave.
pub fn previous_blockhash(
    store: &Blockstore,
    parent: Option<Slot>,
    buf: &mut FetchBuffer,
) -> Result<Hash, RpcError> {
    let Some(parent) = parent else {
        return Ok(Hash::default());
    };
    if store.is_dead(parent)? {
        return Ok(Hash::default());
    }
    match last_entry_hash(store, parent, buf) {
        Ok(hash) => Ok(hash.unwrap_or_default()),
        Err(e) => {
            log::warn!("parent slot {parent}: {e}; previousBlockhash is the default hash");
            Ok(Hash::default())
        }
    }
}

/// Fetches `slot` and encodes it per `cfg` (what a fetch worker runs). The text's size is
/// reserved from the fetched data bytes before encoding, then set to the text's capacity:
/// a block that does not fit the budget is refused before its text exists.
pub fn block_json(
    store: &Blockstore,
    buf: &mut FetchBuffer,
    slot: Slot,
    cfg: &BlockConfig,
    bounds: &BlockBounds,
) -> Result<Answer, RpcError> {
    let available = Chain::new(store, bounds.confirmed_window).available(slot, cfg.commitment)?;
    let previous = previous_blockhash(store, available.meta.parent_slot, buf)?;
    let block_time = store.block_time(slot)?;
    let block_height = store.block_height(slot)?;
    let views = store
        .fetch_slot_views(slot, 0, AllowDead::No, buf)
        .map_err(|e| fetch_error(store, bounds, slot, e))?;
    let last_entry = views
        .sets
        .last()
        .and_then(|set| set.entries.get(set.entries.len().checked_sub(1)?));
    let (true, Some(last_entry)) = (views.is_full, last_entry) else {
        return Err(RpcError::BlockNotAvailable { slot });
    };
    let header = BlockHeader {
        parent_slot: available.meta.parent_slot.unwrap_or_default(),
        blockhash: last_entry.hash(),
        previous_blockhash: previous,
        block_time,
        block_height,
    };
    let rows = read_rows(store, slot, &block_signatures(&views.sets))?;
    let history = match history::decode(&rows) {
        Ok(history) => history,
        Err(incomplete) => {
            log::warn!(
                "getBlock {slot}: {}; answered null, as Agave does",
                incomplete.0
            );
            return Answer::reserve("null".to_string(), &bounds.budget);
        }
    };
    let hint = encoded_size_hint(&views.sets, cfg).saturating_add(history_size_hint(&rows, cfg));
    let mut reservation = bounds.budget.reserve(hint)?;
    let text = encode_block(&header, &views.sets, &history, cfg)?;
    reservation.resize(text.capacity())?;
    Ok(Answer { text, reservation })
}

/// JSON meta is about three times its protobuf (base58 keys, field names).
fn history_size_hint<R: AsRef<[u8]>>(rows: &history::HistoryRows<R>, cfg: &BlockConfig) -> usize {
    if !matches!(
        cfg.details,
        crate::params::TransactionDetails::Full | crate::params::TransactionDetails::Accounts
    ) {
        return 0;
    }
    let bytes: usize = rows
        .statuses
        .iter()
        .flatten()
        .map(|r| r.as_ref().len())
        .sum();
    bytes.saturating_mul(3)
}

/// A slot marked dead since the availability check is simply not available; one purged
/// during the fetch is cleaned up (-32001, never a torn block); anything else is a ledger
/// fault, logged with its context and reported as an internal error.
fn fetch_error(store: &Blockstore, bounds: &BlockBounds, slot: Slot, e: LedgerError) -> RpcError {
    match e {
        LedgerError::DeadSlot { .. } => RpcError::BlockNotAvailable { slot },
        LedgerError::SlotCleanedUp { .. } => {
            match Chain::new(store, bounds.confirmed_window).first_available_block() {
                Ok(first_available) => RpcError::BlockCleanedUp {
                    slot,
                    first_available,
                },
                Err(e) => e,
            }
        }
        other => {
            log::error!("getBlock {slot}: {other}");
            RpcError::from(other)
        }
    }
}
