//! Writes the planned slots into a new ledger through Agave's own `Blockstore`: shreds
//! from Agave's `Shredder` go through `insert_shreds`, every slot is rooted, and each
//! transaction's status, address index and memo are written as the transaction status
//! service writes them; then rewards, block time and block height per slot.

use std::collections::HashMap;
use std::path::Path;

use agave_reserved_account_keys::ReservedAccountKeys;
use solana_entry::entry::{Entry, next_versioned_entry};
use solana_hash::Hash;
use solana_ledger::blockstore::Blockstore;
use solana_ledger::shred::{ProcessShredsStats, ReedSolomonCache, Shred, Shredder};
use solana_message::{SanitizedMessage, SanitizedVersionedMessage, SimpleAddressLoader};
use solana_transaction_status::extract_and_fmt_memos;

use super::keys::Keys;
use super::plan::{PlannedSlot, PlannedTx};
use crate::agave_api;
use crate::error::{Context, Error, Result};
use crate::open::{self, Access};

const HASHES_PER_TICK: u64 = 8;
/// Transactions per entry.
const TXS_PER_ENTRY: usize = 2;
const SHRED_VERSION: u16 = 1;

pub fn write(ledger: &Path, keys: &Keys, slots: &[PlannedSlot]) -> Result<()> {
    let blockstore = open::blockstore(ledger, Access::Primary)?;
    let rs_cache = ReedSolomonCache::default();
    // Per written slot: its last entry hash (the child's PoH start) and its last Merkle
    // root (the child's chained root).
    let mut tails: HashMap<u64, (Hash, Hash)> = HashMap::new();
    for planned in slots {
        let (poh, chained) = tails
            .get(&planned.parent)
            .copied()
            .unwrap_or((keys.poh_start, Hash::default()));
        let entries = entries(poh, &planned.txs);
        let shreds = shred(keys, planned, &entries, chained, &rs_cache)?;
        let root = shreds
            .last()
            .ok_or_else(|| Error::new(format!("slot {}: no shreds", planned.slot)))?
            .merkle_root()
            .context(format!("slot {}: Merkle root", planned.slot))?;
        let last_hash = entries.last().map(|e| e.hash).unwrap_or(poh);
        tails.insert(planned.slot, (last_hash, root));
        agave_api::insert_shreds(&blockstore, shreds)
            .context(format!("Agave insert_shreds (slot {})", planned.slot))?;
        if !blockstore.is_full(planned.slot) {
            return Err(Error::new(format!(
                "slot {} is not full after insert",
                planned.slot
            )));
        }
    }
    let roots: Vec<u64> = slots.iter().map(|s| s.slot).collect();
    blockstore
        .set_roots(roots.iter())
        .context(format!("Agave set_roots({roots:?})"))?;
    let reserved = ReservedAccountKeys::new_all_activated().active;
    for planned in slots {
        write_rows(&blockstore, planned, &reserved)?;
    }
    Ok(())
}

/// The slot's transactions, [`TXS_PER_ENTRY`] per entry, then one tick.
fn entries(mut poh: Hash, txs: &[PlannedTx]) -> Vec<Entry> {
    let mut entries = Vec::new();
    for (n, chunk) in txs.chunks(TXS_PER_ENTRY).enumerate() {
        let entry = next_versioned_entry(
            &poh,
            1 + n as u64,
            chunk.iter().map(|t| t.tx.clone()).collect(),
        );
        poh = entry.hash;
        entries.push(entry);
    }
    entries.push(next_versioned_entry(&poh, HASHES_PER_TICK, Vec::new()));
    entries
}

fn shred(
    keys: &Keys,
    planned: &PlannedSlot,
    entries: &[Entry],
    chained: Hash,
    rs_cache: &ReedSolomonCache,
) -> Result<Vec<Shred>> {
    let shredder = Shredder::new(planned.slot, planned.parent, 0, SHRED_VERSION)
        .context(format!("slot {}: Shredder::new", planned.slot))?;
    Ok(agave_api::shreds_vec(
        shredder.make_merkle_shreds_from_entries(
            &keys.leader,
            entries,
            /*is_last_in_slot:*/ true,
            chained,
            0,
            0,
            rs_cache,
            &mut ProcessShredsStats::default(),
        ),
    ))
}

/// What the transaction status service and replay write for a slot.
fn write_rows(
    blockstore: &Blockstore,
    planned: &PlannedSlot,
    reserved: &std::collections::HashSet<solana_pubkey::Pubkey>,
) -> Result<()> {
    let slot = planned.slot;
    for (index, planned_tx) in planned.txs.iter().enumerate() {
        let Some(meta) = planned_tx.meta.clone() else {
            continue;
        };
        let signature = planned_tx.signature();
        let context = format!("slot {slot} transaction {index} ({signature})");
        let versioned = SanitizedVersionedMessage::try_new(planned_tx.tx.message.clone())
            .context(format!("{context}: sanitize"))?;
        let message = SanitizedMessage::try_new(
            versioned,
            SimpleAddressLoader::Enabled(planned_tx.loaded.clone()),
            reserved,
        )
        .context(format!("{context}: sanitize"))?;
        if let Some(memos) = extract_and_fmt_memos(&message) {
            blockstore
                .write_transaction_memos(&signature, slot, memos)
                .context(format!("{context}: Agave write_transaction_memos"))?;
        }
        let account_keys = message.account_keys();
        let keys_with_writable = account_keys
            .iter()
            .enumerate()
            .map(|(i, key)| (key, message.is_writable(i)));
        blockstore
            .write_transaction_status(slot, signature, keys_with_writable, meta, index)
            .context(format!("{context}: Agave write_transaction_status"))?;
    }
    if let Some(rewards) = planned.rewards.clone() {
        blockstore
            .write_rewards(slot, rewards)
            .context(format!("Agave write_rewards({slot})"))?;
    }
    if let Some(time) = planned.block_time {
        blockstore
            .set_block_time(slot, time)
            .context(format!("Agave set_block_time({slot})"))?;
    }
    if let Some(height) = planned.block_height {
        blockstore
            .set_block_height(slot, height)
            .context(format!("Agave set_block_height({slot})"))?;
    }
    Ok(())
}
