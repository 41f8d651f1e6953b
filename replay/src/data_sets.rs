//! The completed-data-sets service (`docs/consumers.md#completed-data-sets-service`): told over a
//! bounded channel which data sets
//! `insert_shreds` just completed, it fetches each set alone and tells its subscribers the
//! first signature of every transaction. Errors are logged and counted, never fatal.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use bstore_ledger::fetch::{FetchBuffer, ViewFetch};
use bstore_ledger::store::{Blockstore, CompletedDataSet};
use bstore_ledger::{Signature, Slot};
use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};

/// Capacity of the service's input channel, as in Agave.
pub const COMPLETED_DATA_SETS_CAPACITY: usize = 100_000;

/// How often an idle service looks at the exit flag.
const EXIT_POLL: Duration = Duration::from_millis(50);

/// The bounded channel the inserter sends each `InsertOutcome::completed_data_sets` on.
pub fn completed_data_sets_channel() -> (
    Sender<Vec<CompletedDataSet>>,
    Receiver<Vec<CompletedDataSet>>,
) {
    crossbeam_channel::bounded(COMPLETED_DATA_SETS_CAPACITY)
}

/// Receives the signatures of each completed data set.
pub trait SignatureSubscriber: Send {
    /// The first signature of every transaction of one data set of `slot`, in order
    /// (transactions without a signature are skipped).
    fn notify(&mut self, slot: Slot, signatures: &[Signature]);
}

/// A channel subscriber; a full or closed channel drops the notification (counted by the
/// caller's receiver, not here: the service never blocks on a subscriber).
impl SignatureSubscriber for Sender<(Slot, Vec<Signature>)> {
    fn notify(&mut self, slot: Slot, signatures: &[Signature]) {
        if self.try_send((slot, signatures.to_vec())).is_err() {
            log::debug!("signature subscriber channel full or closed; slot {slot} dropped");
        }
    }
}

/// Counters of a running service.
#[derive(Debug, Default)]
struct Counters {
    sets: AtomicU64,
    signatures: AtomicU64,
    errors: AtomicU64,
    /// Highest slot seen, plus one (0 = none yet).
    max_slot_plus_one: AtomicU64,
}

/// A snapshot of the service's counters.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DataSetsStats {
    /// Data sets fetched and reported.
    pub sets: u64,
    /// Signatures reported.
    pub signatures: u64,
    /// Data sets that failed to fetch (logged and skipped).
    pub errors: u64,
    /// The highest slot named on the channel (Agave's `max_slots.shred_insert`).
    pub max_shred_insert_slot: Option<Slot>,
}

impl Counters {
    fn snapshot(&self) -> DataSetsStats {
        let max = self.max_slot_plus_one.load(Ordering::Relaxed);
        DataSetsStats {
            sets: self.sets.load(Ordering::Relaxed),
            signatures: self.signatures.load(Ordering::Relaxed),
            errors: self.errors.load(Ordering::Relaxed),
            max_shred_insert_slot: max.checked_sub(1).map(Slot),
        }
    }
}

/// The service thread. Stops when `exit` is set or every sender is dropped (after handling
/// what is queued).
#[derive(Debug)]
pub struct CompletedDataSetsService {
    thread: Option<JoinHandle<()>>,
    counters: Arc<Counters>,
}

impl CompletedDataSetsService {
    /// Starts the service on its own thread.
    pub fn spawn(
        blockstore: Arc<Blockstore>,
        receiver: Receiver<Vec<CompletedDataSet>>,
        subscribers: Vec<Box<dyn SignatureSubscriber>>,
        exit: Arc<AtomicBool>,
    ) -> std::io::Result<Self> {
        let counters = Arc::new(Counters::default());
        let thread_counters = Arc::clone(&counters);
        let thread = std::thread::Builder::new()
            .name("bstoreDataSets".into())
            .spawn(move || {
                let mut worker = Worker {
                    blockstore,
                    subscribers,
                    counters: thread_counters,
                    buf: FetchBuffer::new(),
                    signatures: Vec::new(),
                };
                worker.run(&receiver, &exit);
            })?;
        Ok(Self {
            thread: Some(thread),
            counters,
        })
    }

    /// The counters now.
    pub fn stats(&self) -> DataSetsStats {
        self.counters.snapshot()
    }

    /// Waits for the thread to stop (set the exit flag or drop the senders first) and
    /// returns the final counters.
    pub fn join(mut self) -> DataSetsStats {
        if let Some(thread) = self.thread.take()
            && thread.join().is_err()
        {
            log::error!("completed-data-sets service thread panicked");
        }
        self.counters.snapshot()
    }
}

struct Worker {
    blockstore: Arc<Blockstore>,
    subscribers: Vec<Box<dyn SignatureSubscriber>>,
    counters: Arc<Counters>,
    buf: FetchBuffer,
    /// Reused for every set.
    signatures: Vec<Signature>,
}

impl Worker {
    fn run(&mut self, receiver: &Receiver<Vec<CompletedDataSet>>, exit: &AtomicBool) {
        while !exit.load(Ordering::Relaxed) {
            match receiver.recv_timeout(EXIT_POLL) {
                Ok(sets) => {
                    for set in sets {
                        self.handle(set);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
    }

    fn handle(&mut self, set: CompletedDataSet) {
        self.counters
            .max_slot_plus_one
            .fetch_max(set.slot.0.saturating_add(1), Ordering::Relaxed);
        self.signatures.clear();
        let fetched =
            self.blockstore
                .fetch_data_block_views(set.slot, set.start..set.end, &mut self.buf);
        match fetched {
            Ok(views) => {
                for data_set in &views.sets {
                    for tx in data_set.entries.transactions() {
                        if let Some(sig) = tx.first_signature() {
                            self.signatures.push(Signature(*sig));
                        }
                    }
                }
            }
            Err(e) => {
                self.counters.errors.fetch_add(1, Ordering::Relaxed);
                log::warn!(
                    "completed data set slot {} shreds {}..{}: {e}",
                    set.slot,
                    set.start,
                    set.end
                );
                return;
            }
        }
        self.counters.sets.fetch_add(1, Ordering::Relaxed);
        self.counters
            .signatures
            .fetch_add(self.signatures.len() as u64, Ordering::Relaxed);
        for subscriber in &mut self.subscribers {
            subscriber.notify(set.slot, &self.signatures);
        }
    }
}
