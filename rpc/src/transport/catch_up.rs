//! Following a live writer: the secondary's catch-up loop on a thread of its own, and what
//! `getHealth` and `/health` say of it ([`ViewHealth`]).
//!
//! A server whose catch-ups keep failing still answers, but from a view that no longer
//! moves: new blocks and transactions the validator has would be answered `null`. So the
//! server says it is unhealthy, as Agave's RPC does when it cannot tell where the cluster
//! is (`getHealth`: -32005 `Node is unhealthy`, data `{"numSlotsBehind": null}`;
//! `/health`: `unknown`), once no catch-up has succeeded for `RpcConfig::unhealthy_after`
//! (default: the time Agave's default health distance, 128 slots, takes at 400 ms slots;
//! a following server catches up at least every `--catch-up-idle-ms`, 1 s, when it sees
//! no change), and healthy again at the next that does. Load balancers then send the
//! traffic to the validator.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, mpsc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use bstore_ledger::store::{Blockstore, KvEngine};

use crate::error::RpcError;
use crate::transport::limits::CatchUp;

/// The longest the catch-up thread waits before it looks for a stop request.
const STOP_CHECK: Duration = Duration::from_millis(20);

/// Whether the server's view still follows the writer.
#[derive(Debug)]
pub(crate) struct ViewHealth {
    origin: Instant,
    /// Milliseconds after `origin` of the last successful catch-up (opening counts as one);
    /// `None`: not following a writer (a view of its own is always current).
    last_caught_up_ms: Option<AtomicU64>,
    /// How long without a successful catch-up makes the view stale.
    stale_after: Duration,
}

impl ViewHealth {
    /// A view that follows no writer: always healthy.
    pub(crate) fn fixed() -> Self {
        Self {
            origin: Instant::now(),
            last_caught_up_ms: None,
            stale_after: Duration::MAX,
        }
    }

    /// A view that follows a writer, current as of now, stale once no catch-up has
    /// succeeded for `stale_after`.
    pub(crate) fn following(stale_after: Duration) -> Self {
        Self {
            origin: Instant::now(),
            last_caught_up_ms: Some(AtomicU64::new(0)),
            stale_after,
        }
    }

    fn millis(&self, at: Instant) -> u64 {
        u64::try_from(at.saturating_duration_since(self.origin).as_millis()).unwrap_or(u64::MAX)
    }

    /// Records a successful catch-up at `at`.
    pub(crate) fn caught_up(&self, at: Instant) {
        if let Some(last) = &self.last_caught_up_ms {
            last.fetch_max(self.millis(at), Ordering::Relaxed);
        }
    }

    /// `Err` (Agave's unhealthy error) when no catch-up has succeeded for the stale limit
    /// before `at`.
    pub(crate) fn check(&self, at: Instant) -> Result<(), RpcError> {
        let Some(last) = &self.last_caught_up_ms else {
            return Ok(());
        };
        let since =
            Duration::from_millis(self.millis(at).saturating_sub(last.load(Ordering::Relaxed)));
        if since > self.stale_after {
            return Err(RpcError::Unhealthy { since });
        }
        Ok(())
    }

    /// `/health`'s text: `ok`, or `unknown` when stale (Agave's words).
    pub(crate) fn text(&self, at: Instant) -> &'static str {
        match self.check(at) {
            Ok(()) => "ok",
            Err(_) => "unknown",
        }
    }
}

/// The secondary's catch-up loop on a thread of its own (one call at a time), stopped and
/// joined when dropped.
pub(crate) struct CatchUpThread {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl CatchUpThread {
    /// Starts the loop when `catch_up` says to follow the writer (else a thread-less
    /// handle), recording each success in `health`.
    pub(crate) fn start<E: KvEngine + 'static>(
        store: Arc<Blockstore<E>>,
        catch_up: CatchUp,
        health: Arc<ViewHealth>,
    ) -> Result<Self, RpcError> {
        let CatchUp::Paced(pacing) = catch_up else {
            return Ok(Self {
                stop: None,
                thread: None,
            });
        };
        let (tx, rx) = mpsc::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("bstoreRpcCatchUp".into())
            .spawn(move || {
                let mut pacer = store.catch_up_pacer(pacing);
                if let Some(e) = pacer.watch_error() {
                    log::warn!("{e}; catching up at fixed intervals instead");
                }
                // Runs until told to stop (or the server is gone: the sender is dropped).
                while let Err(mpsc::TryRecvError::Empty) = rx.try_recv() {
                    if !pacer.wait(STOP_CHECK) {
                        continue;
                    }
                    match store.catch_up() {
                        Ok(_) => health.caught_up(Instant::now()),
                        Err(e) => log::warn!("secondary catch-up failed: {e}"),
                    }
                }
            })
            .map_err(|source| RpcError::Io { source })?;
        Ok(Self {
            stop: Some(tx),
            thread: Some(thread),
        })
    }
}

impl Drop for CatchUpThread {
    fn drop(&mut self) {
        self.stop = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_view_is_stale_once_no_catch_up_succeeded_for_the_limit() {
        const STALE_AFTER: Duration = Duration::from_secs(51);
        let fixed = ViewHealth::fixed();
        let much_later = fixed.origin + STALE_AFTER * 10;
        assert!(fixed.check(much_later).is_ok());
        assert_eq!(fixed.text(much_later), "ok");

        let view = ViewHealth::following(STALE_AFTER);
        let t0 = view.origin;
        assert!(
            view.check(t0 + STALE_AFTER).is_ok(),
            "opening counts as caught up"
        );
        let late = t0 + STALE_AFTER + Duration::from_millis(1);
        let e = view.check(late).expect_err("stale");
        assert_eq!(e.code(), -32005);
        assert_eq!(e.to_string(), "Node is unhealthy");
        assert_eq!(e.data(), Some(serde_json::json!({"numSlotsBehind": null})));
        assert_eq!(view.text(late), "unknown");
        // A success makes it current again; an older report never moves it back.
        view.caught_up(late);
        view.caught_up(t0);
        assert!(view.check(late + STALE_AFTER).is_ok());
        assert!(view.check(late + STALE_AFTER * 2).is_err());
    }
}
