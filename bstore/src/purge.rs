//! `bstore ledger purge`: delete a slot range from every column and compact it, reporting
//! the space that came back.

use std::path::Path;

use bstore_ledger::Slot;
use bstore_ledger::store::{AccessMode, Blockstore};
use serde_json::json;

use crate::open_args::WalArgs;

/// Bytes of the files under `dir` (the RocksDB directory), recursively.
pub fn dir_bytes(dir: &Path) -> std::io::Result<u64> {
    let mut total = 0;
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let meta = entry.metadata()?;
        total += if meta.is_dir() {
            dir_bytes(&entry.path())?
        } else {
            meta.len()
        };
    }
    Ok(total)
}

/// Purges `start..=end` of the ledger at `ledger` and prints what was removed.
pub fn purge(
    ledger: &Path,
    wal: WalArgs,
    start: Slot,
    end: Slot,
) -> Result<(), Box<dyn std::error::Error>> {
    if start > end {
        return Err(format!("START {start} is after END {end}").into());
    }
    let db = crate::ledger_tool::require_ledger(ledger)?;
    let before = dir_bytes(&db)?;
    let store = Blockstore::open_with(ledger, &wal.existing(AccessMode::ReadWrite))?;
    let stats = store.purge_slots(start, end)?;
    drop(store);
    let after = dir_bytes(&db)?;
    let summary = json!({
        "start": start.0,
        "end": end.0,
        "slots_with_meta": stats.slots_with_meta,
        "data_shreds": stats.data_shreds,
        "history_unreadable_slots": stats.history_unreadable,
        "bytes_before": before,
        "bytes_after": after,
    });
    println!("{summary}");
    Ok(())
}
