//! Faults in the model. Operation tag 7 schedules one engine failure (the Nth write, read
//! or cursor step) for the next operation only; the checks after each operation read with
//! nothing armed. The model's rule: an operation failed by the injected fault returns it
//! (never `Ok`, never another error) and changes nothing, so the model is not updated and
//! the store must still agree with it. A fault scheduled past the operation's last engine
//! call does not fire and the operation must behave as without it.

use bstore_ledger::LedgerError;
use bstore_ledger::Slot;
use bstore_ledger::fetch::{AllowDead, EntryFetch, FetchBuffer, ViewFetch};
use bstore_ledger::store::{Blockstore, FaultHandle, FaultPoint, InjectedFault, KvEngine};

/// Kinds the model's input can fail (the model never purges, so never compacts).
const POINTS: [FaultPoint; 3] = [FaultPoint::Write, FaultPoint::Read, FaultPoint::CursorStep];

/// A fault the input scheduled for the next operation.
#[derive(Debug, Clone, Copy)]
pub(super) struct Pending {
    point: FaultPoint,
    n: u64,
}

impl Pending {
    /// The point from `point`'s byte and the ordinal from `n`'s: every operation makes
    /// one write at most, so a write fault fails the first; reads and cursor steps fail
    /// one of the first 16 (an insert makes a few dozen reads).
    pub(super) fn parse(point: u8, n: u8) -> Self {
        let point = POINTS[usize::from(point) % POINTS.len()];
        let n = match point {
            FaultPoint::Write => 1,
            _ => u64::from(n % 16) + 1,
        };
        Self { point, n }
    }
}

/// One operation's fault: armed when opened, disarmed when closed.
pub(super) struct Window<'a> {
    faults: Option<&'a FaultHandle>,
    armed: bool,
    fired_before: u64,
}

impl<'a> Window<'a> {
    /// Arms `pending` when the store runs over a fault engine (`faults`).
    pub(super) fn open(faults: Option<&'a FaultHandle>, pending: Option<Pending>) -> Self {
        let armed = match (faults, pending) {
            (Some(handle), Some(p)) => {
                handle.fail_nth(p.point, p.n);
                true
            }
            _ => false,
        };
        Self {
            faults,
            armed,
            fired_before: faults.map_or(0, FaultHandle::fired_total),
        }
    }

    /// Whether this operation runs with a fault scheduled.
    pub(super) fn is_armed(&self) -> bool {
        self.armed
    }

    /// Whether the scheduled fault fired since the window opened.
    pub(super) fn fired(&self) -> bool {
        self.faults
            .is_some_and(|handle| handle.fired_total() > self.fired_before)
    }

    /// Disarms what did not fire, so the checks after the operation read without faults.
    pub(super) fn close(&self) {
        if let Some(handle) = self.faults {
            handle.clear();
        }
    }

    /// A storage call's result under this window: `Some(value)` when it succeeded without
    /// a fault, `None` when the injected fault failed it (the model then changes nothing);
    /// anything else is a disagreement.
    pub(super) fn outcome<T>(&self, result: Result<T, LedgerError>) -> Result<Option<T>, String> {
        match (result, self.fired()) {
            (Ok(value), false) => Ok(Some(value)),
            (Ok(_), true) => Err("an injected fault fired, yet the call succeeded".into()),
            (Err(e), true) if InjectedFault::of(&e).is_some() => Ok(None),
            (Err(e), _) => Err(e.to_string()),
        }
    }
}

/// The owned fetch and the views fetch of `slot` from `start` under the window's fault,
/// each compared with the same fetch once the window is closed: the one the fault hit must
/// fail with it; one it did not hit answers exactly as without faults.
pub(super) fn fetch<E: KvEngine>(
    store: &Blockstore<E>,
    window: &Window<'_>,
    slot: Slot,
    start: u32,
) -> Result<(), String> {
    let owned = || {
        store
            .get_slot_entries_with_shred_info(slot, start, AllowDead::No)
            .map(|got| format!("{got:?}"))
    };
    let views = || {
        let mut buf = FetchBuffer::new();
        store
            .fetch_slot_views(slot, start, AllowDead::No, &mut buf)
            .map(|v| format!("{} shreds, {} sets", v.num_shreds, v.sets.len()))
    };
    let faulted_owned = owned();
    let hit_owned = window.fired();
    let faulted_views = views();
    let hit_views = window.fired() && !hit_owned;
    window.close();
    for (what, faulted, hit, clean) in [
        ("entries", faulted_owned, hit_owned, owned()),
        ("views", faulted_views, hit_views, views()),
    ] {
        match (faulted, hit) {
            (Err(e), true) if InjectedFault::of(&e).is_some() => {}
            (other, true) => return Err(format!("{what}: the fault was not returned: {other:?}")),
            (faulted, false) => {
                let (a, b) = (said(faulted), said(clean));
                if a != b {
                    return Err(format!("{what}: {a} under an unfired fault, {b} without"));
                }
            }
        }
    }
    Ok(())
}

/// A fetch's answer, or its error's kind, as text to compare.
fn said(result: Result<String, LedgerError>) -> String {
    result.unwrap_or_else(|e| format!("error {}", e.kind()))
}
