//! `purge` and `set-replay-rows`: Agave's own purge of a slot range (as agave-ledger-tool's
//! `purge` does it), and the per-slot rows a validator's replay and RPC services write
//! beside the shreds, so a purge can be checked on every slot-keyed column.

use std::path::Path;

use bstore_interop_protocol::{Purged, ReplayRowsWritten};
use sha2::{Digest, Sha256};
use solana_hash::Hash;
use solana_ledger::blockstore_meta::PerfSample;
use solana_transaction_status::RewardsAndNumPartitions;

use crate::agave_api;
use crate::error::{Context, Error, Result};
use crate::open::{self, Access};
use crate::summary::require_db;

/// agave-ledger-tool `purge START END` (inclusive). On 4.2: `purge_from_next_slots`, then an
/// exact `purge_slots` (what `purge_and_compact_slots` was until Agave 4.x dropped it); on 4.3
/// and 4.4: an exact `purge_slots_cleanup_chaining` (see `agave_api`).
pub fn purge(ledger: &Path, start: u64, end: u64) -> Result<Purged> {
    require_db(ledger)?;
    if start > end {
        return Err(Error::new(format!("START {start} is after END {end}")));
    }
    let blockstore = open::blockstore(ledger, Access::Primary)?;
    agave_api::purge(&blockstore, start, end)
        .context(format!("Agave purge of slots {start}..={end}"))?;
    Ok(Purged {
        start,
        end,
        agave: agave_api::AGAVE_VERSION.to_string(),
    })
}

/// For each slot, what replay and RPC write once the slot is replayed: the bank hash
/// (`insert_bank_hash`), an optimistic confirmation (`insert_optimistic_slot`), block time
/// and height, empty rewards and a performance sample. Values are derived from the slot.
pub fn set_replay_rows(ledger: &Path, slots: &[u64]) -> Result<ReplayRowsWritten> {
    require_db(ledger)?;
    let blockstore = open::blockstore(ledger, Access::Primary)?;
    for &slot in slots {
        let hash = Hash::new_from_array(Sha256::digest(slot.to_le_bytes()).into());
        let timestamp = 1_700_000_000 + slot as i64;
        blockstore.insert_bank_hash(slot, hash, false);
        blockstore
            .insert_optimistic_slot(slot, &hash, timestamp)
            .context(format!("Agave insert_optimistic_slot({slot})"))?;
        blockstore
            .set_block_time(slot, timestamp)
            .context(format!("Agave set_block_time({slot})"))?;
        blockstore
            .set_block_height(slot, slot / 2)
            .context(format!("Agave set_block_height({slot})"))?;
        blockstore
            .write_rewards(
                slot,
                RewardsAndNumPartitions {
                    rewards: Vec::new(),
                    num_partitions: None,
                },
            )
            .context(format!("Agave write_rewards({slot})"))?;
        let sample = PerfSample {
            num_transactions: slot,
            num_slots: 1,
            sample_period_secs: 60,
            num_non_vote_transactions: slot,
        };
        blockstore
            .write_perf_sample(slot, &sample)
            .context(format!("Agave write_perf_sample({slot})"))?;
    }
    Ok(ReplayRowsWritten {
        slots: slots.to_vec(),
    })
}
