//! The archive fallbacks (`crate::archive`), as Agave's RPC falls back to its long-term
//! storage: the local answer first, the archive when the ledger no longer has it.
//!
//! - `getBlock`: a block the ledger cleaned up, does not have (-32004: on a ledger with no
//!   roots left, a fresh node or everything purged, that is every block) or whose history
//!   it cannot give comes from the archive, which holds only finalized blocks; a cleaned-up
//!   one the archive does not have either is Agave's -32009, anything else keeps the
//!   ledger's answer.
//! - `getTransaction`: a signature the ledger does not know is located in the archive.
//! - `getBlocks` / `getBlocksWithLimit`: slots below the local first available block come
//!   from the archive's listing, then the local ones.
//! - `getFirstAvailableBlock`: the lower of the archive's first slot and the ledger's.
//!
//! Archived blocks are parsed and encoded on a fetch worker, reserved against the response
//! budget like local ones.

use std::sync::Arc;

use bstore_ledger::Slot;
use bstore_ledger::store::KvEngine;
use serde_json::json;

use super::{Answer, Ctx, to_text};
use crate::error::RpcError;
use crate::methods::archive::{ArchiveFault, BlockArchive};
use crate::methods::chain::{Chain, MAX_BLOCKS_RANGE};
use crate::methods::record_block::RecordBlock;
use crate::params::history::TransactionConfig;
use crate::params::{BlockConfig, ContextConfig};

/// A failed archive call `what` (logged with the other internal errors by the caller).
fn archive_error(what: &str, fault: ArchiveFault) -> RpcError {
    RpcError::Archive {
        what: what.to_string(),
        fault,
    }
}

/// `getBlock` with the archive behind the ledger.
pub(super) async fn get_block<E: KvEngine + 'static>(
    ctx: &Ctx<E>,
    archive: &Arc<dyn BlockArchive>,
    slot: Slot,
    cfg: BlockConfig,
) -> Result<Answer, RpcError> {
    let local = super::block::get_block(ctx, slot, cfg).await;
    match &local {
        Err(RpcError::BlockCleanedUp { .. } | RpcError::BlockNotAvailable { .. }) => {}
        Ok(answer) if answer.text == "null" => {}
        _ => return local,
    }
    let Some(record) = archive
        .block(slot)
        .await
        .map_err(|e| archive_error(&format!("block {slot}"), e))?
    else {
        return match local {
            Err(RpcError::BlockNotAvailable { .. }) => local,
            _ => Err(RpcError::LongTermStorageSlotSkipped { slot }),
        };
    };
    let budget = ctx.budget.clone();
    ctx.workers
        .run(move |_, _| {
            let text = RecordBlock::new(&record)?.block_json(&cfg)?;
            Answer::reserve(text, &budget)
        })
        .await
}

/// `getTransaction` with the archive behind the ledger.
pub(super) async fn get_transaction<E: KvEngine + 'static>(
    ctx: &Ctx<E>,
    archive: &Arc<dyn BlockArchive>,
    signature: [u8; 64],
    cfg: TransactionConfig,
    local: Result<Answer, RpcError>,
) -> Result<Answer, RpcError> {
    match &local {
        Ok(answer) if answer.text == "null" => {}
        _ => return local,
    }
    let located = archive
        .locate(&signature)
        .await
        .map_err(|e| archive_error("signature lookup", e))?;
    let Some((slot, index)) = located else {
        return local;
    };
    let Some(record) = archive
        .block(slot)
        .await
        .map_err(|e| archive_error(&format!("block {slot}"), e))?
    else {
        return local;
    };
    let budget = ctx.budget.clone();
    ctx.workers
        .run(move |_, _| {
            let text = RecordBlock::new(&record)?.transaction_json(index, &signature, &cfg)?;
            Answer::reserve(text, &budget)
        })
        .await
}

/// The ledger's first available block (on a scan worker), or `None` when the ledger has no
/// root (a fresh node, or everything purged): then it serves no finalized block, and every
/// one is the archive's.
async fn local_first<E: KvEngine + 'static>(ctx: &Ctx<E>) -> Result<Option<Slot>, RpcError> {
    let window = ctx.confirmed_window;
    ctx.scans
        .run(move |store, _| {
            if store.max_root()?.is_none() {
                return Ok(None);
            }
            Chain::new(store, window).first_available_block().map(Some)
        })
        .await
}

/// `getFirstAvailableBlock`: the lower of the archive's first slot and the ledger's.
pub(super) async fn first_available_block<E: KvEngine + 'static>(
    ctx: &Ctx<E>,
    archive: &Arc<dyn BlockArchive>,
) -> Result<Answer, RpcError> {
    let local = local_first(ctx).await?;
    let archived = archive
        .first_slot()
        .await
        .map_err(|e| archive_error("first slot", e))?;
    let first = match (archived, local) {
        (Some(a), Some(l)) => a.min(l),
        (Some(a), None) => a,
        (None, l) => l.unwrap_or_default(),
    };
    Answer::reserve(to_text(&json!(first.0))?, &ctx.budget)
}

/// `getBlocks` / `getBlocksWithLimit` with archived slots below the ledger's first block.
/// `end` is the inclusive end (`getBlocks`), `limit` the count (`getBlocksWithLimit`).
pub(super) async fn blocks<E: KvEngine + 'static>(
    ctx: &Ctx<E>,
    archive: &Arc<dyn BlockArchive>,
    start: Slot,
    end: Option<Slot>,
    limit: Option<usize>,
    config: ContextConfig,
) -> Result<Answer, RpcError> {
    let local = local_first(ctx).await?;
    // With no root the ledger lists no finalized block: the archive answers the range.
    let local_first = local.unwrap_or(Slot(u64::MAX));
    let mut slots: Vec<u64> = Vec::new();
    if start < local_first {
        // `getBlocks` spans its range; `getBlocksWithLimit` counts blocks from `start` (as
        // Agave's long-term storage listing does), up to the ledger's first block.
        let range_end = match limit {
            Some(_) => Slot(u64::MAX),
            None => end.unwrap_or(Slot(start.0.saturating_add(MAX_BLOCKS_RANGE))),
        };
        let last = Slot(range_end.0.min(local_first.0.saturating_sub(1)));
        let max = limit.unwrap_or(MAX_BLOCKS_RANGE as usize + 1);
        if last >= start {
            let archived = archive
                .slots(start, last, max)
                .await
                .map_err(|e| archive_error("slot listing", e))?;
            slots.extend(archived.iter().map(|s| s.0));
        }
    }
    let left = limit.map(|l| l.saturating_sub(slots.len()));
    if left != Some(0) {
        let window = ctx.confirmed_window;
        // The range is the request's (from `start`), whatever part the archive answered.
        let end = end.or(Some(Slot(start.0.saturating_add(MAX_BLOCKS_RANGE))));
        let listed: Vec<Slot> = ctx
            .scans
            .run(move |store, _| {
                let chain = Chain::new(store, window);
                let commitment = config.commitment().at_least_confirmed()?;
                // With no root, only blocks confirmed above the archive's can be local.
                let from = local.map_or(start, |first| start.max(first));
                match left {
                    Some(n) => chain.blocks_with_limit(from, n, commitment),
                    None => chain.blocks(from, end, commitment),
                }
            })
            .await?;
        slots.extend(listed.iter().map(|s| s.0));
    }
    if local.is_none() {
        // Both tiers were asked from `start`: one sorted listing, each slot once.
        slots.sort_unstable();
        slots.dedup();
        if let Some(l) = limit {
            slots.truncate(l);
        }
    }
    Answer::reserve(to_text(&json!(slots))?, &ctx.budget)
}
