//! `bstore serve --archive s3://…`: `bstore-archive`'s reader as the RPC server's archive
//! tier (`bstore_rpc::archive::BlockArchive`). The reader is opened on the server's own Tokio
//! runtime at its first use (its HTTP connections belong to the runtime that made them);
//! `check` opens the archive once at startup, on a runtime of its own, so a wrong location
//! or credentials fail `bstore serve` at once instead of its first request.
//!
//! The archive's errors cross into the server as [`ArchiveFault`]s: [`fault`] sorts each
//! [`ArchiveError`] into the kind the server answers by, and keeps its message (which names
//! the object key, the operation and the cause) as the detail.

use std::fmt;

use bstore_archive::{Archive, ArchiveError, ArchiveReader};
use bstore_ledger::Slot;
use bstore_ledger::history::BlockRecord;
use bstore_rpc::archive::{ArchiveFault, ArchiveFaultKind, ArchiveFuture, BlockArchive};
use tokio::sync::OnceCell;

/// Opens the archive client (no request yet).
type Open = dyn Fn() -> Result<Archive, ArchiveError> + Send + Sync;

/// The archive behind the server's ledger.
pub(crate) struct ServedArchive {
    open: Box<Open>,
    reader: OnceCell<ArchiveReader>,
    /// Where it is (for messages).
    url: String,
}

impl fmt::Debug for ServedArchive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServedArchive")
            .field("url", &self.url)
            .finish()
    }
}

/// The kind of an archive failure as the server tells them apart. Exhaustive over
/// [`ArchiveError`], so that a new archive error has to pick its kind here.
pub(crate) fn fault_kind(e: &ArchiveError) -> ArchiveFaultKind {
    match e {
        // The store answered, and the object is not there: a block object the index
        // names, or the layout object when the read asked for it.
        e if e.is_not_found() => ArchiveFaultKind::NotFound,
        ArchiveError::Store { .. } | ArchiveError::BadLocation { .. } => {
            ArchiveFaultKind::Unreachable
        }
        // The reader's only layout error: no layout object at the location, no archive.
        ArchiveError::Layout { .. } => ArchiveFaultKind::NotFound,
        ArchiveError::Corrupt { .. } | ArchiveError::TooLarge { .. } => ArchiveFaultKind::Corrupt,
        ArchiveError::Ledger { .. } | ArchiveError::LedgerRead(_) | ArchiveError::Task(_) => {
            ArchiveFaultKind::Internal
        }
    }
}

/// `e` as the server's fault, its message kept as the detail.
pub(crate) fn fault(e: &ArchiveError) -> ArchiveFault {
    ArchiveFault::new(fault_kind(e), e.to_string())
}

impl ServedArchive {
    /// An archive opened by `open` (called again at first use, on the server's runtime).
    pub(crate) fn new(
        url: &str,
        open: impl Fn() -> Result<Archive, ArchiveError> + Send + Sync + 'static,
    ) -> Self {
        Self {
            open: Box::new(open),
            reader: OnceCell::new(),
            url: url.to_string(),
        }
    }

    /// Opens the archive once (layout and signature catalog) on a runtime of its own.
    pub(crate) fn check(&self) -> Result<(), String> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        let archive = (self.open)().map_err(|e| e.to_string())?;
        runtime
            .block_on(ArchiveReader::open(archive))
            .map(drop)
            .map_err(|e| format!("{}: {e}", self.url))
    }

    /// The reader, opened at first use. Opening the client fails with the archive's own
    /// message (as at startup); opening the reader names the location first.
    async fn reader(&self) -> Result<&ArchiveReader, ArchiveFault> {
        self.reader
            .get_or_try_init(|| async {
                let archive = (self.open)().map_err(|e| fault(&e))?;
                ArchiveReader::open(archive)
                    .await
                    .map_err(|e| ArchiveFault::new(fault_kind(&e), format!("{}: {e}", self.url)))
            })
            .await
    }
}

impl BlockArchive for ServedArchive {
    fn block(&self, slot: Slot) -> ArchiveFuture<'_, Option<BlockRecord>> {
        Box::pin(async move {
            let reader = self.reader().await?;
            reader.block(slot).await.map_err(|e| fault(&e))
        })
    }

    fn locate<'a>(&'a self, signature: &'a [u8; 64]) -> ArchiveFuture<'a, Option<(Slot, u32)>> {
        Box::pin(async move {
            let reader = self.reader().await?;
            let at = reader.locate(signature).await.map_err(|e| fault(&e))?;
            Ok(at.map(|at| (at.slot, at.index)))
        })
    }

    fn slots(&self, first: Slot, last: Slot, limit: usize) -> ArchiveFuture<'_, Vec<Slot>> {
        Box::pin(async move {
            let reader = self.reader().await?;
            reader
                .slots(first, last, limit)
                .await
                .map_err(|e| fault(&e))
        })
    }

    fn first_slot(&self) -> ArchiveFuture<'_, Option<Slot>> {
        Box::pin(async move {
            let reader = self.reader().await?;
            reader.first_slot().await.map_err(|e| fault(&e))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn archive_errors_sort_into_the_kinds_the_server_answers_by() {
        let corrupt = ArchiveError::Corrupt {
            key: "main/blocks/5".into(),
            reason: "bad zstd frame".into(),
        };
        assert_eq!(
            fault(&corrupt),
            ArchiveFault::new(
                ArchiveFaultKind::Corrupt,
                "object main/blocks/5: bad zstd frame"
            )
        );
        let too_large = ArchiveError::TooLarge {
            key: "main/blocks/5".into(),
            what: "block object",
            size: 10,
            limit: 5,
        };
        assert_eq!(fault_kind(&too_large), ArchiveFaultKind::Corrupt);
        let no_archive = ArchiveError::Layout {
            key: "main/layout.json".into(),
            reason: "no archive here (layout object missing)".into(),
        };
        assert_eq!(fault_kind(&no_archive), ArchiveFaultKind::NotFound);
        let bad_location = ArchiveError::BadLocation {
            url: "s3://x".into(),
            reason: "bucket names are 3-63 of a-z 0-9 - .".into(),
        };
        assert_eq!(fault_kind(&bad_location), ArchiveFaultKind::Unreachable);
        let missing = ArchiveError::Store {
            op: "GET",
            key: "main/blocks/5".into(),
            source: object_store::Error::NotFound {
                path: "main/blocks/5".into(),
                source: "404".into(),
            },
        };
        assert_eq!(fault_kind(&missing), ArchiveFaultKind::NotFound);
        let refused = ArchiveError::Store {
            op: "GET",
            key: "main/blocks/5".into(),
            source: object_store::Error::Generic {
                store: "S3",
                source: "connection refused".into(),
            },
        };
        assert_eq!(fault_kind(&refused), ArchiveFaultKind::Unreachable);
        assert!(
            fault(&refused)
                .detail
                .starts_with("object store GET main/blocks/5: ")
        );
        let task = ArchiveError::Task("cancelled".into());
        assert_eq!(fault_kind(&task), ArchiveFaultKind::Internal);
    }
}
