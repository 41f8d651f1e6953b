//! When a secondary catches up with its writer.
//!
//! A RocksDB secondary sees the writer's new rows only after `catch_up`, which costs a
//! system call per table file even when nothing changed. Polling every few milliseconds
//! trades that cost for freshness. The pacer does better on Linux: it watches the
//! database directory (inotify: a write-ahead-log append, a new or renamed file) and makes
//! a catch-up due at the first change, but never sooner than `min_gap` after the previous
//! one; with no change at all, one is due every `idle` (a safety net for changes the watch
//! cannot see, e.g. on a network filesystem). Where the watch cannot be set up (another
//! OS, no inotify instances left), it falls back to polling every `min_gap` and says why
//! ([`CatchUpPacer::watch_error`]).
//!
//! Invariant: `wait` returns `true` at most once per `min_gap` and at least once per
//! `idle`; it never blocks longer than the slice it is given, so the caller checks its own
//! stop signal between calls.

use std::path::Path;
use std::time::{Duration, Instant};

/// How catch-ups are paced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CatchUpPacing {
    /// Every `Duration`, whether or not the writer wrote.
    Poll(Duration),
    /// At the first change of the writer's files at least `min_gap` after the previous
    /// catch-up; after `idle` when nothing changes.
    OnChange {
        /// Shortest time between two catch-ups (bounds their cost under a write storm).
        min_gap: Duration,
        /// Longest time between two catch-ups when the watch reports nothing.
        idle: Duration,
    },
}

/// Paces the catch-ups of one secondary (see the module docs).
#[derive(Debug)]
pub struct CatchUpPacer {
    watch: Option<watch::DirWatch>,
    /// Why `watch` is `None` under `OnChange`.
    watch_error: Option<String>,
    pacing: CatchUpPacing,
    /// The previous catch-up; `None` before the first, which is due at once.
    last: Option<Instant>,
}

impl CatchUpPacer {
    /// Paces catch-ups of the database in `db_dir` (the ledger's `rocksdb` directory). A
    /// watch that cannot be set up is replaced by polling every `min_gap`.
    pub fn new(db_dir: &Path, pacing: CatchUpPacing) -> Self {
        let (watch, watch_error) = match pacing {
            CatchUpPacing::Poll(_) => (None, None),
            CatchUpPacing::OnChange { .. } => match watch::DirWatch::new(db_dir) {
                Ok(w) => (Some(w), None),
                Err(e) => (
                    None,
                    Some(format!("cannot watch {}: {e}", db_dir.display())),
                ),
            },
        };
        Self {
            watch,
            watch_error,
            pacing,
            last: None,
        }
    }

    /// Whether the directory is watched (false: polling).
    pub fn is_watching(&self) -> bool {
        self.watch.is_some()
    }

    /// Why changes are not watched although `OnChange` asked for it.
    pub fn watch_error(&self) -> Option<&str> {
        self.watch_error.as_deref()
    }

    /// Waits at most `slice`; `true` when a catch-up is due now (the caller then catches
    /// up: the pacer counts it as done).
    pub fn wait(&mut self, slice: Duration) -> bool {
        let now = Instant::now();
        let Some(last) = self.last else {
            self.last = Some(now);
            return true;
        };
        let (min_gap, idle) = match (self.pacing, &self.watch) {
            (CatchUpPacing::Poll(every), _) => (every, every),
            (CatchUpPacing::OnChange { min_gap, .. }, None) => (min_gap, min_gap),
            (CatchUpPacing::OnChange { min_gap, idle }, Some(_)) => (min_gap, idle.max(min_gap)),
        };
        let gap_end = last + min_gap;
        if now < gap_end {
            // Too soon for any catch-up; changes meanwhile stay pending in the watch.
            std::thread::sleep(slice.min(gap_end - now));
            return false;
        }
        let idle_end = last + idle;
        let due = match self.watch.as_mut() {
            None => now >= idle_end || self.sleep_until(idle_end, slice),
            Some(w) => {
                let timeout = idle_end.saturating_duration_since(now).min(slice);
                w.wait_changed(timeout) || Instant::now() >= idle_end
            }
        };
        if due {
            self.last = Some(Instant::now());
        }
        due
    }

    fn sleep_until(&self, end: Instant, slice: Duration) -> bool {
        let left = end.saturating_duration_since(Instant::now());
        std::thread::sleep(left.min(slice));
        Instant::now() >= end
    }
}

#[cfg(target_os = "linux")]
mod watch {
    use std::mem::MaybeUninit;
    use std::os::fd::{AsFd, OwnedFd};
    use std::path::Path;
    use std::time::Duration;

    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    use rustix::fs::inotify::{self, CreateFlags, WatchFlags};
    use rustix::io::Errno;

    /// An inotify watch on one directory: appends, new files, renames into it, deletions.
    #[derive(Debug)]
    pub(super) struct DirWatch {
        fd: OwnedFd,
        buf: Vec<MaybeUninit<u8>>,
    }

    impl DirWatch {
        pub(super) fn new(dir: &Path) -> std::io::Result<Self> {
            let fd = inotify::init(CreateFlags::CLOEXEC | CreateFlags::NONBLOCK)?;
            inotify::add_watch(
                &fd,
                dir,
                WatchFlags::MODIFY
                    | WatchFlags::CREATE
                    | WatchFlags::MOVED_TO
                    | WatchFlags::DELETE
                    | WatchFlags::CLOSE_WRITE,
            )?;
            Ok(Self {
                fd,
                buf: vec![MaybeUninit::uninit(); 16 * 1024],
            })
        }

        /// Waits up to `timeout` for an event; drains every queued one. `true` when the
        /// directory changed (or the queue overflowed, or the watch broke: a catch-up is
        /// then the safe answer).
        pub(super) fn wait_changed(&mut self, timeout: Duration) -> bool {
            let ts = Timespec {
                tv_sec: i64::try_from(timeout.as_secs()).unwrap_or(i64::MAX),
                tv_nsec: i64::from(timeout.subsec_nanos()),
            };
            let mut fds = [PollFd::new(&self.fd, PollFlags::IN)];
            match poll(&mut fds, Some(&ts)) {
                Ok(0) => return false,
                Ok(_) => {}
                Err(Errno::INTR) => return false,
                Err(_) => return true,
            }
            let mut changed = false;
            let mut reader = inotify::Reader::new(self.fd.as_fd(), &mut self.buf);
            loop {
                match reader.next() {
                    // Any event counts, IGNORED (the directory itself went away) included.
                    Ok(_) => changed = true,
                    Err(Errno::AGAIN) => break,
                    Err(Errno::INTR) => continue,
                    Err(_) => return true,
                }
            }
            changed
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod watch {
    use std::path::Path;
    use std::time::Duration;

    /// No directory watch on this OS: the pacer polls.
    #[derive(Debug)]
    pub(super) struct DirWatch;

    impl DirWatch {
        pub(super) fn new(_dir: &Path) -> std::io::Result<Self> {
            Err(std::io::Error::other("no directory watch on this OS"))
        }

        pub(super) fn wait_changed(&mut self, _timeout: Duration) -> bool {
            true
        }
    }
}

#[cfg(test)]
#[path = "catch_up_pacer_tests.rs"]
mod tests;
