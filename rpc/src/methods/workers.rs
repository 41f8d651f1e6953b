//! The block-fetch workers: a fixed number of named threads, each with its own reusable
//! `FetchBuffer`, fed by a bounded queue. `getBlock` never fetches on an I/O thread, never
//! runs more fetches than there are workers, and is refused (`RpcError::Busy`) instead of
//! queued without bound.

use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::JoinHandle;

use bstore_ledger::fetch::FetchBuffer;
use bstore_ledger::store::{Blockstore, DefaultEngine, KvEngine};
use tokio::sync::oneshot;

use super::job_queue::{JobQueue, PushError};
use crate::error::RpcError;

type Job<E> = Box<dyn FnOnce(&Blockstore<E>, &mut FetchBuffer) + Send>;

/// The worker pool. Dropping it closes the queue; queued jobs still run, then the threads
/// exit and are joined.
pub(crate) struct FetchWorkers<E: KvEngine + 'static = DefaultEngine> {
    queue: Arc<JobQueue<Job<E>>>,
    threads: Vec<JoinHandle<()>>,
    /// Jobs admitted and not yet finished (queued + running).
    in_flight: Arc<AtomicUsize>,
    limit: usize,
}

impl<E: KvEngine + 'static> std::fmt::Debug for FetchWorkers<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FetchWorkers")
            .field("threads", &self.threads.len())
            .field("in_flight", &self.in_flight.load(Ordering::Relaxed))
            .field("limit", &self.limit)
            .finish()
    }
}

/// Decrements the in-flight count when a job ends, whether it returned or panicked.
struct InFlight(Arc<AtomicUsize>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl<E: KvEngine + 'static> FetchWorkers<E> {
    /// `workers` threads (at least one) named `{name}NN`, and room for `queued` waiting jobs.
    pub(crate) fn new(
        store: Arc<Blockstore<E>>,
        name: &str,
        workers: usize,
        queued: usize,
    ) -> Result<Self, RpcError> {
        let workers = workers.max(1);
        // Admission is by the in-flight count (at most `workers + queued`), so the queue
        // can hold every admitted job: a worker that has just answered but not yet returned
        // to `pop` never makes an admitted request look busy.
        let queue = Arc::new(JobQueue::<Job<E>>::new(workers + queued));
        let mut threads = Vec::with_capacity(workers);
        for i in 0..workers {
            let jobs = Arc::clone(&queue);
            let store = Arc::clone(&store);
            let spawned = std::thread::Builder::new()
                .name(format!("{name}{i:02}"))
                .spawn(move || {
                    let mut buf = FetchBuffer::new();
                    while let Some(job) = jobs.pop() {
                        let ran = panic::catch_unwind(AssertUnwindSafe(|| job(&store, &mut buf)));
                        if ran.is_err() {
                            // The job's answer channel went with it (its caller gets an
                            // internal error) and the buffer may be half-filled: start
                            // over with a fresh one. The worker keeps serving, so a
                            // panicking request never leaves the queue without workers.
                            buf = FetchBuffer::new();
                        }
                    }
                });
            match spawned {
                Ok(thread) => threads.push(thread),
                Err(source) => {
                    // The workers already started must not wait forever on a queue no one
                    // will close.
                    queue.close();
                    for t in threads {
                        let _ = t.join();
                    }
                    return Err(RpcError::Io { source });
                }
            }
        }
        Ok(Self {
            queue,
            threads,
            in_flight: Arc::new(AtomicUsize::new(0)),
            limit: workers + queued,
        })
    }

    /// Runs `f` on a worker and awaits its result; `Busy` when every worker is taken and
    /// the queue is full.
    pub(crate) async fn run<T, F>(&self, f: F) -> Result<T, RpcError>
    where
        T: Send + 'static,
        F: FnOnce(&Blockstore<E>, &mut FetchBuffer) -> Result<T, RpcError> + Send + 'static,
    {
        let (tx, rx) = oneshot::channel();
        let admitted = self.in_flight.fetch_add(1, Ordering::AcqRel);
        let guard = InFlight(Arc::clone(&self.in_flight));
        if admitted >= self.limit {
            drop(guard);
            return Err(RpcError::Busy {
                in_flight: admitted,
                limit: self.limit,
            });
        }
        let job: Job<E> = Box::new(move |store, buf| {
            let result = f(store, buf);
            // Free the slot before answering: a client that has its answer may send again.
            drop(guard);
            // The receiver is gone when the client hung up: nothing to tell.
            let _ = tx.send(result);
        });
        match self.queue.try_push(job) {
            Ok(()) => {}
            Err(PushError::Full(job)) => {
                // Unreachable while capacity == limit; refuse rather than block if it were.
                drop(job);
                return Err(RpcError::Busy {
                    in_flight: self.in_flight.load(Ordering::Acquire),
                    limit: self.limit,
                });
            }
            Err(PushError::Closed(_)) => {
                return Err(RpcError::Internal {
                    reason: "fetch workers are shut down".into(),
                });
            }
        }
        rx.await.map_err(|_| RpcError::Internal {
            reason: "a fetch worker failed (panicked) while serving this request".into(),
        })?
    }
}

impl<E: KvEngine + 'static> Drop for FetchWorkers<E> {
    fn drop(&mut self) {
        self.queue.close();
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;
    use std::sync::mpsc;
    use std::time::Duration;

    use bstore_ledger::store::AccessMode;

    use super::*;

    type Gate = Arc<Mutex<mpsc::Receiver<()>>>;

    /// A job that reports it started, then waits to be released.
    fn blocker(
        started: mpsc::Sender<()>,
        release: Gate,
    ) -> impl FnOnce(&Blockstore, &mut FetchBuffer) -> Result<u32, RpcError> + Send + 'static {
        move |_, _| {
            let _ = started.send(());
            let _ = release
                .lock()
                .map(|r| r.recv_timeout(Duration::from_secs(10)));
            Ok(1)
        }
    }

    /// A pool of one worker and one queue slot over an empty ledger (kept in the returned
    /// directory), and a runtime to await it on.
    fn one_worker_one_slot() -> (tempfile::TempDir, FetchWorkers, tokio::runtime::Runtime) {
        let dir = tempfile::tempdir().expect("tempdir");
        let store =
            Arc::new(Blockstore::open(dir.path(), AccessMode::ReadWrite).expect("open ledger"));
        let workers = FetchWorkers::new(store, "bstoreTestWorker", 1, 1).expect("workers");
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .expect("runtime");
        (dir, workers, rt)
    }

    #[test]
    fn a_panicking_job_fails_its_request_and_the_worker_keeps_serving() {
        let (_dir, workers, rt) = one_worker_one_slot();
        rt.block_on(async {
            let failed = workers
                .run(|_, _| -> Result<u32, RpcError> { panic!("a bug in one request") })
                .await;
            assert!(
                matches!(&failed, Err(RpcError::Internal { reason }) if reason.contains("panicked")),
                "{failed:?}"
            );
            for round in 0..3 {
                // A pool without a live worker would never answer: bounded, so it fails.
                let answer = tokio::time::timeout(
                    Duration::from_secs(10),
                    workers.run(move |_, _| Ok(round)),
                )
                .await
                .expect("answered within 10 s");
                assert_eq!(answer.expect("the one worker still serves"), round);
            }
        });
    }

    #[test]
    fn overload_is_refused_not_queued() {
        let (_dir, workers, rt) = one_worker_one_slot();
        let (started_tx, started_rx) = mpsc::channel::<()>();
        let (release_tx, release_rx) = mpsc::channel::<()>();
        let release: Gate = Arc::new(Mutex::new(release_rx));
        rt.block_on(async {
            let poll_once = Duration::from_millis(20);
            // a: admitted and running on the one worker.
            let mut a = Box::pin(workers.run(blocker(started_tx.clone(), Arc::clone(&release))));
            assert!(tokio::time::timeout(poll_once, &mut a).await.is_err());
            started_rx
                .recv_timeout(Duration::from_secs(10))
                .expect("a started");
            // b: admitted into the one queue slot.
            let mut b = Box::pin(workers.run(blocker(started_tx.clone(), Arc::clone(&release))));
            assert!(tokio::time::timeout(poll_once, &mut b).await.is_err());
            // c: refused at once.
            let c = workers
                .run(blocker(started_tx.clone(), Arc::clone(&release)))
                .await;
            assert!(
                matches!(
                    c,
                    Err(RpcError::Busy {
                        in_flight: 2,
                        limit: 2
                    })
                ),
                "{c:?}"
            );
            release_tx.send(()).expect("release a");
            release_tx.send(()).expect("release b");
            assert_eq!(a.await.expect("a"), 1);
            assert_eq!(b.await.expect("b"), 1);
        });
    }
}
