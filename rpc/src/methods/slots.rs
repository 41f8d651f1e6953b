//! The slot methods: which blocks exist, the tips by commitment, block time and height.
//! Commitment semantics are those of [`crate::chain`].

use bstore_ledger::Slot;
use bstore_ledger::store::Blockstore;
use serde_json::{Value, json};

use crate::chain::Chain;
use crate::error::RpcError;
use crate::params::{Commitment, ContextConfig, Params, parse};

/// `minContextSlot`: the answer's slot must be at least this.
fn check_context(tip: Slot, cfg: &ContextConfig) -> Result<(), RpcError> {
    match cfg.min_context_slot {
        Some(min) if tip.0 < min => Err(RpcError::MinContextSlotNotReached { context_slot: tip }),
        _ => Ok(()),
    }
}

fn context_config(params: &Params, i: usize) -> Result<ContextConfig, RpcError> {
    Ok(params.optional::<ContextConfig>(i)?.unwrap_or_default())
}

/// `[startSlot, endSlot?, config?]`; as in Agave the second param may also be the config.
pub fn get_blocks(store: &Blockstore, params: &Params) -> Result<Value, RpcError> {
    params.at_most(3)?;
    let start: u64 = params.required(0, "start slot")?;
    let (end, cfg) = match params.raw(1) {
        Some(v @ Value::Object(_)) => (None, parse::<ContextConfig>(v)?),
        _ => (params.optional::<u64>(1)?, context_config(params, 2)?),
    };
    let commitment = cfg.commitment().at_least_confirmed()?;
    let chain = Chain::new(store);
    check_context(chain.tip(commitment)?.unwrap_or_default(), &cfg)?;
    let blocks = chain.blocks(Slot(start), end.map(Slot), commitment)?;
    Ok(json!(blocks.iter().map(|s| s.0).collect::<Vec<_>>()))
}

/// `[startSlot, limit, config?]`.
pub fn get_blocks_with_limit(store: &Blockstore, params: &Params) -> Result<Value, RpcError> {
    params.at_most(3)?;
    let start: u64 = params.required(0, "start slot")?;
    let limit: usize = params.required(1, "limit")?;
    let cfg = context_config(params, 2)?;
    let commitment = cfg.commitment().at_least_confirmed()?;
    let chain = Chain::new(store);
    check_context(chain.tip(commitment)?.unwrap_or_default(), &cfg)?;
    let blocks = chain.blocks_with_limit(Slot(start), limit, commitment)?;
    Ok(json!(blocks.iter().map(|s| s.0).collect::<Vec<_>>()))
}

/// `[slot]`: the block's time from the `blocktime` column, or `null` when the ledger has
/// none; the slot must hold an available block (confirmed), else Agave's errors.
pub fn get_block_time(store: &Blockstore, params: &Params) -> Result<Value, RpcError> {
    params.at_most(1)?;
    let slot = Slot(params.required(0, "slot")?);
    Chain::new(store).available(slot, Commitment::Confirmed)?;
    Ok(json!(store.block_time(slot)?))
}

/// `[config?]`: the height of the tip at the commitment (see `Chain::block_height`).
pub fn get_block_height(store: &Blockstore, params: &Params) -> Result<Value, RpcError> {
    params.at_most(1)?;
    let cfg = context_config(params, 0)?;
    let chain = Chain::new(store);
    let tip = chain.tip(cfg.commitment())?.unwrap_or_default();
    check_context(tip, &cfg)?;
    match chain.block_height(tip)? {
        Some(h) => Ok(json!(h)),
        None => Err(RpcError::BlockNotAvailable { slot: tip }),
    }
}

/// `[]`: the lowest rooted slot holding a block (see `Chain::first_available_block`).
pub fn get_first_available_block(store: &Blockstore, params: &Params) -> Result<Value, RpcError> {
    params.at_most(0)?;
    Ok(json!(Chain::new(store).first_available_block()?.0))
}

/// `[config?]`: the highest root (finalized) or highest full slot (confirmed, processed);
/// 0 for an empty ledger.
pub fn get_slot(store: &Blockstore, params: &Params) -> Result<Value, RpcError> {
    params.at_most(1)?;
    let cfg = context_config(params, 0)?;
    let tip = Chain::new(store).tip(cfg.commitment())?.unwrap_or_default();
    check_context(tip, &cfg)?;
    Ok(json!(tip.0))
}

/// `[]`: the highest slot any shred was stored for (the highest slot with a meta).
pub fn get_max_shred_insert_slot(store: &Blockstore, params: &Params) -> Result<Value, RpcError> {
    params.at_most(0)?;
    Ok(json!(store.highest_slot()?.unwrap_or_default().0))
}
