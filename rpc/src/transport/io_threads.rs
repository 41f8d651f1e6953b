//! The HTTP I/O threads (`bstoreRpcIo`): each runs a single-threaded Tokio runtime of its
//! own and serves the connections handed to it from accept to close. A connection's reads,
//! request parsing, inline point reads and writes all happen on the one thread its socket
//! is registered with, so a request wakes that thread and no other.
//!
//! Why not one multi-thread runtime: its idle workers are woken to look for work whenever
//! a task becomes ready, so a request also woke a second I/O thread, and could move to that
//! thread, which first had to get a core (docs/threading-and-admission.md#io-threads has
//! the measurements: about one `futex` call less per request, lower p50s).
//!
//! The accept loop (`conn.rs`) runs on the server thread and hands each accepted socket,
//! deregistered from its runtime, to the thread with the fewest open connections; the
//! connection's future registers it again when it first runs there. Work a request sends
//! to the worker pools comes back through a channel that wakes only the connection's thread.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::JoinHandle;

use tokio::sync::mpsc;

use crate::error::RpcError;

/// A connection's whole life, run on the I/O thread it is handed to.
pub(crate) type ConnectionTask = Pin<Box<dyn Future<Output = ()> + Send + 'static>>;

/// One I/O thread: where to send it connections, and how many it has open.
struct IoThread {
    /// Unbounded, but never longer than the connections the accept loop admitted: each
    /// task holds one of its permits (`--max-connections`) until it ends.
    tasks: mpsc::UnboundedSender<ConnectionTask>,
    open: Arc<AtomicUsize>,
    handle: JoinHandle<()>,
}

/// The I/O threads. Each ends once its queue is closed ([`Self::join`], or a drop, which
/// does not wait), dropping whatever it still runs: the accept loop must have seen every
/// connection finish first (it holds a permit per connection until then).
pub(crate) struct IoThreads {
    /// At least one ([`Self::start`]).
    threads: Vec<IoThread>,
    /// Where the search for the least busy thread starts (rotates, so ties spread).
    next: AtomicUsize,
}

/// Gives its thread's open-connection count back when the connection's task ends or is
/// dropped.
struct OpenGuard(Arc<AtomicUsize>);

impl Drop for OpenGuard {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl IoThreads {
    /// Starts `count` threads (at least one), each with its runtime built before this
    /// returns (a runtime that cannot be built is this call's error).
    pub(crate) fn start(count: usize) -> Result<Self, RpcError> {
        let mut threads = Vec::with_capacity(count.max(1));
        for _ in 0..count.max(1) {
            let runtime = tokio::runtime::Builder::new_current_thread()
                // Nothing of bstore's uses the blocking pool (ledger work runs on the bounded
                // workers); kept at one thread, as the single runtime before had it.
                .max_blocking_threads(1)
                .enable_all()
                .build()
                .map_err(|source| RpcError::Io { source })?;
            let (tasks, mut queue) = mpsc::unbounded_channel::<ConnectionTask>();
            let handle = std::thread::Builder::new()
                .name("bstoreRpcIo".into())
                .spawn(move || {
                    runtime.block_on(async move {
                        while let Some(task) = queue.recv().await {
                            // A panic in a connection's task ends that task only (Tokio
                            // catches it); the thread goes on serving the others.
                            tokio::spawn(task);
                        }
                    });
                })
                .map_err(|source| RpcError::Io { source })?;
            threads.push(IoThread {
                tasks,
                open: Arc::new(AtomicUsize::new(0)),
                handle,
            });
        }
        Ok(Self {
            threads,
            next: AtomicUsize::new(0),
        })
    }

    /// Runs `task` on the thread with the fewest open connections (the first such from a
    /// rotating start). `false` when that thread is gone (it cannot end while the queues
    /// are open; the task is dropped, which closes its socket).
    pub(crate) fn hand_off(&self, task: ConnectionTask) -> bool {
        // `threads` is never empty (`start`), so `n >= 1` and `first` indexes it.
        let n = self.threads.len();
        let first = self.next.fetch_add(1, Ordering::Relaxed) % n;
        let open = |i: usize| self.threads[i].open.load(Ordering::Relaxed);
        let least = (1..n)
            .map(|i| (first + i) % n)
            .fold(first, |best, i| if open(i) < open(best) { i } else { best });
        let thread = &self.threads[least];
        thread.open.fetch_add(1, Ordering::Relaxed);
        let guard = OpenGuard(Arc::clone(&thread.open));
        thread
            .tasks
            .send(Box::pin(async move {
                task.await;
                drop(guard);
            }))
            .is_ok()
    }

    /// Closes the queues and waits for every thread to end.
    pub(crate) fn join(self) {
        let handles: Vec<JoinHandle<()>> = self
            .threads
            .into_iter()
            .map(|t| {
                drop(t.tasks);
                t.handle
            })
            .collect();
        for handle in handles {
            if handle.join().is_err() {
                log::error!("an I/O thread panicked");
            }
        }
    }
}

#[cfg(test)]
#[path = "io_threads_tests.rs"]
mod tests;
