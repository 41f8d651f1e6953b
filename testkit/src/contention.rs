//! Keeping readers from starving replay.
//!
//! Replay's fetch runs on its own thread and must not slow down when full-slot readers
//! (RPC `getBlock`, the demo's reader threads) hammer the same blockstore. On a small
//! machine the readers' CPU time is what hurts: each is a multi-get, a deshred and a decode,
//! as heavy as replay's own. Two controls, used together by the demo and the benchmark:
//!
//! - [`ReaderGate`]: admission control. At most `permits` full-slot reads run at once; the
//!   other readers wait in line. With `permits = cores - 1` a core stays free for replay.
//! - [`ReaderPriority`]: readers lower their own thread's scheduling priority, so when they
//!   do share a core with replay, the kernel runs replay first.

use std::sync::{Condvar, Mutex, PoisonError};

use thread_priority::{
    NormalThreadSchedulePolicy, ThreadPriority, ThreadSchedulePolicy,
    set_thread_priority_and_policy, thread_native_id,
};

/// Bounded concurrency for readers: a counting semaphore.
#[derive(Debug)]
pub struct ReaderGate {
    permits: usize,
    in_use: Mutex<usize>,
    freed: Condvar,
}

/// A reader's turn; the permit returns to the gate when dropped.
#[derive(Debug)]
pub struct ReadPermit<'g> {
    gate: &'g ReaderGate,
}

impl ReaderGate {
    /// A gate letting `permits` readers in at once (at least one).
    pub fn new(permits: usize) -> Self {
        Self {
            permits: permits.max(1),
            in_use: Mutex::new(0),
            freed: Condvar::new(),
        }
    }

    /// A gate for this machine: one reader per core beyond the one kept for replay.
    pub fn for_machine() -> Self {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        Self::new(cores.saturating_sub(1))
    }

    /// Readers allowed at once.
    pub fn permits(&self) -> usize {
        self.permits
    }

    /// Waits for a free permit.
    pub fn enter(&self) -> ReadPermit<'_> {
        // The counter stays consistent under a panic elsewhere: every change is one `+= 1`
        // or `-= 1` under the lock.
        let mut in_use = self.in_use.lock().unwrap_or_else(PoisonError::into_inner);
        while *in_use >= self.permits {
            in_use = self
                .freed
                .wait(in_use)
                .unwrap_or_else(PoisonError::into_inner);
        }
        *in_use += 1;
        ReadPermit { gate: self }
    }
}

impl Drop for ReadPermit<'_> {
    fn drop(&mut self) {
        let mut in_use = self
            .gate
            .in_use
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        *in_use = in_use.saturating_sub(1);
        self.gate.freed.notify_one();
    }
}

/// The scheduling priority a reader thread gives itself.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ReaderPriority {
    /// Unchanged (competes equally with replay).
    Normal,
    /// The lowest normal priority (nice 19: about 1/70 of replay's CPU weight when both
    /// want the same core), still running whenever a core is otherwise idle.
    #[default]
    Lowest,
    /// `SCHED_IDLE`: runs only on an otherwise idle core (readers may stall under load).
    Idle,
}

impl ReaderPriority {
    /// Applies the priority to the calling thread. Failures (a platform without it) are
    /// returned as text; the reader may go on at normal priority.
    pub fn apply_to_current_thread(self) -> Result<(), String> {
        let policy = match self {
            Self::Normal => return Ok(()),
            Self::Lowest => NormalThreadSchedulePolicy::Other,
            Self::Idle => NormalThreadSchedulePolicy::Idle,
        };
        set_thread_priority_and_policy(
            thread_native_id(),
            ThreadPriority::Min,
            ThreadSchedulePolicy::Normal(policy),
        )
        .map_err(|e| format!("cannot lower the reader thread's priority: {e:?}"))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use super::*;

    #[test]
    fn gate_never_lets_more_than_its_permits_in() {
        let gate = Arc::new(ReaderGate::new(2));
        let inside = Arc::new(AtomicUsize::new(0));
        let peak = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..6)
            .map(|_| {
                let (gate, inside, peak) = (gate.clone(), inside.clone(), peak.clone());
                std::thread::spawn(move || {
                    for _ in 0..20 {
                        let _permit = gate.enter();
                        let now = inside.fetch_add(1, Ordering::SeqCst) + 1;
                        peak.fetch_max(now, Ordering::SeqCst);
                        std::thread::sleep(Duration::from_micros(200));
                        inside.fetch_sub(1, Ordering::SeqCst);
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().expect("reader thread");
        }
        assert_eq!(peak.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn lowest_priority_applies_on_linux() {
        std::thread::spawn(|| {
            ReaderPriority::Lowest
                .apply_to_current_thread()
                .expect("lower priority");
            let nice = std::fs::read_to_string("/proc/thread-self/stat").expect("stat");
            // Field 19 of /proc/<tid>/stat is the nice value (after the `(comm)` field).
            let after_comm = nice.rsplit(')').next().expect("comm");
            let fields: Vec<&str> = after_comm.split_whitespace().collect();
            assert_eq!(fields[16], "19", "nice value of the reader thread");
        })
        .join()
        .expect("thread");
    }
}
