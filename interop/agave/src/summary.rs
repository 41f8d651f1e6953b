//! `summary`: everything Agave keeps for one slot, through its own API where it is public
//! and through the raw rows (decoded by `layout`) where it is not.

use std::path::{Path, PathBuf};

use bstore_interop_protocol::{
    ErasureMetaRow, FetchFailed, FetchedEntries, IndexSummary, MerkleRootMetaRow, SlotEntries,
    SlotMetaView, Summary,
};
use solana_entry::entry::Entry;
use solana_ledger::blockstore::Blockstore;
use solana_ledger::blockstore_meta::SlotMeta;

use crate::error::{Context, Error, Result};
use crate::generate::{entries_bincode, sha256_hex};
use crate::layout;
use crate::open::{self, Access};
use crate::raw::{self, RawDb};

#[derive(Debug)]
pub struct SummaryArgs {
    pub ledger: PathBuf,
    pub slot: u64,
    pub access: Access,
    /// Writes the bincode `Vec<Entry>` of the slot's completed data sets here.
    pub entries_out: Option<PathBuf>,
}

pub fn run(args: &SummaryArgs) -> Result<Summary> {
    require_db(&args.ledger)?;
    let slot = args.slot;
    let blockstore = open::blockstore(&args.ledger, args.access)?;
    let meta = blockstore
        .meta(slot)
        .context(format!("meta of slot {slot}"))?;
    let index = blockstore
        .get_index(slot)
        .context(format!("index of slot {slot}"))?;
    let raw = RawDb::open(&args.ledger)?;

    let index_rows = raw.slot_rows("index", slot)?;
    let index_decoded = match index_rows.as_slice() {
        [] => None,
        [(_, value)] => {
            Some(layout::decode_index(value).map_err(|e| e.context(format!("slot {slot}")))?)
        }
        rows => {
            return Err(Error::new(format!(
                "slot {slot}: {} index rows (one expected)",
                rows.len()
            )));
        }
    };
    let erasure = erasure_rows(&raw, slot)?;
    let merkle = merkle_rows(&raw, slot)?;
    let entries = fetch_entries(&blockstore, slot, args.entries_out.as_deref())?;

    Ok(Summary {
        slot,
        meta: meta.as_ref().map(meta_view),
        is_full: blockstore.is_full(slot),
        index: IndexSummary {
            present: index.is_some(),
            num_data: index.as_ref().map(|i| i.data().num_shreds() as u64),
            num_coding: index.as_ref().map(|i| i.coding().num_shreds() as u64),
            row: index_decoded,
        },
        erasure_meta: erasure,
        merkle_root_meta: merkle,
        dead: blockstore.is_dead(slot),
        root: blockstore.is_root(slot),
        duplicate_proof: blockstore.get_duplicate_slot(slot).is_some(),
        entries,
    })
}

/// Agave's primary open creates an empty database; a summary of a missing ledger is a
/// mistake to report, not an empty answer.
pub fn require_db(ledger: &Path) -> Result<()> {
    let path = raw::db_path(ledger);
    if path.join("CURRENT").is_file() {
        Ok(())
    } else {
        Err(Error::new(format!(
            "no RocksDB database at {}",
            path.display()
        )))
    }
}

/// The meta as the protocol shows it; `format` and `agave_roundtrip` are `dump-columns`'
/// to set.
pub fn meta_view(meta: &SlotMeta) -> SlotMetaView {
    SlotMetaView {
        slot: meta.slot,
        consumed: meta.consumed,
        received: meta.received,
        first_shred_timestamp: meta.first_shred_timestamp,
        last_index: meta.last_index,
        parent_slot: meta.parent_slot,
        // A Vec on 4.2, a SmallVec on 4.3: the slice copies the same from both.
        next_slots: meta.next_slots.to_vec(),
        connected_flags: meta.connected_flags.bits(),
        is_connected: meta.is_connected(),
        is_parent_connected: meta.is_parent_connected(),
        completed_data_indexes: meta.completed_data_indexes.iter().collect(),
        is_full: meta.is_full(),
        parent_block_id: meta.parent_block_id.to_string(),
        replay_fec_set_index: meta.replay_fec_set_index,
        format: None,
        agave_roundtrip: None,
    }
}

fn erasure_rows(raw: &RawDb, slot: u64) -> Result<Vec<ErasureMetaRow>> {
    raw.slot_rows("erasure_meta", slot)?
        .iter()
        .map(|(key, value)| {
            let fields = layout::key_fields("erasure_meta", key, &[8, 8])?;
            let mut row = layout::decode_erasure_meta(value)
                .map_err(|e| e.context(format!("slot {slot}")))?;
            row.key_fec_set_index = Some(fields[1]);
            Ok(row)
        })
        .collect()
}

fn merkle_rows(raw: &RawDb, slot: u64) -> Result<Vec<MerkleRootMetaRow>> {
    raw.slot_rows("merkle_root_meta", slot)?
        .iter()
        .map(|(key, value)| {
            let fields = layout::key_fields("merkle_root_meta", key, &[8, 4])?;
            let mut row = layout::decode_merkle_root_meta(value)
                .map_err(|e| e.context(format!("slot {slot}")))?;
            row.fec_set_index = Some(fields[1]);
            Ok(row)
        })
        .collect()
}

/// Agave's `get_slot_entries_with_shred_info(slot, 0, allow dead)`; a failed fetch is
/// reported in the message (`error`), since a slot Agave cannot read is a finding.
fn fetch_entries(blockstore: &Blockstore, slot: u64, out: Option<&Path>) -> Result<SlotEntries> {
    let (entries, num_shreds, is_full) =
        match blockstore.get_slot_entries_with_shred_info(slot, 0, true) {
            Ok(fetched) => fetched,
            Err(e) => {
                return Ok(SlotEntries::Failed(FetchFailed {
                    error: e.to_string(),
                }));
            }
        };
    let bytes = entries_bincode(&entries)?;
    if let Some(path) = out {
        std::fs::write(path, &bytes).context(path.display())?;
    }
    Ok(SlotEntries::Fetched(FetchedEntries {
        count: entries.len() as u64,
        ticks: entries.iter().filter(|e| e.is_tick()).count() as u64,
        transactions: entries.iter().map(|e| e.transactions.len() as u64).sum(),
        num_shreds,
        is_full,
        blockhash: entries.last().map(|e: &Entry| e.hash.to_string()),
        sha256: sha256_hex(&bytes),
    }))
}
