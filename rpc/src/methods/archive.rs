//! The archive tier as the server sees it (`docs/archive.md`): blocks and
//! signatures beyond the local ledger, behind a small trait so this crate carries no
//! object-store client (`bstore serve --archive` plugs `bstore-archive`'s reader in).
//!
//! Where Agave's RPC falls back to its long-term storage (Bigtable), bstore falls back to the
//! archive, with the same rules: a rooted block the local ledger cannot give (cleaned up,
//! below the first available block, skipped), a transaction the ledger does not know,
//! `getBlocks` below the local first available block, and the first available block itself.
//! An archived block is encoded by the same code as a local one, from the same raw rows
//! (`BlockRecord`), so its JSON is the same.

use std::fmt::Debug;
use std::future::Future;
use std::pin::Pin;

use bstore_ledger::Slot;
use bstore_ledger::history::BlockRecord;

pub use crate::error::archive::{ArchiveFault, ArchiveFaultKind};

/// A boxed future of an archive answer. A failure is typed by its kind, which picks the
/// JSON-RPC answer (`RpcError::Archive`); its detail is for the operator (logged, and
/// named in the error's `data`). Something the archive does not hold is `Ok(None)` (or an
/// empty list), never a fault.
pub type ArchiveFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, ArchiveFault>> + Send + 'a>>;

/// What the server asks of an archive. Every call is bounded in object-store requests by
/// the implementation (see `bstore-archive`'s reader).
pub trait BlockArchive: Send + Sync + Debug {
    /// The block of `slot`, if archived.
    fn block(&self, slot: Slot) -> ArchiveFuture<'_, Option<BlockRecord>>;
    /// The slot and position in its block of the transaction whose first signature is
    /// `signature`, if archived.
    fn locate<'a>(&'a self, signature: &'a [u8; 64]) -> ArchiveFuture<'a, Option<(Slot, u32)>>;
    /// Archived slots in `first..=last`, ascending, at most `limit`.
    fn slots(&self, first: Slot, last: Slot, limit: usize) -> ArchiveFuture<'_, Vec<Slot>>;
    /// The lowest archived slot.
    fn first_slot(&self) -> ArchiveFuture<'_, Option<Slot>>;
}
