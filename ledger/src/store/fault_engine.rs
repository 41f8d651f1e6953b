//! `FaultEngine`: a [`KvEngine`] that forwards to an inner engine and fails one chosen
//! operation on purpose (the way redb's fuzz backend fails its I/O), so tests and the
//! model-based fuzz target can check what the blockstore does when storage fails.
//!
//! Four kinds of operation are counted apart ([`FaultPoint`]): batch applies, point and
//! batched reads, cursor steps and `compact_range` calls. A [`FaultHandle`] arms one kind
//! to fail its Nth operation from the moment it is armed; the failure is
//! `LedgerError::Storage` whose source is an [`InjectedFault`] naming the kind and the
//! ordinal. A fault fires once and then disarms itself, so retrying the failed call works.
//!
//! Invariants: a failed write hands nothing to the inner engine (the batch is dropped, so
//! it is atomic by construction); a failed read or cursor step changes nothing; a cursor
//! ends after its failed step, as the seam's contract says a storage error does. Opening a
//! cursor, `catch_up` and `estimate_num_keys` are forwarded and never fail on purpose.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::kv::{AccessMode, Direction, KvCursor, KvEngine, KvRead, KvScan, KvWrite};
use crate::error::{LedgerError, Result};

/// Column name of an injected write failure: a batch spans columns.
const BATCH: &str = "<batch>";

/// A kind of engine operation a fault can be scheduled on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FaultPoint {
    /// Applying a write batch (`KvWrite::write`).
    Write,
    /// A point get or one batched multi-get (`KvRead`).
    Read,
    /// One `KvCursor::advance` of any cursor.
    CursorStep,
    /// One `KvEngine::compact_range` call.
    Compact,
}

impl FaultPoint {
    /// Every kind, in the order of the handle's counters.
    pub const ALL: [FaultPoint; 4] = [Self::Write, Self::Read, Self::CursorStep, Self::Compact];

    fn slot(self) -> usize {
        match self {
            Self::Write => 0,
            Self::Read => 1,
            Self::CursorStep => 2,
            Self::Compact => 3,
        }
    }

    /// The operation as said in messages.
    pub fn name(self) -> &'static str {
        match self {
            Self::Write => "write",
            Self::Read => "read",
            Self::CursorStep => "cursor step",
            Self::Compact => "compact_range",
        }
    }
}

/// The source of an injected `LedgerError::Storage`: which operation failed on purpose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("injected fault: {} #{ordinal} failed on purpose", point.name())]
pub struct InjectedFault {
    /// The kind of operation that was made to fail.
    pub point: FaultPoint,
    /// The operation's ordinal among its kind since the engine was made (1-based).
    pub ordinal: u64,
}

impl InjectedFault {
    /// The injected fault behind `error`, if `error` is one.
    pub fn of(error: &LedgerError) -> Option<&InjectedFault> {
        match error {
            LedgerError::Storage { source, .. } => source.downcast_ref::<InjectedFault>(),
            _ => None,
        }
    }
}

/// Counters of one kind. `fail_at` is the ordinal that fails; 0 means disarmed (ordinals
/// start at 1, so 0 never matches).
#[derive(Debug, Default)]
struct Counter {
    seen: AtomicU64,
    fail_at: AtomicU64,
    fired: AtomicU64,
}

/// The shared schedule of a [`FaultEngine`]; clones control the same engine.
#[derive(Debug, Clone, Default)]
pub struct FaultHandle {
    counters: Arc<[Counter; 4]>,
}

impl FaultHandle {
    fn counter(&self, point: FaultPoint) -> &Counter {
        &self.counters[point.slot()]
    }

    /// Arms `point` to fail its `n`th operation from now (`n = 1`: the next one); `n = 0`
    /// disarms it. Operations racing with the call on other threads may or may not count.
    pub fn fail_nth(&self, point: FaultPoint, n: u64) {
        let c = self.counter(point);
        let at = match n {
            0 => 0,
            n => c.seen.load(Ordering::SeqCst).saturating_add(n),
        };
        c.fail_at.store(at, Ordering::SeqCst);
    }

    /// Disarms every kind.
    pub fn clear(&self) {
        for point in FaultPoint::ALL {
            self.fail_nth(point, 0);
        }
    }

    /// Whether `point` is armed and has not fired yet.
    pub fn is_armed(&self, point: FaultPoint) -> bool {
        self.counter(point).fail_at.load(Ordering::SeqCst) != 0
    }

    /// Operations of kind `point` so far (failed ones included).
    pub fn seen(&self, point: FaultPoint) -> u64 {
        self.counter(point).seen.load(Ordering::SeqCst)
    }

    /// Faults of kind `point` injected so far.
    pub fn fired(&self, point: FaultPoint) -> u64 {
        self.counter(point).fired.load(Ordering::SeqCst)
    }

    /// Faults of every kind injected so far.
    pub fn fired_total(&self) -> u64 {
        FaultPoint::ALL.iter().map(|p| self.fired(*p)).sum()
    }

    /// Counts one operation of `point`; `Err` when it is the one scheduled to fail. The
    /// compare-exchange disarms the fault as it fires, so it fires once even under races.
    fn check(&self, point: FaultPoint, column: &'static str) -> Result<()> {
        let c = self.counter(point);
        let ordinal = c.seen.fetch_add(1, Ordering::SeqCst).saturating_add(1);
        match c
            .fail_at
            .compare_exchange(ordinal, 0, Ordering::SeqCst, Ordering::SeqCst)
        {
            Ok(_) => {
                c.fired.fetch_add(1, Ordering::SeqCst);
                Err(LedgerError::Storage {
                    column,
                    source: Box::new(InjectedFault { point, ordinal }),
                })
            }
            Err(_) => Ok(()),
        }
    }
}

/// An engine that forwards to `E` and fails the operations its [`FaultHandle`] schedules.
#[derive(Debug)]
pub struct FaultEngine<E> {
    inner: E,
    faults: FaultHandle,
}

impl<E: KvEngine> FaultEngine<E> {
    /// Wraps `inner` with nothing scheduled.
    pub fn new(inner: E) -> Self {
        Self {
            inner,
            faults: FaultHandle::default(),
        }
    }

    /// Wraps `inner` with `schedule` armed: each `(point, n)` fails the `n`th operation of
    /// `point` (a later entry for the same point replaces an earlier one).
    pub fn with_schedule(inner: E, schedule: &[(FaultPoint, u64)]) -> Self {
        let engine = Self::new(inner);
        for &(point, n) in schedule {
            engine.faults.fail_nth(point, n);
        }
        engine
    }

    /// The schedule's control handle (clones share it).
    pub fn faults(&self) -> &FaultHandle {
        &self.faults
    }

    /// The inner engine, bypassing the schedule (tests compare its contents).
    pub fn inner(&self) -> &E {
        &self.inner
    }
}

impl<E: KvEngine> KvRead for FaultEngine<E> {
    type Pinned<'a>
        = E::Pinned<'a>
    where
        Self: 'a;

    fn get_pinned(&self, cf: &'static str, key: &[u8]) -> Result<Option<Self::Pinned<'_>>> {
        self.faults.check(FaultPoint::Read, cf)?;
        self.inner.get_pinned(cf, key)
    }

    fn multi_get_pinned<K: AsRef<[u8]>>(
        &self,
        cf: &'static str,
        keys: &[K],
    ) -> Result<Vec<Option<Self::Pinned<'_>>>> {
        self.faults.check(FaultPoint::Read, cf)?;
        self.inner.multi_get_pinned(cf, keys)
    }
}

/// The inner engine's cursor, ended by an injected failure of one of its steps. Steps
/// after the end are not counted (an ended walk stays ended without touching storage).
pub struct FaultCursor<'a, C> {
    inner: C,
    ended: bool,
    faults: &'a FaultHandle,
    column: &'static str,
}

impl<C> std::fmt::Debug for FaultCursor<'_, C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "FaultCursor({})", self.column)
    }
}

impl<C: KvCursor> KvCursor for FaultCursor<'_, C> {
    fn advance(&mut self) -> Option<Result<(&[u8], &[u8])>> {
        if self.ended {
            return None;
        }
        if let Err(e) = self.faults.check(FaultPoint::CursorStep, self.column) {
            self.ended = true;
            return Some(Err(e));
        }
        match self.inner.advance() {
            None => {
                self.ended = true;
                None
            }
            Some(Err(e)) => {
                self.ended = true;
                Some(Err(e))
            }
            Some(Ok(entry)) => Some(Ok(entry)),
        }
    }

    fn seek(&mut self, target: &[u8]) {
        // The next `advance` is a step like any other: an injected failure can end it.
        self.inner.seek(target);
        self.ended = false;
    }
}

impl<E: KvEngine> KvScan for FaultEngine<E> {
    type Cursor<'a>
        = FaultCursor<'a, E::Cursor<'a>>
    where
        Self: 'a;

    fn cursor(
        &self,
        cf: &'static str,
        lower: &[u8],
        upper: Option<&[u8]>,
        direction: Direction,
    ) -> Self::Cursor<'_> {
        FaultCursor {
            inner: self.inner.cursor(cf, lower, upper, direction),
            ended: false,
            faults: &self.faults,
            column: cf,
        }
    }
}

impl<E: KvEngine> KvWrite for FaultEngine<E> {
    type Batch<'a>
        = E::Batch<'a>
    where
        Self: 'a;

    fn batch(&self) -> Result<Self::Batch<'_>> {
        self.inner.batch()
    }

    /// A scheduled failure drops the batch unseen by the inner engine: nothing is applied.
    fn write(&self, batch: Self::Batch<'_>) -> Result<()> {
        self.faults.check(FaultPoint::Write, BATCH)?;
        self.inner.write(batch)
    }
}

impl<E: KvEngine> KvEngine for FaultEngine<E> {
    fn mode(&self) -> &AccessMode {
        self.inner.mode()
    }

    fn catch_up(&self) -> Result<()> {
        self.inner.catch_up()
    }

    fn compact_range(&self, cf: &'static str, lower: &[u8], upper: &[u8]) -> Result<()> {
        self.faults.check(FaultPoint::Compact, cf)?;
        self.inner.compact_range(cf, lower, upper)
    }

    fn estimate_num_keys(&self, cf: &'static str) -> Result<u64> {
        self.inner.estimate_num_keys(cf)
    }
}

#[cfg(test)]
#[path = "fault_engine_tests.rs"]
mod tests;
