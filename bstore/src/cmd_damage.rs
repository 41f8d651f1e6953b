//! `bstore ledger check` and `bstore ledger repair` (`docs/damage-and-repair.md`): report
//! every damaged file of a ledger database, and repair one after backing it up.

use std::path::Path;

use bstore_ledger::store::{self, CheckReport, WalRecoveryMode};
use serde_json::{Value, json};

use crate::ledger_tool::Format;

/// Runs `bstore ledger check`: prints the report; an error (non-zero exit) on damage.
pub(crate) fn check(
    ledger: &Path,
    wal: Option<WalRecoveryMode>,
    format: Format,
) -> Result<(), Box<dyn std::error::Error>> {
    let report = store::check(ledger, wal)?;
    match format {
        Format::Json => println!("{}", report_json(&report)),
        Format::Text => print_text(&report),
    }
    damage_error(&report)
}

/// Runs `bstore ledger repair`: backs up, repairs, checks again; an error when damage is
/// left after the repair.
pub(crate) fn repair(
    ledger: &Path,
    backup: &Path,
    format: Format,
) -> Result<(), Box<dyn std::error::Error>> {
    let report = store::repair(ledger, backup)?;
    match format {
        Format::Json => println!(
            "{}",
            json!({
                "backup": report.backup,
                "backed_up": report.backed_up,
                "restored_current": report.restored_current,
                "wal_salvaged": report.wal_salvaged,
                "rocksdb_repair": report.rocksdb_repair,
                "before": report_json(&report.before),
                "after": report_json(&report.after),
            })
        ),
        Format::Text => {
            match &report.backup {
                None => println!(
                    "{}: healthy, nothing to repair",
                    report.before.path.display()
                ),
                Some(dir) => println!(
                    "backed up {} files of {} into {}",
                    report.backed_up.len(),
                    report.before.path.display(),
                    dir.display()
                ),
            }
            if let Some(manifest) = &report.restored_current {
                println!("restored CURRENT (it names {manifest})");
            }
            if report.wal_salvaged {
                println!("replayed the write-ahead logs skipping damaged records, and flushed");
            }
            if report.rocksdb_repair {
                println!("ran RocksDB's repair");
            }
            println!("after the repair:");
            print_text(&report.after);
        }
    }
    damage_error(&report.after)
}

fn damage_error(report: &CheckReport) -> Result<(), Box<dyn std::error::Error>> {
    if report.is_healthy() {
        return Ok(());
    }
    Err(format!(
        "{} is damaged: {} problem(s), first: {}: {}",
        report.path.display(),
        report.damage.len(),
        report.damage[0].file,
        report.damage[0].reason
    )
    .into())
}

fn report_json(r: &CheckReport) -> Value {
    let columns: serde_json::Map<String, Value> = r
        .columns
        .iter()
        .map(|c| (c.name.clone(), json!(c.entries)))
        .collect();
    json!({
        "path": r.path,
        "healthy": r.is_healthy(),
        "wal_recovery_mode": r.wal_recovery.name(),
        "files": r.files,
        "sst_files": r.sst_files.iter().map(|f| json!({"column": f.column, "name": f.name, "bytes": f.bytes})).collect::<Vec<_>>(),
        "wal_files": r.wal_files.iter().map(|(n, s)| json!({"name": n, "bytes": s})).collect::<Vec<_>>(),
        "unlisted_files": r.unlisted_files.iter().map(|(n, s)| json!({"name": n, "bytes": s})).collect::<Vec<_>>(),
        "column_entries": columns,
        "damage": r.damage.iter().map(|d| json!({"file": d.file, "reason": d.reason})).collect::<Vec<_>>(),
    })
}

fn print_text(r: &CheckReport) {
    println!(
        "{}: {} files, {} live SST files, {} write-ahead log(s) (replayed as {})",
        r.path.display(),
        r.files,
        r.sst_files.len(),
        r.wal_files.len(),
        r.wal_recovery
    );
    for c in &r.columns {
        println!("  {:<28} {:>12} entries", c.name, c.entries);
    }
    for (name, bytes) in &r.unlisted_files {
        println!(
            "unlisted {name}: {bytes} bytes the MANIFEST does not list (an unfinished write; \
             the next read-write open, e.g. `ledger purge`, deletes it)"
        );
    }
    if r.is_healthy() {
        println!("healthy: every file present, every checksum verified");
    }
    for d in &r.damage {
        println!("DAMAGED {}: {}", d.file, d.reason);
    }
}
