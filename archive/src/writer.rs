//! The archive run (`bstore archive`): uploads the rooted slots of a ledger that the archive
//! lacks, then seals every closed range it covers.
//!
//! Order of writes, which is what makes a run crash-safe and resumable:
//! 1. `layout.json`, once per archive;
//! 2. per slot, its `sigs/` table, then its `blocks/` object — the commit point: a slot is
//!    archived exactly when its block object exists, and a block never exists without its
//!    table;
//! 3. per closed range (the ledger has a root past its last slot, so no slot of it can still
//!    be rooted), after all its uploads finished: a new `index/` object built from the
//!    tables of the blocks listed in it, then the deletion of the seals it supersedes.
//!
//! A rerun lists `blocks/` and uploads only the slots missing there; a slot whose table was
//! written but whose block was not is uploaded again (same table bytes). A range is resealed
//! only when it holds more blocks than its newest seal. Existing objects are never
//! overwritten with different content: block objects are never rewritten at all.

use std::collections::{BTreeMap, HashSet};
use std::time::Instant;

use bstore_ledger::fetch::FetchBuffer;
use bstore_ledger::store::{Blockstore, KvEngine};
use bstore_ledger::{LedgerError, Slot};
use tokio::task::JoinSet;

use crate::block_object;
use crate::error::{ArchiveError, Result};
use crate::keys::{BLOCKS, INDEX, parse_index_name, slot_name};
use crate::layout::Layout;
use crate::range_index;
use crate::sig_table::SigTable;
use crate::store::{Archive, RequestCounts};

/// What to archive.
#[derive(Debug, Clone)]
pub struct ArchiveOptions {
    /// First slot considered (default: the lowest root).
    pub first: Option<Slot>,
    /// Last slot considered (default: the highest root).
    pub last: Option<Slot>,
    /// Slots uploading at once (each is two PUTs in order).
    pub concurrency: usize,
    /// The layout of a new archive (an existing archive keeps its own).
    pub new_layout: Layout,
}

impl Default for ArchiveOptions {
    fn default() -> Self {
        Self {
            first: None,
            last: None,
            concurrency: 8,
            new_layout: Layout::default(),
        }
    }
}

/// Progress after each uploaded slot.
#[derive(Debug, Clone, Copy, Default)]
pub struct Progress {
    /// Slots handled (uploaded, found present, or unavailable) of `total`.
    pub done: u64,
    /// Slots to handle in this run.
    pub total: u64,
    /// Slots uploaded so far (the rest of `done` were present or unavailable).
    pub uploaded: u64,
    /// Bytes of block objects uploaded.
    pub stored_bytes: u64,
}

/// What a run did.
#[derive(Debug, Clone, Default)]
pub struct ArchiveSummary {
    /// The archive's layout (its own when it existed, else the new one).
    pub layout: Layout,
    /// Rooted slots in the considered span.
    pub rooted: u64,
    /// Lowest rooted slot in the span (`None`: no roots there).
    pub first: Option<Slot>,
    /// Highest rooted slot in the span (`None`: no roots there).
    pub last: Option<Slot>,
    /// Slots whose block object was already there.
    pub present: u64,
    /// Slots whose block object this run uploaded.
    pub uploaded: u64,
    /// Rooted slots the ledger cannot give as a whole block (purged, not full, dead).
    pub unavailable: u64,
    /// The first few of those, with the reason.
    pub unavailable_examples: Vec<String>,
    /// Transactions in the uploaded slots.
    pub transactions: u64,
    /// Encoded `BlockRecord` bytes of the uploaded slots.
    pub raw_bytes: u64,
    /// Block object bytes uploaded (compressed).
    pub block_bytes: u64,
    /// Signature table bytes uploaded.
    pub sig_bytes: u64,
    /// Range index objects written.
    pub ranges_sealed: u64,
    /// Bytes of the range index objects written.
    pub index_bytes: u64,
    /// Superseded range indexes deleted.
    pub seals_deleted: u64,
    /// Requests made to the object store and bytes moved.
    pub requests: RequestCounts,
    /// Wall-clock duration of the run, in seconds.
    pub seconds: f64,
}

/// Error kinds of `Blockstore::block_record` that mean "the ledger does not have this
/// block", as opposed to a fault.
const UNAVAILABLE: [&str; 4] = [
    "invalid_block_record",
    "slot_cleaned_up",
    "dead_slot",
    "missing_shred",
];

/// Archives the rooted slots of `ledger` selected by `opts` (see the module docs).
pub async fn archive<E: KvEngine>(
    ledger: &Blockstore<E>,
    archive: &Archive,
    opts: &ArchiveOptions,
    progress: &mut dyn FnMut(&Progress),
) -> Result<ArchiveSummary> {
    let started = Instant::now();
    let before = archive.counts();
    let layout = archive.layout_or_create(opts.new_layout).await?;
    let first = opts.first.unwrap_or(Slot(0));
    let last = opts.last.unwrap_or(Slot(u64::MAX));
    let roots: Vec<Slot> = ledger
        .rooted_slots(first..=last)
        .collect::<std::result::Result<_, _>>()
        .map_err(ArchiveError::LedgerRead)?;
    let max_root = ledger.max_root().map_err(ArchiveError::LedgerRead)?;
    let mut summary = ArchiveSummary {
        layout,
        rooted: roots.len() as u64,
        first: roots.first().copied(),
        last: roots.last().copied(),
        ..ArchiveSummary::default()
    };
    let (Some(&lo), Some(&hi)) = (roots.first(), roots.last()) else {
        summary.seconds = started.elapsed().as_secs_f64();
        return Ok(summary);
    };
    let present: HashSet<Slot> = archive
        .list_slots(BLOCKS, lo, hi, usize::MAX)
        .await?
        .into_iter()
        .collect();
    let seals = list_seals(archive, &layout, lo, hi).await?;
    let mut by_range: BTreeMap<u64, Vec<Slot>> = BTreeMap::new();
    for s in &roots {
        by_range
            .entry(layout.range_start(s.0))
            .or_default()
            .push(*s);
    }
    let mut state = Progress {
        total: roots.len() as u64,
        ..Progress::default()
    };
    let mut buf = FetchBuffer::new();
    for (range_start, slots) in by_range {
        let mut tables: BTreeMap<Slot, SigTable> = BTreeMap::new();
        let mut tasks: JoinSet<Result<()>> = JoinSet::new();
        for slot in slots {
            if present.contains(&slot) {
                summary.present += 1;
                state.done += 1;
                continue;
            }
            while tasks.len() >= opts.concurrency.max(1) {
                join_one(&mut tasks).await?;
            }
            let record = match ledger.block_record(slot, &mut buf) {
                Ok(r) => r,
                Err(e) if UNAVAILABLE.contains(&e.kind()) => {
                    unavailable(&mut summary, slot, &e);
                    state.done += 1;
                    continue;
                }
                Err(e) => return Err(ArchiveError::Ledger { slot, source: e }),
            };
            let table = SigTable::from_record(&record)?;
            let object = block_object::encode(&record)?;
            let sig_bytes = table.encode();
            summary.transactions += record.statuses.len() as u64;
            summary.raw_bytes += object.raw_len;
            summary.block_bytes += object.bytes.len() as u64;
            summary.sig_bytes += sig_bytes.len() as u64;
            let a = archive.clone();
            tasks.spawn(async move {
                a.put(&a.keys().sigs(slot), sig_bytes).await?;
                a.put(&a.keys().block(slot), object.bytes).await
            });
            tables.insert(slot, table);
            summary.uploaded += 1;
            state.done += 1;
            state.uploaded += 1;
            state.stored_bytes = summary.block_bytes;
            progress(&state);
        }
        while !tasks.is_empty() {
            join_one(&mut tasks).await?;
        }
        let closed = max_root.is_some_and(|m| m.0 > layout.range_last(range_start));
        if closed {
            seal(
                archive,
                &layout,
                Slot(range_start),
                &tables,
                &seals,
                &mut summary,
            )
            .await?;
        }
    }
    progress(&state);
    summary.requests = diff(archive.counts(), before);
    summary.seconds = started.elapsed().as_secs_f64();
    Ok(summary)
}

async fn join_one(tasks: &mut JoinSet<Result<()>>) -> Result<()> {
    match tasks.join_next().await {
        Some(Ok(r)) => r,
        Some(Err(e)) => Err(ArchiveError::Task(e.to_string())),
        None => Ok(()),
    }
}

fn unavailable(summary: &mut ArchiveSummary, slot: Slot, e: &LedgerError) {
    summary.unavailable += 1;
    if summary.unavailable_examples.len() < 10 {
        summary
            .unavailable_examples
            .push(format!("slot {slot}: {e}"));
    }
}

/// Seal counts per range start among the ranges of `lo..=hi`.
async fn list_seals(
    archive: &Archive,
    layout: &Layout,
    lo: Slot,
    hi: Slot,
) -> Result<BTreeMap<u64, Vec<u32>>> {
    let first = layout.range_start(lo.0);
    let after = first
        .checked_sub(1)
        .map(|s| format!("{}-ffffffff", slot_name(Slot(s))));
    let names = archive
        .list_names(INDEX, after.as_deref(), usize::MAX, |name| {
            parse_index_name(name).is_some_and(|(start, _)| start > hi)
        })
        .await?;
    let mut seals: BTreeMap<u64, Vec<u32>> = BTreeMap::new();
    for (name, _) in names {
        if let Some((start, n)) = parse_index_name(&name) {
            seals.entry(start.0).or_default().push(n);
        }
    }
    Ok(seals)
}

/// Seals the range at `start` unless its newest seal already covers every block in it.
async fn seal(
    archive: &Archive,
    layout: &Layout,
    start: Slot,
    fresh: &BTreeMap<Slot, SigTable>,
    seals: &BTreeMap<u64, Vec<u32>>,
    summary: &mut ArchiveSummary,
) -> Result<()> {
    let last = Slot(layout.range_last(start.0));
    let blocks = archive.list_slots(BLOCKS, start, last, usize::MAX).await?;
    let existing = seals.get(&start.0).map(Vec::as_slice).unwrap_or_default();
    let n = u32::try_from(blocks.len()).unwrap_or(u32::MAX);
    if blocks.is_empty() || existing.iter().any(|&e| e >= n) {
        return Ok(());
    }
    let mut fetched = Vec::new();
    for slot in &blocks {
        if !fresh.contains_key(slot) {
            let key = archive.keys().sigs(*slot);
            let bytes = archive
                .get(&key, "signature table", archive.limits().sig_table_bytes)
                .await?
                .ok_or_else(|| ArchiveError::corrupt(&key, "missing although its block exists"))?;
            fetched.push(SigTable::decode(&key, *slot, &bytes)?);
        }
    }
    let tables: Vec<&SigTable> = blocks
        .iter()
        .filter_map(|s| fresh.get(s))
        .chain(fetched.iter())
        .collect();
    let bytes = range_index::build(layout, start, &tables)?;
    summary.index_bytes += bytes.len() as u64;
    archive.put(&archive.keys().index(start, n), bytes).await?;
    summary.ranges_sealed += 1;
    for &old in existing.iter().filter(|&&e| e < n) {
        archive.delete(&archive.keys().index(start, old)).await?;
        summary.seals_deleted += 1;
    }
    Ok(())
}

fn diff(a: RequestCounts, b: RequestCounts) -> RequestCounts {
    RequestCounts {
        puts: a.puts - b.puts,
        gets: a.gets - b.gets,
        lists: a.lists - b.lists,
        deletes: a.deletes - b.deletes,
        bytes_put: a.bytes_put - b.bytes_put,
        bytes_got: a.bytes_got - b.bytes_got,
    }
}
