//! The slot methods: which blocks exist, the tips by commitment, block time and height.
//! Commitment semantics (and the scan bounds) are those of [`crate::methods::chain`]. Params were
//! parsed by [`crate::params::args::Call`].

use bstore_ledger::Slot;
use bstore_ledger::store::KvEngine;
use serde_json::{Value, json};

use crate::error::RpcError;
use crate::methods::chain::Chain;
use crate::params::args::Call;
use crate::params::{Commitment, ContextConfig};

/// `minContextSlot`: the answer's slot must be at least this.
fn check_context(tip: Slot, cfg: &ContextConfig) -> Result<(), RpcError> {
    match cfg.min_context_slot {
        Some(min) if tip.0 < min => Err(RpcError::MinContextSlotNotReached { context_slot: tip }),
        _ => Ok(()),
    }
}

fn slot_list(slots: &[Slot]) -> Value {
    json!(slots.iter().map(|s| s.0).collect::<Vec<_>>())
}

/// Whether `call` reads a bounded handful of rows (run on the I/O thread, see
/// `super::inline`): every slot method but `getBlocks` / `getBlocksWithLimit`, which span
/// up to 500,000 slots. (A tip at `confirmed` reads the metas above the highest root:
/// normally a few dozen, at most the confirmed window.)
pub(super) fn reads_a_few_rows(call: &Call) -> bool {
    !matches!(
        call,
        Call::GetBlocks { .. } | Call::GetBlocksWithLimit { .. }
    )
}

/// Answers every call except `getBlock` (the fetch workers) and the node methods.
pub(super) fn answer<E: KvEngine>(chain: &Chain<'_, E>, call: &Call) -> Result<Value, RpcError> {
    let store = chain.store();
    match call {
        Call::GetBlocks { start, end, config } => {
            let commitment = config.commitment().at_least_confirmed()?;
            check_context(chain.tip(commitment)?.unwrap_or_default(), config)?;
            Ok(slot_list(&chain.blocks(*start, *end, commitment)?))
        }
        Call::GetBlocksWithLimit {
            start,
            limit,
            config,
        } => {
            let commitment = config.commitment().at_least_confirmed()?;
            check_context(chain.tip(commitment)?.unwrap_or_default(), config)?;
            Ok(slot_list(
                &chain.blocks_with_limit(*start, *limit, commitment)?,
            ))
        }
        // The block's time from the `blocktime` column, or `null` when the ledger has none;
        // the slot must hold an available block (confirmed), else Agave's errors.
        Call::GetBlockTime { slot } => {
            chain.available(*slot, Commitment::Confirmed)?;
            Ok(json!(store.block_time(*slot)?))
        }
        // The height of the tip at the commitment (see `Chain::block_height`).
        Call::GetBlockHeight { config } => {
            let tip = chain.tip(config.commitment())?.unwrap_or_default();
            check_context(tip, config)?;
            match chain.block_height(tip)? {
                Some(h) => Ok(json!(h)),
                None => Err(RpcError::BlockNotAvailable { slot: tip }),
            }
        }
        // The lowest rooted slot holding a block (see `Chain::first_available_block`).
        Call::GetFirstAvailableBlock => Ok(json!(chain.first_available_block()?.0)),
        // The highest root (finalized) or highest full slot (confirmed, processed); 0 for
        // an empty ledger.
        Call::GetSlot { config } => {
            let tip = chain.tip(config.commitment())?.unwrap_or_default();
            check_context(tip, config)?;
            Ok(json!(tip.0))
        }
        // The highest slot any shred was stored for (the highest slot with a meta).
        Call::GetMaxShredInsertSlot => Ok(json!(store.highest_slot()?.unwrap_or_default().0)),
        _ => Err(RpcError::Internal {
            reason: "not a slot method".into(),
        }),
    }
}
