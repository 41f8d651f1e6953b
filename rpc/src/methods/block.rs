//! `getBlock`: availability check, one fetch of the slot (one multi-get, zero-copy views),
//! the parent's last data set for `previousBlockhash`, then the encoder, all on a fetch
//! worker so the I/O threads only move bytes.

use bstore_ledger::fetch::{FetchBuffer, fetch_block_views, parent_blockhash};
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
pub(crate) struct BlockBounds {
    /// Reserved for the encoded text before encoding (estimate) and after (capacity).
    pub budget: Budget,
    /// `Limits::confirmed_window_slots`.
    pub confirmed_window: u64,
}

/// `getBlock` on a fetch worker.
pub(crate) async fn get_block(ctx: &Ctx, slot: Slot, cfg: BlockConfig) -> Result<Answer, RpcError> {
    let bounds = BlockBounds {
        budget: ctx.budget.clone(),
        confirmed_window: ctx.confirmed_window,
    };
    ctx.workers
        .run(move |store, buf| block_json(store, buf, slot, &cfg, &bounds))
        .await
}

/// The block's `previousBlockhash` (`bstore_ledger::fetch::parent_blockhash`: the parent's
/// blockhash when the parent is full and not dead).
///
/// Agave's RPC (`get_rooted_block(slot, require_previous_blockhash = true)`) refuses a
/// block without one; its blockstore without that flag (ledger-tool) answers with the
/// default hash. bstore answers with the default hash (`11111111111111111111111111111111`),
/// so the first block of a ledger that starts at a snapshot is still served.
pub(crate) fn previous_blockhash(
    store: &Blockstore,
    parent: Option<Slot>,
    buf: &mut FetchBuffer,
) -> Result<Hash, RpcError> {
    Ok(parent_blockhash(store, parent, buf)?.unwrap_or_default())
}

/// Fetches `slot` and encodes it per `cfg` (what a fetch worker runs). The text's size is
/// reserved from the fetched data bytes before encoding, then set to the text's capacity:
/// a block that does not fit the budget is refused before its text exists.
pub(crate) fn block_json(
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
    let views = fetch_block_views(store, slot, &available.meta, buf)
        .map_err(|e| fetch_error(store, bounds, slot, e))?;
    let (true, Some(blockhash)) = (views.is_full, views.blockhash()) else {
        return Err(RpcError::BlockNotAvailable { slot });
    };
    let header = BlockHeader {
        parent_slot: available.meta.parent_slot.unwrap_or_default(),
        blockhash,
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
