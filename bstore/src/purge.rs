//! `bstore ledger purge`: delete a slot range from every column and give its disk space back,
//! on a full disk too (`docs/damage-and-repair.md#a-full-disk`), reporting the database's
//! bytes on disk before and after; and `--space-reserve`, the room `ledger ingest` and
//! `ledger generate` hold back for it.

use std::path::Path;

use bstore_ledger::Slot;
use bstore_ledger::store::space_reserve::{self, DEFAULT_RESERVE_BYTES, ReserveFill, SpaceReserve};
use bstore_ledger::store::{AccessMode, Blockstore, PurgeStats};
use clap::Args;
use serde_json::json;

use crate::open_args::WalArgs;

/// The space reserve of a command that grows a ledger.
#[derive(Debug, Clone, Copy, Args)]
pub(crate) struct ReserveArgs {
    /// Bytes to hold back in DIR/bstore-space-reserve so `ledger purge` can still run when
    /// the disk fills up (0: none).
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_RESERVE_BYTES)]
    pub space_reserve: u64,
}

impl ReserveArgs {
    /// Makes sure the reserve of `ledger` (whose directory exists) is in place; a disk
    /// without room for it is a warning, not a failure: the command may still fit.
    pub(crate) fn keep(self, ledger: &Path) -> Result<(), Box<dyn std::error::Error>> {
        let reserve = SpaceReserve::of(ledger);
        let db = crate::ledger_tool::require_ledger(ledger)?;
        if self.space_reserve > 0 && !reserve.shares_disk_with(&db)? {
            eprintln!(
                "bstore: warning: {} is on another file system than {}: no space reserve is \
                 kept, as it could not make room for the database",
                db.display(),
                ledger.display()
            );
            return Ok(());
        }
        if reserve.fill(self.space_reserve)? == ReserveFill::NoRoom {
            eprintln!(
                "bstore: warning: no room for the {}-byte space reserve {}; on a full disk \
                 `ledger purge` may then find no room to start",
                self.space_reserve,
                reserve.path().display()
            );
        }
        Ok(())
    }
}

/// Purges `start..=end` of the ledger at `ledger` and prints what was removed.
pub(crate) fn purge(
    ledger: &Path,
    wal: WalArgs,
    start: Slot,
    end: Slot,
) -> Result<(), Box<dyn std::error::Error>> {
    if start > end {
        return Err(format!("START {start} is after END {end}").into());
    }
    let db = crate::ledger_tool::require_ledger(ledger)?;
    let before = space_reserve::bytes_on_disk(&db)?;
    // The reserve's room lets the open and the compactions start on a full disk; it is put
    // back (same size) whatever the purge did, before its result is reported.
    let reserve = SpaceReserve::of(ledger);
    let reserved = reserve.release()?;
    let purged = purge_slots(ledger, wal, start, end);
    match reserve.fill(reserved) {
        Ok(ReserveFill::Reserved) => {}
        Ok(ReserveFill::NoRoom) => eprintln!(
            "bstore: warning: no room to put the {reserved}-byte space reserve {} back",
            reserve.path().display()
        ),
        Err(e) => eprintln!("bstore: warning: the space reserve was not put back: {e}"),
    }
    let stats = purged.map_err(|e| {
        format!(
            "purging slots {start}..={end}: {}",
            with_room_hint(e, reserved)
        )
    })?;
    let after = space_reserve::bytes_on_disk(&db)?;
    let summary = json!({
        "start": start.0,
        "end": end.0,
        "slots_with_meta": stats.slots_with_meta,
        "data_shreds": stats.data_shreds,
        "history_unreadable_slots": stats.history_unreadable,
        "placeholders_kept": stats.placeholders_kept,
        "bytes_before": before,
        "bytes_after": after,
        "space_reserve_bytes": reserve.len()?,
    });
    println!("{summary}");
    Ok(())
}

/// A purge that failed for want of room says how to make some: without a reserve there may
/// be none for the open's MANIFEST and OPTIONS file.
fn with_room_hint(e: Box<dyn std::error::Error>, reserved: u64) -> Box<dyn std::error::Error> {
    let text = e.to_string();
    if !text.contains("No space left on device") {
        return e;
    }
    let hint = if reserved == 0 {
        "the ledger has no space reserve; free some room (RocksDB's old info logs \
         rocksdb/LOG.old.* hold no ledger data) and run the purge again"
    } else {
        "the space reserve was not enough; free some room or purge a smaller range, then run \
         the purge again (the rows deleted so far stay deleted), and raise --space-reserve"
    };
    format!("{text} ({hint})").into()
}

/// The purge itself; the ledger is closed when it returns.
fn purge_slots(
    ledger: &Path,
    wal: WalArgs,
    start: Slot,
    end: Slot,
) -> Result<PurgeStats, Box<dyn std::error::Error>> {
    let store = Blockstore::open_with(ledger, &wal.existing(AccessMode::ReadWrite))?;
    Ok(store.purge_slots_reclaiming(start, end)?)
}
