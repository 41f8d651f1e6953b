//! `bstore replay --follow`: replays a ledger while its writer (a validator) still writes
//! it. The ledger is a RocksDB secondary; a watcher thread catches up at the writer's
//! changes (at most every `--catch-up-ms`), names every slot whose meta changed, and the
//! replay loop
//! (`bstore_replay::follow`) fetches each slot's data sets as they complete, verifies them
//! and reports the slot once when it is final (replayed, dead or refused), as a table row or
//! a JSON line, with its datapoint to InfluxDB. SIGINT or SIGTERM stops it after the pass in
//! progress; the summary follows.
//!
//! Bounded work: the watcher looks only at slots from the newest root it saw (or the start
//! slot) upward, remembers one `(received, consumed)` pair per slot it looks at, and forgets
//! those below that floor; the replay driver bounds its own state (`Retention`).

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;

use bstore_ledger::Slot;
use bstore_ledger::store::{Blockstore, CatchUpPacer};
use crossbeam_channel::Sender;

/// Slots the watcher may queue before it waits for the replay loop.
const QUEUE: usize = 4096;

/// How often the watcher looks at the exit flag while it sleeps.
const EXIT_POLL: Duration = Duration::from_millis(20);

/// Starts the watcher: whenever `pacer` says a catch-up is due, follows the writer and
/// sends each slot at or above `start` whose shreds changed. Returns the receiving end; the thread ends (closing
/// the channel) when `exit` is set or the store fails (the error is printed).
pub(crate) fn watch(
    store: Arc<Blockstore>,
    start: Slot,
    mut pacer: CatchUpPacer,
    exit: Arc<AtomicBool>,
) -> crossbeam_channel::Receiver<Slot> {
    let (tx, rx) = crossbeam_channel::bounded(QUEUE);
    thread::Builder::new()
        .name("bstore-replay-watch".into())
        .spawn(move || {
            let mut watcher = Watcher {
                floor: start,
                seen: BTreeMap::new(),
            };
            while !exit.load(Ordering::Relaxed) {
                if !pacer.wait(EXIT_POLL) {
                    continue;
                }
                if let Err(e) = watcher.pass(&store, &tx, &exit) {
                    eprintln!("bstore: replay --follow: the ledger failed: {e}");
                    exit.store(true, Ordering::Relaxed);
                    break;
                }
            }
        })
        .map_or_else(
            |e| eprintln!("bstore: replay --follow: cannot start the watcher: {e}"),
            |_| (),
        );
    rx
}

struct Watcher {
    /// Slots below are settled (at or below a root, or before the start).
    floor: Slot,
    /// What each watched slot had at the last pass: (received, consumed).
    seen: BTreeMap<Slot, (u64, u64)>,
}

impl Watcher {
    fn pass(
        &mut self,
        store: &Blockstore,
        tx: &Sender<Slot>,
        exit: &AtomicBool,
    ) -> bstore_ledger::Result<()> {
        store.catch_up()?;
        for meta in store.slot_metas(self.floor..) {
            let meta = meta?;
            let now = (meta.received, meta.consumed);
            if meta.received == 0 || self.seen.get(&meta.slot) == Some(&now) {
                continue;
            }
            self.seen.insert(meta.slot, now);
            // A full queue waits for the replay loop; an exit request ends the wait.
            let mut slot = meta.slot;
            loop {
                match tx.send_timeout(slot, EXIT_POLL) {
                    Ok(()) => break,
                    Err(crossbeam_channel::SendTimeoutError::Timeout(back)) => {
                        if exit.load(Ordering::Relaxed) {
                            return Ok(());
                        }
                        slot = back;
                    }
                    Err(crossbeam_channel::SendTimeoutError::Disconnected(_)) => return Ok(()),
                }
            }
        }
        if let Some(root) = store.max_root()?
            && root > self.floor
        {
            self.floor = root;
            self.seen = self.seen.split_off(&root);
        }
        Ok(())
    }
}

/// Sets `exit` on SIGINT or SIGTERM (a thread with its own small runtime).
pub(crate) fn stop_on_signals(exit: Arc<AtomicBool>) -> std::io::Result<()> {
    use tokio::signal::unix::{SignalKind, signal};
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    // Registered before returning, so a signal right after start is not lost.
    let (mut int, mut term) = runtime.block_on(async {
        Ok::<_, std::io::Error>((
            signal(SignalKind::interrupt())?,
            signal(SignalKind::terminate())?,
        ))
    })?;
    thread::Builder::new()
        .name("bstore-replay-signals".into())
        .spawn(move || {
            runtime.block_on(async {
                tokio::select! {
                    _ = int.recv() => {}
                    _ = term.recv() => {}
                }
            });
            exit.store(true, Ordering::Relaxed);
        })?;
    Ok(())
}
