//! Which ledger work runs on the I/O thread that read the request, and which on a worker
//! pool. Handing a request to a pool thread and its answer back costs two thread wake-ups
//! (about four context switches); for a request whose ledger work is a few point reads,
//! that hand-off is most of its latency and much of its CPU. So work bounded by a small
//! constant runs where the request arrived:
//!
//! - the slot methods that read a fixed number of rows (`getSlot`, `getBlockTime`, ...);
//! - `getSignatureStatuses` of at most [`MAX_SIGNATURES`] signatures;
//! - `getSignaturesForAddress` with a `limit` of at most [`MAX_ENTRIES`] and neither
//!   `before` nor `until` (each of those reads a whole block);
//! - `getTransaction` when the transaction memo names the data set holding it and its
//!   block's widest set has at most [`MAX_SET_SHREDS`] shreds: it reads that one set, and
//!   if the set does not hold it, the request goes on to the workers without walking.
//!
//! Everything that reads a block (`getBlock`, a `getTransaction` not located, the `before` / `until`
//! lookups: a block of Agave 4.x is at least one 32-shred FEC set per entry batch, a few
//! hundred shreds even when nearly empty) and every long scan (`getBlocks`) keeps the
//! bounded pools, so an I/O thread is never held for long: inline work is about a hundred
//! point reads at most (plus, for `getSignaturesForAddress`, the entries of slots that do
//! not count at the commitment, which only forks leave), and as many inline requests run
//! at once as there are I/O threads.

use bstore_ledger::fetch::FetchBuffer;
use bstore_ledger::store::{Blockstore, KvEngine};

/// The largest `getSignaturesForAddress` limit answered on an I/O thread (each entry is a
/// status seek, a memo and a block time: about a hundred point reads at this limit).
pub(crate) const MAX_ENTRIES: usize = 32;
/// The most signatures of a `getSignatureStatuses` answered on an I/O thread.
pub(crate) const MAX_SIGNATURES: usize = 16;
/// The widest data set (in shreds) of a block whose `getTransaction` is answered on an I/O
/// thread once the transaction memo names the set holding it (two of Agave 4.x's 32-shred
/// FEC sets).
pub(crate) const MAX_SET_SHREDS: u32 = 64;

/// Runs `f` here, on the calling I/O thread, with a fresh fetch buffer: empty (no
/// allocation) for every inline method but a located `getTransaction`, which fills it with
/// one data set.
pub(crate) fn run<E: KvEngine, T>(
    store: &Blockstore<E>,
    f: impl FnOnce(&Blockstore<E>, &mut FetchBuffer) -> T,
) -> T {
    f(store, &mut FetchBuffer::new())
}
