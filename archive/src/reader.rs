//! [`ArchiveReader`]: what `bstore serve --archive` asks of an archive, each answer bounded
//! in requests (`docs/archive.md#reads`):
//!
//! | call | requests |
//! |---|---|
//! | [`ArchiveReader::block`] | 1 GET |
//! | [`ArchiveReader::slots`] | 1 LIST per 1,000 slots returned (plus one) |
//! | [`ArchiveReader::first_slot`] | 1 LIST |
//! | [`ArchiveReader::locate`] | sealed range: 1 range GET of the bucket per bloom hit (≈1.0005 ranges), plus 1 of the range's fan-out table the first time; unsealed slot: 0 |
//! | [`ArchiveReader::transaction`] | `locate` + 1 GET, so ≤ 3 reads for a signature |
//! | [`ArchiveReader::refresh`] | 1 LIST of `index/` per 1,000 seals, 2 range GETs per new seal, 1 LIST of `blocks/` past the sealed ranges, 1 GET per new unsealed slot |
//!
//! What it caches (all of it immutable in the archive, so never stale, only incomplete until
//! the next refresh): the layout, each sealed range's summary (header and bloom filter,
//! ≈ 2 bytes per signature), the fan-out table (256 KiB) of each range a lookup touched,
//! and the signature tables of the slots past the last sealed range (≈ 68 bytes per
//! transaction, at most one range's worth while the writer keeps up).

use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use bstore_ledger::Slot;
use bstore_ledger::history::BlockRecord;

use crate::block_object;
use crate::error::{ArchiveError, Result};
use crate::keys::{BLOCKS, INDEX, parse_index_name, parse_slot_name};
use crate::layout::Layout;
use crate::range_index::{HEADER_BYTES, Header, Summary};
use crate::sig_table::{SigTable, TxLocation, first_signatures};
use crate::store::Archive;

/// What the reader knows of the archive's signature index.
#[derive(Debug, Default)]
struct Catalog {
    /// Newest seal of each sealed range, by range start.
    sealed: BTreeMap<u64, Arc<Summary>>,
    /// Tables of the archived slots at or after `unsealed_from`.
    unsealed: BTreeMap<Slot, Arc<SigTable>>,
    /// First slot after the highest sealed range.
    unsealed_from: Slot,
    refreshed: Option<Instant>,
}

/// A lookup refreshes the catalog first when it is older than this.
const MAX_STALENESS: Duration = Duration::from_secs(30);

/// Reads blocks and resolves signatures from one archive.
#[derive(Debug)]
pub struct ArchiveReader {
    archive: Archive,
    layout: Layout,
    catalog: RwLock<Arc<Catalog>>,
}

impl ArchiveReader {
    /// Opens the archive (1 GET of its layout, then a [`Self::refresh`]). An empty prefix is
    /// an error: a server pointed at the wrong place should say so.
    pub async fn open(archive: Archive) -> Result<Self> {
        let layout = archive
            .layout()
            .await?
            .ok_or_else(|| ArchiveError::Layout {
                key: archive.keys().layout().to_string(),
                reason: "no archive here (layout object missing)".into(),
            })?;
        let reader = Self {
            archive,
            layout,
            catalog: RwLock::default(),
        };
        reader.refresh().await?;
        Ok(reader)
    }

    fn snapshot(&self) -> Arc<Catalog> {
        match self.catalog.read() {
            Ok(c) => Arc::clone(&c),
            Err(poisoned) => Arc::clone(&poisoned.into_inner()),
        }
    }

    /// The block of `slot` (`None`: not archived). 1 GET.
    pub async fn block(&self, slot: Slot) -> Result<Option<BlockRecord>> {
        let key = self.archive.keys().block(slot);
        let limit = self.archive.limits().block_object_bytes;
        match self.archive.get(&key, "block object", limit).await? {
            Some(bytes) => {
                block_object::decode(&key, slot, &bytes, self.archive.limits()).map(Some)
            }
            None => Ok(None),
        }
    }

    /// Archived slots in `first..=last`, ascending, at most `limit`.
    pub async fn slots(&self, first: Slot, last: Slot, limit: usize) -> Result<Vec<Slot>> {
        self.archive.list_slots(BLOCKS, first, last, limit).await
    }

    /// The lowest archived slot. 1 LIST.
    pub async fn first_slot(&self) -> Result<Option<Slot>> {
        let names = self.archive.list_names(BLOCKS, None, 1, |_| false).await?;
        Ok(names.first().and_then(|(name, _)| parse_slot_name(name)))
    }

    /// Re-reads what changed in the archive's signature index since the last refresh.
    pub async fn refresh(&self) -> Result<()> {
        let old = self.snapshot();
        let names = self
            .archive
            .list_names(INDEX, None, usize::MAX, |_| false)
            .await?;
        let mut newest: BTreeMap<u64, u32> = BTreeMap::new();
        for (name, _) in &names {
            if let Some((start, n)) = parse_index_name(name) {
                let e = newest.entry(start.0).or_default();
                *e = (*e).max(n);
            }
        }
        let mut sealed = BTreeMap::new();
        for (&start, &n) in &newest {
            match old.sealed.get(&start) {
                Some(s) if s.header.n_slots == n => {
                    sealed.insert(start, Arc::clone(s));
                }
                _ => {
                    let summary = self.load_summary(Slot(start), n).await?;
                    sealed.insert(start, Arc::new(summary));
                }
            }
        }
        let unsealed_from = Slot(
            newest
                .keys()
                .next_back()
                .map_or(0, |&s| s.saturating_add(self.layout.range_slots)),
        );
        let most = self.archive.limits().unsealed_slots;
        let slots = self
            .archive
            .list_slots(
                BLOCKS,
                unsealed_from,
                Slot(u64::MAX),
                most.saturating_add(1),
            )
            .await?;
        if slots.len() > most {
            return Err(ArchiveError::TooLarge {
                key: self.archive.keys().folder(BLOCKS).to_string(),
                what: "count of slots past the last sealed range",
                size: slots.len() as u64,
                limit: most as u64,
            });
        }
        let mut unsealed = BTreeMap::new();
        for slot in slots {
            let table = match old.unsealed.get(&slot) {
                Some(t) => Arc::clone(t),
                None => Arc::new(self.load_table(slot).await?),
            };
            unsealed.insert(slot, table);
        }
        let catalog = Catalog {
            sealed,
            unsealed,
            unsealed_from,
            refreshed: Some(Instant::now()),
        };
        match self.catalog.write() {
            Ok(mut c) => *c = Arc::new(catalog),
            Err(poisoned) => *poisoned.into_inner() = Arc::new(catalog),
        }
        Ok(())
    }

    async fn load_summary(&self, start: Slot, n: u32) -> Result<Summary> {
        let key = self.archive.keys().index(start, n);
        let head = self.archive.get_range(&key, 0..HEADER_BYTES).await?;
        let header = Header::parse(&key, &self.layout, &head)?;
        if header.range_start != start || header.n_slots != n {
            return Err(ArchiveError::corrupt(
                &key,
                format!(
                    "header says range {} with {} slots",
                    header.range_start, header.n_slots
                ),
            ));
        }
        let limits = self.archive.limits();
        header.check_summary_limit(&key, limits)?;
        let body = self
            .archive
            .get_range(&key, HEADER_BYTES..HEADER_BYTES + header.summary_bytes())
            .await?;
        Summary::parse(&key, header, &body, limits)
    }

    async fn load_table(&self, slot: Slot) -> Result<SigTable> {
        let key = self.archive.keys().sigs(slot);
        let bytes = self
            .archive
            .get(
                &key,
                "signature table",
                self.archive.limits().sig_table_bytes,
            )
            .await?
            .ok_or_else(|| {
                ArchiveError::corrupt(&key, format!("missing although block {slot} exists"))
            })?;
        SigTable::decode(&key, slot, &bytes)
    }

    /// Where the transaction whose first signature is `sig` sits, per the index (not yet
    /// checked against its block: [`Self::transaction`] does that).
    pub async fn locate(&self, sig: &[u8; 64]) -> Result<Option<TxLocation>> {
        if self
            .snapshot()
            .refreshed
            .is_none_or(|t| t.elapsed() > MAX_STALENESS)
        {
            self.refresh().await?;
        }
        match self.locate_once(sig).await {
            // A seal superseded since the last refresh: refresh and ask again, once.
            Err(e) if e.is_not_found() => {
                self.refresh().await?;
                self.locate_once(sig).await
            }
            other => other,
        }
    }

    async fn locate_once(&self, sig: &[u8; 64]) -> Result<Option<TxLocation>> {
        let catalog = self.snapshot();
        for summary in catalog.sealed.values() {
            if !summary.bloom.may_contain(sig) {
                continue;
            }
            let limits = self.archive.limits();
            // First hit in this range: one read of the whole fan-out table, kept.
            let words = match summary.cached_fanout_words(sig) {
                Some(words) => words,
                None => {
                    let table = summary.fanout_table_range();
                    let bytes = self.archive.get_range(&summary.key, table).await?;
                    summary.set_fanout(&bytes)?;
                    summary.cached_fanout_words(sig).ok_or_else(|| {
                        ArchiveError::corrupt(&summary.key, "fan-out table not kept")
                    })?
                }
            };
            let bucket = summary.bucket_range(&words, limits)?;
            if bucket.is_empty() {
                continue;
            }
            let entries = self.archive.get_range(&summary.key, bucket).await?;
            if let Some(hit) = summary.search_bucket(&entries, sig)?.first() {
                return Ok(Some(*hit));
            }
        }
        Ok(catalog
            .unsealed
            .range(catalog.unsealed_from..)
            .find_map(|(slot, t)| t.find(sig).map(|index| TxLocation { slot: *slot, index })))
    }

    /// The block holding the transaction whose first signature is `sig`, and its place:
    /// ≤ 3 object reads. A location whose block does not carry `sig` at that index is
    /// `Corrupt`, never a wrong answer.
    pub async fn transaction(&self, sig: &[u8; 64]) -> Result<Option<(BlockRecord, TxLocation)>> {
        let Some(at) = self.locate(sig).await? else {
            return Ok(None);
        };
        let key = self.archive.keys().block(at.slot);
        let record = self.block(at.slot).await?.ok_or_else(|| {
            ArchiveError::corrupt(
                &key,
                "the signature index names this slot but its block is missing",
            )
        })?;
        if first_signature(&record, at.index)? != Some(*sig) {
            return Err(ArchiveError::corrupt(
                &key,
                format!(
                    "transaction {} is not the one the signature index names",
                    at.index
                ),
            ));
        }
        Ok(Some((record, at)))
    }
}

/// The first signature of transaction `index` of `record`.
pub fn first_signature(record: &BlockRecord, index: u32) -> Result<Option<[u8; 64]>> {
    Ok(first_signatures(record)?
        .get(index as usize)
        .copied()
        .flatten())
}
