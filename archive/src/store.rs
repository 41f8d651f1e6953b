//! [`Archive`]: one archive (an object store and a prefix) with the bounded, counted
//! requests the writer and the reader are built from. Every read checks the object's size
//! against a limit before its body is read; every request is counted so that runs and
//! benchmarks report their cost in requests.

use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use bstore_ledger::Slot;
use bytes::Bytes;
use futures::StreamExt;
use object_store::path::Path;
use object_store::{GetOptions, GetRange, ObjectStore, ObjectStoreExt, PutPayload};

use crate::error::{ArchiveError, Result};
use crate::keys::{Keys, parse_slot_name, slot_name};
use crate::layout::{Layout, ReadLimits};
use crate::location::{ArchiveLocation, S3Options};

/// Keys one list page returns at most (S3's `max-keys` default); used to count pages.
const LIST_PAGE: u64 = 1000;

/// Requests and bytes moved so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RequestCounts {
    /// PUT requests (one per object written).
    pub puts: u64,
    /// Whole-object and range GETs.
    pub gets: u64,
    /// List pages (one per 1,000 keys returned, at least one per listing).
    pub lists: u64,
    /// DELETE requests.
    pub deletes: u64,
    /// Bytes of object bodies sent by PUTs.
    pub bytes_put: u64,
    /// Bytes of object bodies received by GETs.
    pub bytes_got: u64,
}

#[derive(Debug, Default)]
struct Counters {
    puts: AtomicU64,
    gets: AtomicU64,
    lists: AtomicU64,
    deletes: AtomicU64,
    bytes_put: AtomicU64,
    bytes_got: AtomicU64,
}

/// One archive: a store, the names under its prefix, and the read limits.
#[derive(Debug, Clone)]
pub struct Archive {
    store: Arc<dyn ObjectStore>,
    keys: Keys,
    limits: ReadLimits,
    counters: Arc<Counters>,
}

impl Archive {
    /// The archive under `prefix` of `store`.
    pub fn new(store: Arc<dyn ObjectStore>, prefix: &str, limits: ReadLimits) -> Result<Self> {
        let prefix = Path::parse(prefix).map_err(|e| ArchiveError::BadLocation {
            url: prefix.to_string(),
            reason: e.to_string(),
        })?;
        Ok(Self {
            store,
            keys: Keys::new(prefix),
            limits,
            counters: Arc::default(),
        })
    }

    /// The archive at an `s3://` location.
    pub fn open_s3(
        location: &ArchiveLocation,
        options: &S3Options,
        limits: ReadLimits,
    ) -> Result<Self> {
        Self::new(options.build(location)?, &location.prefix, limits)
    }

    /// An archive in memory (tests, benchmarks).
    pub fn in_memory() -> Self {
        Self {
            store: Arc::new(object_store::memory::InMemory::new()),
            keys: Keys::new(Path::default()),
            limits: ReadLimits::default(),
            counters: Arc::default(),
        }
    }

    /// The same archive with other read limits.
    pub fn with_limits(mut self, limits: ReadLimits) -> Self {
        self.limits = limits;
        self
    }

    /// The key names under this archive's prefix.
    pub fn keys(&self) -> &Keys {
        &self.keys
    }

    pub(crate) fn limits(&self) -> &ReadLimits {
        &self.limits
    }

    /// The underlying store (tests use it to damage objects).
    pub fn object_store(&self) -> &Arc<dyn ObjectStore> {
        &self.store
    }

    /// Requests made through this handle and its clones so far.
    pub fn counts(&self) -> RequestCounts {
        let c = &self.counters;
        RequestCounts {
            puts: c.puts.load(Ordering::Relaxed),
            gets: c.gets.load(Ordering::Relaxed),
            lists: c.lists.load(Ordering::Relaxed),
            deletes: c.deletes.load(Ordering::Relaxed),
            bytes_put: c.bytes_put.load(Ordering::Relaxed),
            bytes_got: c.bytes_got.load(Ordering::Relaxed),
        }
    }

    /// One PUT: the object appears whole or not at all.
    pub(crate) async fn put(&self, key: &Path, bytes: Vec<u8>) -> Result<()> {
        let len = bytes.len() as u64;
        self.counters.puts.fetch_add(1, Ordering::Relaxed);
        self.store
            .put(key, PutPayload::from(bytes))
            .await
            .map_err(|e| ArchiveError::store("PUT", key, e))?;
        self.counters.bytes_put.fetch_add(len, Ordering::Relaxed);
        Ok(())
    }

    /// The whole object `key` (`None` when absent); larger than `limit` is `TooLarge`
    /// before its body is read.
    pub(crate) async fn get(
        &self,
        key: &Path,
        what: &'static str,
        limit: u64,
    ) -> Result<Option<Bytes>> {
        self.counters.gets.fetch_add(1, Ordering::Relaxed);
        let result = match self.store.get_opts(key, GetOptions::default()).await {
            Ok(r) => r,
            Err(object_store::Error::NotFound { .. }) => return Ok(None),
            Err(e) => return Err(ArchiveError::store("GET", key, e)),
        };
        if result.meta.size > limit {
            return Err(ArchiveError::TooLarge {
                key: key.to_string(),
                what,
                size: result.meta.size,
                limit,
            });
        }
        let bytes = result
            .bytes()
            .await
            .map_err(|e| ArchiveError::store("GET", key, e))?;
        self.counters
            .bytes_got
            .fetch_add(bytes.len() as u64, Ordering::Relaxed);
        if bytes.len() as u64 > limit {
            return Err(ArchiveError::TooLarge {
                key: key.to_string(),
                what,
                size: bytes.len() as u64,
                limit,
            });
        }
        Ok(Some(bytes))
    }

    /// Bytes `range` of `key`, exactly (a shorter object is `Corrupt`; absent is a
    /// not-found `Store` error, see [`ArchiveError::is_not_found`]).
    pub(crate) async fn get_range(&self, key: &Path, range: Range<u64>) -> Result<Bytes> {
        self.counters.gets.fetch_add(1, Ordering::Relaxed);
        let want = range.end - range.start;
        let options = GetOptions {
            range: Some(GetRange::Bounded(range.clone())),
            ..GetOptions::default()
        };
        let result = self
            .store
            .get_opts(key, options)
            .await
            .map_err(|e| ArchiveError::store("GET range", key, e))?;
        // A server that answers with other bytes than asked (e.g. the whole object) is
        // refused before the body is read.
        if result.range != range {
            return Err(ArchiveError::corrupt(
                key,
                format!(
                    "asked bytes {range:?}, the store answered {:?}",
                    result.range
                ),
            ));
        }
        let bytes = result
            .bytes()
            .await
            .map_err(|e| ArchiveError::store("GET range", key, e))?;
        self.counters
            .bytes_got
            .fetch_add(bytes.len() as u64, Ordering::Relaxed);
        if bytes.len() as u64 != want {
            return Err(ArchiveError::corrupt(
                key,
                format!("bytes {range:?} read back {} bytes", bytes.len()),
            ));
        }
        Ok(bytes)
    }

    /// Deletes the object `key`; an object that is already gone counts as deleted. Errors with
    /// [`ArchiveError::Store`] when the store refuses.
    pub async fn delete(&self, key: &Path) -> Result<()> {
        self.counters.deletes.fetch_add(1, Ordering::Relaxed);
        match self.store.delete(key).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(ArchiveError::store("DELETE", key, e)),
        }
    }

    /// The object names in `folder` after `after` (exclusive; all with `None`), in name
    /// order, until `stop` says so or `limit` names are taken. Costs one list request per
    /// 1,000 names read.
    pub async fn list_names(
        &self,
        folder: &str,
        after: Option<&str>,
        limit: usize,
        mut stop: impl FnMut(&str) -> bool,
    ) -> Result<Vec<(String, u64)>> {
        let dir = self.keys.folder(folder);
        let mut stream = match after {
            Some(name) => self
                .store
                .list_with_offset(Some(&dir), &dir.clone().join(name)),
            None => self.store.list(Some(&dir)),
        };
        let mut out = Vec::new();
        let mut seen = 0u64;
        while out.len() < limit {
            let Some(item) = stream.next().await else {
                break;
            };
            let meta = item.map_err(|e| ArchiveError::store("LIST", &dir, e))?;
            seen += 1;
            // Only direct children this layout names; anything else is ignored.
            let Some(name) = meta.location.filename() else {
                continue;
            };
            if meta
                .location
                .prefix_match(&dir)
                .is_none_or(|mut rest| rest.nth(1).is_some())
            {
                continue;
            }
            if stop(name) {
                break;
            }
            out.push((name.to_string(), meta.size));
        }
        self.counters
            .lists
            .fetch_add(1 + seen / LIST_PAGE, Ordering::Relaxed);
        Ok(out)
    }

    /// Slots named in `folder` (`blocks` or `sigs`) within `first..=last`, ascending, at
    /// most `limit`.
    pub async fn list_slots(
        &self,
        folder: &str,
        first: Slot,
        last: Slot,
        limit: usize,
    ) -> Result<Vec<Slot>> {
        let after = first.0.checked_sub(1).map(|s| slot_name(Slot(s)));
        let names = self
            .list_names(folder, after.as_deref(), limit, |name| {
                parse_slot_name(name).is_some_and(|s| s > last)
            })
            .await?;
        Ok(names
            .iter()
            .filter_map(|(name, _)| parse_slot_name(name))
            .filter(|s| (first..=last).contains(s))
            .collect())
    }

    /// The stored layout (`None` when this prefix holds no archive yet).
    pub(crate) async fn layout(&self) -> Result<Option<Layout>> {
        let key = self.keys.layout();
        match self.get(&key, "layout object", 64 * 1024).await? {
            Some(bytes) => Layout::from_json(key.as_ref(), &bytes).map(Some),
            None => Ok(None),
        }
    }

    /// The stored layout, writing `wanted` first when there is none. An existing layout
    /// wins: its parameters are the archive's for good.
    pub(crate) async fn layout_or_create(&self, wanted: Layout) -> Result<Layout> {
        if let Some(layout) = self.layout().await? {
            return Ok(layout);
        }
        self.put(&self.keys.layout(), wanted.to_json()).await?;
        // Read back: with two first writers racing, both continue with the one that stuck.
        self.layout().await?.ok_or_else(|| ArchiveError::Layout {
            key: self.keys.layout().to_string(),
            reason: "written but not readable".into(),
        })
    }
}
