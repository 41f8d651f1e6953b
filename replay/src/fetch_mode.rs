//! `FetchMode`: how replay (and a full-slot reader) fetches.
//!
//! The type is opaque so that the `fetch-pool` feature only adds (a constructor), and never
//! changes what other crates can match on: the pooled variant lives in a private enum.

use bstore_ledger::fetch::{AllowDead, EntryFetch, SlotEntries};
use bstore_ledger::store::Blockstore;
use bstore_ledger::{Result, Slot};

/// How replay fetches. The default is serial.
#[derive(Debug, Clone, Default)]
pub struct FetchMode(pub(crate) Kind);

#[derive(Debug, Clone, Default)]
pub(crate) enum Kind {
    /// One multi-get and a serial deshred + view decode on the caller's thread itself (the
    /// design: replay never waits behind anyone else's work).
    #[default]
    Serial,
    /// Through a bounded rayon pool, possibly shared with other readers (the design the
    /// contention benchmark compares against).
    #[cfg(feature = "fetch-pool")]
    Pool(std::sync::Arc<bstore_ledger::fetch::FetchPool>),
}

impl FetchMode {
    /// Serial fetches on the caller's thread (the default).
    pub fn serial() -> Self {
        Self(Kind::Serial)
    }

    /// Fetches through `pool`, shared with whoever else holds it.
    #[cfg(feature = "fetch-pool")]
    pub fn pooled(pool: std::sync::Arc<bstore_ledger::fetch::FetchPool>) -> Self {
        Self(Kind::Pool(pool))
    }

    /// The owned entries of `slot` from shred `start` on, as a full-slot reader (RPC
    /// `getBlock`, the demo's readers) fetches them in this mode: with the number of
    /// shreds they came from and whether the slot is full.
    pub fn read_slot(
        &self,
        blockstore: &Blockstore,
        slot: Slot,
        start: u32,
        allow_dead: AllowDead,
    ) -> Result<SlotEntries> {
        match &self.0 {
            Kind::Serial => blockstore.get_slot_entries_with_shred_info(slot, start, allow_dead),
            #[cfg(feature = "fetch-pool")]
            Kind::Pool(pool) => blockstore.get_slot_entries_pooled(slot, start, allow_dead, pool),
        }
    }
}
