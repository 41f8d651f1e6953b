//! The memory budget for responses in flight: one byte count shared by every request.
//! A result reserves its size before (estimate) and after (actual capacity) it is encoded,
//! and the reservation travels with the text into the HTTP body, which releases it when
//! hyper drops the body (sent, or the client is gone).
//!
//! Invariant: `held <= limit` at every instant; a reservation that would pass the limit is
//! refused (`RpcError::BudgetExceeded`, -32005) and nothing is held for it.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::error::RpcError;

#[derive(Debug)]
struct Shared {
    held: AtomicUsize,
    /// The highest `held` ever reached.
    peak: AtomicUsize,
    limit: usize,
}

/// What the budget holds now, the most it ever held, and its limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BudgetStats {
    /// Bytes reserved by responses being built or sent now.
    pub held: usize,
    /// The most bytes ever reserved at once since the server started.
    pub peak: usize,
    /// The budget in bytes (`Limits::response_budget_bytes`).
    pub limit: usize,
}

/// The shared byte budget (cheap to clone).
#[derive(Debug, Clone)]
pub(crate) struct Budget(Arc<Shared>);

impl Budget {
    pub(crate) fn new(limit: usize) -> Self {
        Self(Arc::new(Shared {
            held: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
            limit,
        }))
    }

    /// Bytes reserved right now.
    pub(crate) fn held(&self) -> usize {
        self.0.held.load(Ordering::Acquire)
    }

    pub(crate) fn stats(&self) -> BudgetStats {
        BudgetStats {
            held: self.held(),
            peak: self.0.peak.load(Ordering::Acquire),
            limit: self.0.limit,
        }
    }

    /// A reservation of nothing, to grow or merge into.
    pub(crate) fn empty(&self) -> Reservation {
        Reservation {
            shared: Arc::clone(&self.0),
            bytes: 0,
        }
    }

    /// Reserves `bytes`, or refuses without holding anything.
    pub(crate) fn reserve(&self, bytes: usize) -> Result<Reservation, RpcError> {
        let mut r = self.empty();
        r.resize(bytes)?;
        Ok(r)
    }
}

/// Bytes held against the budget until dropped.
#[derive(Debug)]
pub(crate) struct Reservation {
    shared: Arc<Shared>,
    bytes: usize,
}

impl Reservation {
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> usize {
        self.bytes
    }

    /// Makes this reservation `bytes` long: shrinking always succeeds, growing only while
    /// the budget has room (on refusal the reservation keeps its old size).
    pub(crate) fn resize(&mut self, bytes: usize) -> Result<(), RpcError> {
        if bytes <= self.bytes {
            self.shared
                .held
                .fetch_sub(self.bytes - bytes, Ordering::AcqRel);
            self.bytes = bytes;
            return Ok(());
        }
        let more = bytes - self.bytes;
        let limit = self.shared.limit;
        let before = self
            .shared
            .held
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |held| {
                held.checked_add(more).filter(|&total| total <= limit)
            })
            .map_err(|held| RpcError::BudgetExceeded {
                held,
                wanted: more,
                budget: limit,
            })?;
        self.shared.peak.fetch_max(before + more, Ordering::AcqRel);
        self.bytes = bytes;
        Ok(())
    }

    /// Takes over `other`'s bytes (no budget check: they are already held).
    pub(crate) fn merge(&mut self, mut other: Reservation) {
        self.bytes += std::mem::take(&mut other.bytes);
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        self.shared.held.fetch_sub(self.bytes, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_holds_more_than_the_limit() {
        let budget = Budget::new(100);
        let mut a = budget.reserve(60).expect("60 of 100");
        assert!(matches!(
            budget.reserve(41),
            Err(RpcError::BudgetExceeded {
                held: 60,
                wanted: 41,
                budget: 100
            })
        ));
        assert_eq!(budget.held(), 60);
        let b = budget.reserve(40).expect("exactly the limit");
        assert!(a.resize(61).is_err());
        assert_eq!(a.bytes(), 60);
        a.resize(10).expect("shrink");
        assert_eq!(budget.held(), 50);
        a.merge(b);
        assert_eq!((a.bytes(), budget.held()), (50, 50));
        drop(a);
        assert_eq!(budget.held(), 0);
    }
}
