//! `bstore serve --archive s3://…`: `bstore-archive`'s reader as the RPC server's archive
//! tier (`bstore_rpc::archive::BlockArchive`). The reader is opened on the server's own Tokio
//! runtime at its first use (its HTTP connections belong to the runtime that made them);
//! `check` opens the archive once at startup, on a runtime of its own, so a wrong location
//! or credentials fail `bstore serve` at once instead of its first request.

use std::fmt;

use bstore_archive::{Archive, ArchiveReader};
use bstore_ledger::Slot;
use bstore_ledger::history::BlockRecord;
use bstore_rpc::archive::{ArchiveFuture, BlockArchive};
use tokio::sync::OnceCell;

/// The archive behind the server's ledger.
pub struct ServedArchive {
    open: Box<dyn Fn() -> Result<Archive, String> + Send + Sync>,
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

impl ServedArchive {
    /// An archive opened by `open` (called again at first use, on the server's runtime).
    pub fn new(
        url: &str,
        open: impl Fn() -> Result<Archive, String> + Send + Sync + 'static,
    ) -> Self {
        Self {
            open: Box::new(open),
            reader: OnceCell::new(),
            url: url.to_string(),
        }
    }

    /// Opens the archive once (layout and signature catalog) on a runtime of its own.
    pub fn check(&self) -> Result<(), String> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        let archive = (self.open)()?;
        runtime
            .block_on(ArchiveReader::open(archive))
            .map(drop)
            .map_err(|e| format!("{}: {e}", self.url))
    }

    async fn reader(&self) -> Result<&ArchiveReader, String> {
        self.reader
            .get_or_try_init(|| async {
                let archive = (self.open)()?;
                ArchiveReader::open(archive)
                    .await
                    .map_err(|e| format!("{}: {e}", self.url))
            })
            .await
    }
}

impl BlockArchive for ServedArchive {
    fn block(&self, slot: Slot) -> ArchiveFuture<'_, Option<BlockRecord>> {
        Box::pin(async move {
            let reader = self.reader().await?;
            reader.block(slot).await.map_err(|e| e.to_string())
        })
    }

    fn locate<'a>(&'a self, signature: &'a [u8; 64]) -> ArchiveFuture<'a, Option<(Slot, u32)>> {
        Box::pin(async move {
            let reader = self.reader().await?;
            let at = reader.locate(signature).await.map_err(|e| e.to_string())?;
            Ok(at.map(|at| (at.slot, at.index)))
        })
    }

    fn slots(&self, first: Slot, last: Slot, limit: usize) -> ArchiveFuture<'_, Vec<Slot>> {
        Box::pin(async move {
            let reader = self.reader().await?;
            reader
                .slots(first, last, limit)
                .await
                .map_err(|e| e.to_string())
        })
    }

    fn first_slot(&self) -> ArchiveFuture<'_, Option<Slot>> {
        Box::pin(async move {
            let reader = self.reader().await?;
            reader.first_slot().await.map_err(|e| e.to_string())
        })
    }
}
