//! # bstore-replay
//!
//! The two streaming consumers of the fetch path (`docs/consumers.md#replay`,
//! `docs/consumers.md#completed-data-sets-service`), built on the
//! [`Blockstore`](bstore_ledger::store::Blockstore) and reported through `bstore-metrics`:
//!
//! - **Replay**: [`ReplayDriver`] follows a slot as its shreds arrive: each call fetches,
//!   with the slot's running shred count, only the data sets completed since (as zero-copy
//!   views, on the caller's thread), verifies their PoH from the parent's blockhash and the
//!   tick rules, and hands them to an [`Executor`]. A finished slot yields [`SlotStats`]
//!   (returned, and emitted once as `replay-slot-stats`); a bad one is marked dead with a
//!   [`ReplayError`] saying why. [`follow`] is the replay thread's loop. What the driver
//!   keeps of finished slots is a cache over the ledger, bounded by [`Retention`].
//! - **Completed data sets**: [`CompletedDataSetsService`] fetches each data set that
//!   `insert_shreds` reports and tells [`SignatureSubscriber`]s the transactions' first
//!   signatures.
//!
//! The harnesses that run all of it together (`bstore demo`, the contention bench) are in
//! the `bstore-testkit` crate, not here.
//!
//! Start reading at [`driver`], then `slot.rs` (one fetch call of one slot).
//!
//! Design: `docs/consumers.md#replay`, `docs/consumers.md#completed-data-sets-service`,
//! `docs/threading-and-admission.md` and `docs/admission.md` in the repository.

mod alpenglow;
mod batch;
mod data_sets;
pub mod driver;
mod error;
mod executor;
mod fetch_mode;
mod follow;
mod insert_stats;
mod known;
mod slot;
mod stats;
mod ticks;

pub use alpenglow::{Alpenglow, ComponentViolation};
pub use batch::{BatchEntry, BatchTransaction, BatchTransactions, EntryBatch};
pub use data_sets::{
    COMPLETED_DATA_SETS_CAPACITY, CompletedDataSetsService, DataSetsStats, SignatureSubscriber,
    completed_data_sets_channel,
};
pub use driver::{Completion, DeadSlots, ReplayDriver, ReplayOptions, SlotStatus};
pub use error::ReplayError;
pub use executor::{
    CountingExecutor, ExecuteError, ExecutionTotals, Executor, MAX_TRANSACTION_BYTES,
};
pub use fetch_mode::FetchMode;
pub use follow::{FollowSummary, follow};
pub use insert_stats::{BLOCKSTORE_DUPLICATE_SLOT, BLOCKSTORE_INSERT, InsertTally};
pub use known::{Retained, Retention};
pub use stats::{
    Latency, MetricsSink, REPLAY_SLOT_DEAD, REPLAY_SLOT_STATS, SlotStats, dead_slot_datapoint,
};
pub use ticks::{TickCheck, TickViolation};
