//! `slot-rows`: what Agave sees of each slot of a range, through its own getters and as raw
//! rows of every slot-keyed column family: enough to tell a purged slot (nothing left
//! anywhere) from an intact one, and to compare two ledgers row for row.

use std::path::PathBuf;

use std::collections::BTreeMap;

use bstore_interop_protocol::{RawDigest, SlotRows, SlotView};
use sha2::{Digest, Sha256};
use solana_ledger::blockstore::Blockstore;

use crate::error::{Context, Result};
use crate::open::{self, Access};
use crate::raw::RawDb;
use crate::select::SlotRange;
use crate::summary::{meta_view, require_db};

/// Agave's column families whose keys start with the slot (u64 big-endian): the ones
/// its `purge_slots` range-deletes (`blockstore/blockstore_purge.rs`,
/// `purge_range`). The transaction-status families are keyed by signature or address.
pub const SLOT_KEYED_FAMILIES: [&str; 16] = [
    "meta",
    "bank_hashes",
    "root",
    "data_shred",
    "code_shred",
    "dead_slots",
    "duplicate_slots",
    "erasure_meta",
    "orphans",
    "index",
    "rewards",
    "blocktime",
    "perf_samples",
    "block_height",
    "optimistic_slots",
    "merkle_root_meta",
];

#[derive(Debug)]
pub struct RowsArgs {
    pub ledger: PathBuf,
    pub slots: SlotRange,
}

pub fn run(args: &RowsArgs) -> Result<SlotRows> {
    require_db(&args.ledger)?;
    let blockstore = open::blockstore(&args.ledger, Access::Primary)?;
    let raw = RawDb::open(&args.ledger)?;
    let mut slots = Vec::new();
    for slot in args.slots.0.clone() {
        let mut rows = BTreeMap::new();
        let mut total = 0;
        let mut rewards = false;
        for family in SLOT_KEYED_FAMILIES {
            let found = raw.slot_rows(family, slot)?;
            total += found.len();
            rewards |= family == "rewards" && !found.is_empty();
            let mut hash = Sha256::new();
            for (key, value) in &found {
                for part in [key, value] {
                    hash.update((part.len() as u64).to_le_bytes());
                    hash.update(part);
                }
            }
            rows.insert(
                family.to_string(),
                RawDigest {
                    rows: found.len() as u64,
                    sha256: hex::encode(hash.finalize()),
                },
            );
        }
        // Agave 4.x keeps its rewards reader private: a rewards row is what it would read.
        slots.push(agave_view(&blockstore, slot, rewards, total as u64, rows)?);
    }
    Ok(SlotRows {
        families_present: raw.families().to_vec(),
        slots,
    })
}

/// The slot through Agave's public getters, beside what the raw rows showed.
fn agave_view(
    blockstore: &Blockstore,
    slot: u64,
    rewards: bool,
    raw_rows_total: u64,
    raw: BTreeMap<String, RawDigest>,
) -> Result<SlotView> {
    let meta = blockstore
        .meta(slot)
        .context(format!("meta of slot {slot}"))?;
    let index = blockstore
        .get_index(slot)
        .context(format!("index of slot {slot}"))?;
    let data = blockstore
        .get_data_shreds_for_slot(slot, 0)
        .context(format!("data shreds of slot {slot}"))?;
    let code = blockstore
        .get_coding_shreds_for_slot(slot, 0)
        .context(format!("coding shreds of slot {slot}"))?;
    Ok(SlotView {
        slot,
        meta: meta.as_ref().map(meta_view),
        index_present: index.is_some(),
        data_shreds: data.len() as u64,
        code_shreds: code.len() as u64,
        is_full: blockstore.is_full(slot),
        dead: blockstore.is_dead(slot),
        root: blockstore.is_root(slot),
        duplicate_proof: blockstore.has_duplicate_shreds_in_slot(slot),
        orphan: blockstore
            .orphan(slot)
            .context(format!("orphan of slot {slot}"))?
            .is_some(),
        bank_hash: blockstore.get_bank_hash(slot).map(|h| h.to_string()),
        optimistic: blockstore
            .get_optimistic_slot(slot)
            .context(format!("optimistic slot {slot}"))?
            .is_some(),
        block_height: blockstore
            .get_block_height(slot)
            .context(format!("block height of slot {slot}"))?,
        rewards,
        raw_rows_total,
        raw,
    })
}
