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
    /// Slots replayed whole.
    pub replayed: usize,
    /// Slots found bad and marked dead (or reported, with `DeadSlots::Report`).
    pub dead: usize,
    /// Slots refused: parent dead or unknown, already dead, or not in the ledger.
    pub refused: usize,
    /// Slots still in progress or waiting for their parent when it returned.
    pub unfinished: Vec<Slot>,
}

/// Replays the slots named on `updates` until the channel closes (after a last pass over
/// everything pending) or `exit` is set. `on_final` gets each slot's final status once.
/// Each slot is reported once: later updates naming it are ignored. `Err` only when the
/// store fails.
///
/// State stays bounded on a long run: the driver evicts finished slots that fell out of its
/// [`Retention`](crate::Retention) margin, and the reported slots remembered here are cut at
/// the same floor. A slot named again after that is handed to the driver again, which
/// replays it again from the ledger (same verdict and blockhash) or refuses it as before,
/// and it is reported again. Slots still pending (in progress or waiting for a parent) are
/// all kept: they are under replay.
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
    while !exit.load(Ordering::Relaxed) {
        match updates.recv_timeout(EXIT_POLL) {
            Ok(slot) => {
                pending.insert(slot);
            }
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => closed = true,
        }
        pending.extend(updates.try_iter());
        pending.retain(|slot| !done.contains(slot));
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
        // Below the driver's floor a slot's outcome is the ledger's to give again.
        done = done.split_off(&driver.retained().floor);
        if closed {
            break;
        }
    }
    summary.unfinished = pending.into_iter().collect();
    Ok(summary)
}
