//! `getBlock`: availability check, then the ledger's block reader handed the meta it read
//! (one fetch of the slot: one multi-get, zero-copy views; the parent's last data set for
//! `previousBlockhash`), then the encoder, all on a fetch worker so the I/O threads only
//! move bytes. A rooted block's answer kept from an earlier request is checked and
//! answered on the I/O thread instead ([`BlockAnswers`]).

use std::sync::Arc;

use bstore_ledger::fetch::{Block, BlockReader, FetchBuffer, SlotRead};
use bstore_ledger::store::{Blockstore, KvEngine};
use bstore_ledger::{LedgerError, Slot};

use super::block_answers::BlockAnswers;
use super::{Answer, Ctx, Text, inline};
use crate::encode::{BlockHeader, encode_block, encoded_size_hint};
use crate::error::RpcError;
use crate::methods::budget::Budget;
use crate::methods::chain::Chain;
use crate::methods::history::{self, HistoryRows};
use crate::params::BlockConfig;

/// How a block fetch is bounded besides the worker pool.
#[derive(Debug, Clone)]
pub(crate) struct BlockBounds {
    /// Reserved for the encoded text before encoding (estimate) and after (capacity).
    pub budget: Budget,
    /// `Limits::confirmed_window_slots`.
    pub confirmed_window: u64,
    /// Rooted blocks' answers kept across requests.
    pub answers: Arc<BlockAnswers>,
    /// Whether a kept answer is still to be looked for (it was not on the I/O thread).
    pub look_for_kept: bool,
}

/// `getBlock`: a kept answer on the I/O thread when there is one and it is still the
/// answer (and point reads may run there), else on a fetch worker.
pub(crate) async fn get_block<E: KvEngine + 'static>(
    ctx: &Ctx<E>,
    slot: Slot,
    cfg: BlockConfig,
) -> Result<Answer, RpcError> {
    let answers = Arc::clone(&ctx.block_answers);
    let here = ctx.inline_point_reads && answers.holds(slot, &cfg);
    if here {
        let window = ctx.confirmed_window;
        let kept = inline::run(&ctx.store, |store, _| {
            answers.reuse(&Chain::new(store, window), slot, &cfg)
        })?;
        if let Some(text) = kept {
            return Answer::reserve(Text::Shared(text), &ctx.budget);
        }
    }
    let bounds = BlockBounds {
        budget: ctx.budget.clone(),
        confirmed_window: ctx.confirmed_window,
        answers,
        look_for_kept: !here,
    };
    ctx.workers
        .run(move |store, buf| block_json(store, buf, slot, &cfg, &bounds))
        .await
}

/// The block of `slot` by the ledger's [`BlockReader`], with Agave's answers for what is no
/// block: a slot not stored, not full, without entries, or dead (checked by the reader
/// unless the caller hands over a meta it checked itself) is "not available"; one purged
/// (by this process, also during the read, or by another: not stored and below the first
/// available block) is cleaned up (-32001, never a torn block); anything else is a ledger fault, logged with its
/// context and reported as an internal error. `getBlock` and `FetchedBlock` both read here.
pub(crate) fn read_block<'b, E: KvEngine>(
    chain: &Chain<'_, E>,
    slot: Slot,
    read: SlotRead,
    buf: &'b mut FetchBuffer,
) -> Result<Block<'b>, RpcError> {
    match chain.store().block(slot, read, buf) {
        Ok(Some(block)) => Ok(block),
        // A slot with no meta below the first available block was purged (by another
        // process, whose purge marks this one cannot see): Agave's `check_slot_cleaned_up`.
        Ok(None) => {
            let first_available = chain.first_available_block()?;
            Err(if slot < first_available {
                RpcError::BlockCleanedUp {
                    slot,
                    first_available,
                }
            } else {
                RpcError::BlockNotAvailable { slot }
            })
        }
        Err(e) => Err(read_error(chain, slot, e)),
    }
}

/// The answer to a read of `slot`'s block (or of what it is read from) that failed with
/// `e`: a dead slot is not available, a purged one cleaned up, anything else a ledger
/// fault, logged with its context and reported as an internal error.
pub(crate) fn read_error<E: KvEngine>(
    chain: &Chain<'_, E>,
    slot: Slot,
    e: LedgerError,
) -> RpcError {
    match e {
        LedgerError::DeadSlot { .. } => RpcError::BlockNotAvailable { slot },
        LedgerError::SlotCleanedUp { .. } => match chain.first_available_block() {
            Ok(first_available) => RpcError::BlockCleanedUp {
                slot,
                first_available,
            },
            Err(e) => e,
        },
        other => {
            log::error!("getBlock {slot}: {other}");
            RpcError::from(other)
        }
    }
}

/// The encoder's header of `block`. Its `previousBlockhash` is the default hash
/// (`11111111111111111111111111111111`) when the parent gives none: Agave's RPC
/// (`get_rooted_block(slot, require_previous_blockhash = true)`) refuses such a block, its
/// blockstore without that flag (ledger-tool) answers with the default hash, and bstore
/// does the latter so the first block of a ledger that starts at a snapshot is served.
pub(crate) fn block_header(block: &Block<'_>) -> BlockHeader {
    BlockHeader {
        parent_slot: block.parent_slot(),
        blockhash: block.blockhash,
        previous_blockhash: block.previous_blockhash.unwrap_or_default(),
        block_time: block.block_time,
        block_height: block.block_height,
    }
}

/// Fetches `slot` and encodes it per `cfg` (what a fetch worker runs). The text's size is
/// reserved from the fetched data bytes before encoding, then set to the text's capacity:
/// a block that does not fit the budget is refused before its text exists.
pub(crate) fn block_json<E: KvEngine>(
    store: &Blockstore<E>,
    buf: &mut FetchBuffer,
    slot: Slot,
    cfg: &BlockConfig,
    bounds: &BlockBounds,
) -> Result<Answer, RpcError> {
    let chain = Chain::new(store, bounds.confirmed_window);
    if bounds.look_for_kept
        && let Some(text) = bounds.answers.reuse(&chain, slot, cfg)?
    {
        return Answer::reserve(Text::Shared(text), &bounds.budget);
    }
    let available = chain.available(slot, cfg.commitment)?;
    // What the block is read from, before it is read (as its parent's state is, by the
    // read): a change in between makes a kept answer out of date, never wrong.
    let frame = bounds.answers.frame_to_keep(&available);
    // The meta availability read (with the dead flag) is handed over, not read again.
    let block = read_block(&chain, slot, SlotRead::Checked(available.meta), buf)?;
    let header = block_header(&block);
    let rows = HistoryRows {
        statuses: store.block_statuses(&block)?,
        rewards: store.block_rewards(slot)?,
    };
    let history = match history::decode(&rows) {
        Ok(history) => history,
        Err(incomplete) => {
            log::warn!(
                "getBlock {slot}: {}; answered null, as Agave does",
                incomplete.0
            );
            let text = bounds
                .answers
                .fresh(slot, cfg, None, false, "null".to_string());
            return Answer::reserve(text, &bounds.budget);
        }
    };
    let hint = encoded_size_hint(&block.sets, cfg).saturating_add(history_size_hint(&rows, cfg));
    let mut reservation = bounds.budget.reserve(hint)?;
    let text = encode_block(&header, &block.sets, &history, cfg)?;
    reservation.resize(text.capacity())?;
    let whole = block.block_time.is_some()
        && block.block_height.is_some()
        && (!cfg.rewards || rows.rewards.is_some());
    let read = frame.map(|frame| (frame, block.parent_state));
    let text = bounds.answers.fresh(slot, cfg, read, whole, text).into();
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
