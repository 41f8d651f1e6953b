//! The workers' job queue: a mutex-guarded deque and a condition variable.
//!
//! Why not a channel: crossbeam's (and std's) blocking `recv` spins, then calls
//! `sched_yield` several times before it parks. A worker that has just answered and finds
//! the queue empty so gives its core away a few times per request; beside a validator on
//! a small machine each yield hands the core to one of its threads and costs a context
//! switch (measured: 1.5 `sched_yield` per request at 400 requests/s, about 2% of the
//! server's CPU in the calls alone). Here an idle worker parks at once on the futex.
//!
//! Invariants: a job pushed before `close` is popped by some worker (workers drain the
//! queue before they see the close); after `close` nothing is pushed; the queue holds at
//! most `capacity` jobs.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard};

/// Why a push was not taken.
#[derive(Debug)]
pub(crate) enum PushError<T> {
    /// `capacity` jobs are already queued.
    Full(T),
    /// The queue was closed.
    Closed(T),
}

#[derive(Debug)]
struct State<T> {
    jobs: VecDeque<T>,
    closed: bool,
    /// Workers blocked in `pop`: a push wakes one only when there is one (a wake is a
    /// system call even with no waiter).
    waiting: usize,
}

/// A bounded multi-producer, multi-consumer queue whose consumers block without spinning.
#[derive(Debug)]
pub(crate) struct JobQueue<T> {
    state: Mutex<State<T>>,
    ready: Condvar,
    capacity: usize,
}

impl<T> JobQueue<T> {
    pub(crate) fn new(capacity: usize) -> Self {
        Self {
            state: Mutex::new(State {
                jobs: VecDeque::with_capacity(capacity),
                closed: false,
                waiting: 0,
            }),
            ready: Condvar::new(),
            capacity,
        }
    }

    fn lock(&self) -> MutexGuard<'_, State<T>> {
        // No code path panics while holding the lock with the state half-updated (a push
        // or pop is one deque call), so a poisoned lock's state is sound.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Queues `job` and wakes one waiting worker; never blocks.
    pub(crate) fn try_push(&self, job: T) -> Result<(), PushError<T>> {
        let mut state = self.lock();
        if state.closed {
            return Err(PushError::Closed(job));
        }
        if state.jobs.len() >= self.capacity {
            return Err(PushError::Full(job));
        }
        state.jobs.push_back(job);
        let wake = state.waiting > 0;
        drop(state);
        if wake {
            self.ready.notify_one();
        }
        Ok(())
    }

    /// The next job, waiting for one; `None` once the queue is closed and empty.
    pub(crate) fn pop(&self) -> Option<T> {
        let mut state = self.lock();
        loop {
            if let Some(job) = state.jobs.pop_front() {
                return Some(job);
            }
            if state.closed {
                return None;
            }
            state.waiting += 1;
            state = self.ready.wait(state).unwrap_or_else(|p| p.into_inner());
            state.waiting -= 1;
        }
    }

    /// Takes no more jobs; workers finish what is queued, then `pop` returns `None`.
    pub(crate) fn close(&self) {
        self.lock().closed = true;
        self.ready.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    #[test]
    fn bounded_and_drained_after_close() {
        let q = JobQueue::new(2);
        q.try_push(1).expect("room");
        q.try_push(2).expect("room");
        assert!(matches!(q.try_push(3), Err(PushError::Full(3))));
        q.close();
        assert!(matches!(q.try_push(4), Err(PushError::Closed(4))));
        assert_eq!(q.pop(), Some(1), "queued before the close: still run");
        assert_eq!(q.pop(), Some(2));
        assert_eq!(q.pop(), None);
    }

    #[test]
    fn every_job_reaches_exactly_one_worker() {
        let q = Arc::new(JobQueue::new(64));
        let done = Arc::new(AtomicUsize::new(0));
        let workers: Vec<_> = (0..3)
            .map(|_| {
                let (q, done) = (Arc::clone(&q), Arc::clone(&done));
                std::thread::spawn(move || {
                    while let Some(n) = q.pop() {
                        done.fetch_add(n, Ordering::Relaxed);
                    }
                })
            })
            .collect();
        let mut sent = 0;
        for n in 1..=1000usize {
            // Full only while the workers are behind: try again until it is taken.
            let mut job = n;
            loop {
                match q.try_push(job) {
                    Ok(()) => break,
                    Err(PushError::Full(back)) => {
                        job = back;
                        std::thread::yield_now();
                    }
                    Err(PushError::Closed(_)) => panic!("closed early"),
                }
            }
            sent += n;
        }
        q.close();
        for w in workers {
            w.join().expect("worker");
        }
        assert_eq!(done.load(Ordering::Relaxed), sent);
    }
}
