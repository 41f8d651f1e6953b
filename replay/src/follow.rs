//! `follow`: the replay thread's loop. Slots are named on a channel as their shreds are
//! inserted; every named slot is replayed as far as its shreds allow, parents before
//! children, and each slot is reported once when it is final.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use bstore_ledger::Slot;
use crossbeam_channel::{Receiver, RecvTimeoutError};

use crate::driver::{ReplayDriver, SlotStatus};
use crate::error::ReplayError;
use crate::executor::Executor;

/// How often an idle follower looks at the exit flag.
const EXIT_POLL: Duration = Duration::from_millis(50);

/// What [`follow`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FollowSummary {
    pub replayed: usize,
    pub dead: usize,
    pub refused: usize,
    /// Slots still in progress or waiting for their parent when it returned.
    pub unfinished: Vec<Slot>,
}

/// Replays the slots named on `updates` until the channel closes (after a last pass over
/// everything pending) or `exit` is set. `on_final` gets each slot's final status once.
/// Each slot is reported once: later updates naming it are ignored. `Err` only when the
/// store fails.
///
/// State stays bounded on a long run: after each pass, everything below the store's newest
/// root and below every pending slot (the settled floor) is forgotten (blockhashes, dead
/// marks, reported slots), and updates naming a slot below that floor are ignored: such a
/// slot is settled, as Agave's replay never starts a slot below its root.
pub fn follow<E: Executor>(
    driver: &mut ReplayDriver<E>,
    updates: &Receiver<Slot>,
    exit: &AtomicBool,
    mut on_final: impl FnMut(Slot, SlotStatus),
) -> Result<FollowSummary, ReplayError> {
    let mut pending = BTreeSet::new();
    // Slots already reported: updates still queued for them are ignored.
    let mut done = BTreeSet::new();
    let mut summary = FollowSummary::default();
    let mut closed = false;
    let mut floor = Slot(0);
    while !exit.load(Ordering::Relaxed) {
        match updates.recv_timeout(EXIT_POLL) {
            Ok(slot) => {
                pending.insert(slot);
            }
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => closed = true,
        }
        pending.extend(updates.try_iter());
        pending.retain(|slot| *slot >= floor && !done.contains(slot));
        // A finished slot may release children waiting for it: pass again until none does.
        loop {
            let mut finished = Vec::new();
            for &slot in &pending {
                let status = driver.replay(slot)?;
                if status.is_final() {
                    match &status {
                        SlotStatus::Replayed { .. } => summary.replayed += 1,
                        SlotStatus::Dead { .. } => summary.dead += 1,
                        _ => summary.refused += 1,
                    }
                    finished.push(slot);
                    on_final(slot, status);
                }
            }
            if finished.is_empty() {
                break;
            }
            for slot in finished {
                pending.remove(&slot);
                done.insert(slot);
            }
        }
        floor = forget_settled(driver, &pending, &mut done)?.max(floor);
        if closed {
            break;
        }
    }
    summary.unfinished = pending.into_iter().collect();
    Ok(summary)
}

/// Forgets what no pending or future slot can need: everything below the store's newest
/// root and below the lowest pending slot. Returns that floor (`Slot(0)` with no root).
fn forget_settled<E: Executor>(
    driver: &mut ReplayDriver<E>,
    pending: &BTreeSet<Slot>,
    done: &mut BTreeSet<Slot>,
) -> Result<Slot, ReplayError> {
    let root = driver
        .blockstore()
        .max_root()
        .map_err(|source| ReplayError::Storage {
            slot: Slot(0),
            source,
        })?;
    let Some(root) = root else {
        return Ok(Slot(0));
    };
    let floor = pending.first().map_or(root, |&lowest| lowest.min(root));
    driver.forget_below(floor);
    *done = done.split_off(&floor);
    Ok(floor)
}
