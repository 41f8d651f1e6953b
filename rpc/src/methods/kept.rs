//! Answers kept across requests, bounded by bytes: the table behind
//! [`address_answers`](super::address_answers) (`getSignaturesForAddress`) and
//! [`block_answers`](super::block_answers) (`getBlock`).
//!
//! What makes a kept answer still the answer is each user's own rule; this module only
//! holds them. Memory: the answers' [`KeptSize::kept_bytes`] sum to at most the bound
//! (0: nothing is kept); past it the least recently used quarter goes.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use hyper::body::Bytes;

/// What one kept answer is counted for against the bound: its text and whatever else it
/// holds, plus its share of the table.
pub(crate) trait KeptSize {
    fn kept_bytes(&self) -> usize;
}

/// Requests that could have been answered from a kept answer, since the server started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct KeptAnswerCounts {
    /// Answered with a kept answer.
    pub reused: u64,
    /// Answered afresh: nothing was kept for the question, or what was kept no longer
    /// answers it.
    pub missed: u64,
}

/// The kept answers and their recency.
#[derive(Debug)]
struct Table<K, V> {
    answers: HashMap<K, (Arc<V>, u64)>,
    /// The sum of the kept answers' [`KeptSize::kept_bytes`]; at most the bound after every
    /// call (each eviction drops at least one answer, and an empty table counts 0).
    bytes: usize,
    /// Counts uses; each answer remembers the count at its last use.
    clock: u64,
}

impl<K: Hash + Eq, V: KeptSize> Table<K, V> {
    fn tick(&mut self) -> u64 {
        self.clock += 1;
        self.clock
    }

    fn remove(&mut self, key: &K) {
        if let Some((kept, _)) = self.answers.remove(key) {
            self.bytes = self.bytes.saturating_sub(kept.kept_bytes());
        }
    }

    /// Drops the least recently used quarter of the answers (at least one).
    fn drop_oldest_quarter(&mut self) {
        let mut uses: Vec<u64> = self.answers.values().map(|(_, used)| *used).collect();
        if uses.is_empty() {
            self.bytes = 0;
            return;
        }
        // Uses are distinct (one tick each), so exactly `gone` answers are at or below the
        // `gone`-th smallest.
        let gone = (uses.len() / 4).max(1);
        let (_, last_gone, _) = uses.select_nth_unstable(gone - 1);
        let last_gone = *last_gone;
        let mut freed = 0;
        self.answers.retain(|_, (kept, used)| {
            let keep = *used > last_gone;
            if !keep {
                freed += kept.kept_bytes();
            }
            keep
        });
        self.bytes = self.bytes.saturating_sub(freed);
    }
}

/// Answers of type `V` under keys `K`, shared by every request of a server.
#[derive(Debug)]
pub(crate) struct KeptAnswers<K, V> {
    table: Mutex<Table<K, V>>,
    max_bytes: usize,
    reused: AtomicU64,
    missed: AtomicU64,
}

impl<K: Hash + Eq, V: KeptSize> KeptAnswers<K, V> {
    /// Keeps answers of at most `max_bytes` in all (0: none).
    pub(crate) fn new(max_bytes: usize) -> Self {
        Self {
            table: Mutex::new(Table {
                answers: HashMap::new(),
                bytes: 0,
                clock: 0,
            }),
            max_bytes,
            reused: AtomicU64::new(0),
            missed: AtomicU64::new(0),
        }
    }

    /// Whether answers are kept at all.
    pub(crate) fn enabled(&self) -> bool {
        self.max_bytes > 0
    }

    /// The table. A panic while it was held (nothing inside can fail but an allocation)
    /// leaves at worst the byte count off, which an eviction that empties the table sets
    /// right, so a poisoned lock is taken over.
    fn table(&self) -> MutexGuard<'_, Table<K, V>> {
        self.table
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The answer kept under `key`, now the most recently used.
    pub(crate) fn get(&self, key: &K) -> Option<Arc<V>> {
        if !self.enabled() {
            return None;
        }
        let mut table = self.table();
        let now = table.tick();
        table.answers.get_mut(key).map(|(kept, used)| {
            *used = now;
            Arc::clone(kept)
        })
    }

    /// Whether an answer is kept under `key` (its recency unchanged).
    pub(crate) fn contains(&self, key: &K) -> bool {
        self.enabled() && self.table().answers.contains_key(key)
    }

    /// Keeps `answer` under `key`, replacing the one kept before; an answer larger than the
    /// whole bound is not kept (and the one before is dropped all the same).
    pub(crate) fn keep(&self, key: K, answer: V) {
        if !self.enabled() {
            return;
        }
        let bytes = answer.kept_bytes();
        let mut table = self.table();
        table.remove(&key);
        if bytes > self.max_bytes {
            return;
        }
        while table.bytes + bytes > self.max_bytes {
            table.drop_oldest_quarter();
        }
        let now = table.tick();
        table.answers.insert(key, (Arc::new(answer), now));
        table.bytes += bytes;
    }

    /// Counts one request that was (`reused`) or was not answered with a kept answer.
    pub(crate) fn count(&self, reused: bool) {
        let counter = if reused { &self.reused } else { &self.missed };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    /// How often a kept answer was and was not the answer.
    pub(crate) fn counts(&self) -> KeptAnswerCounts {
        KeptAnswerCounts {
            reused: self.reused.load(Ordering::Relaxed),
            missed: self.missed.load(Ordering::Relaxed),
        }
    }

    /// Answers kept and the bytes they are counted for.
    #[cfg(test)]
    pub(crate) fn held(&self) -> (usize, usize) {
        let table = self.table();
        (table.answers.len(), table.bytes)
    }
}

/// `text` as bytes without spare capacity (the allocation shrunk to its length, which the
/// allocator may do by moving it, once, here): what is kept is what is counted, and the
/// table and every response that sends it share that one allocation.
pub(crate) fn shared_text(text: String) -> Bytes {
    Bytes::from(text.into_bytes().into_boxed_slice())
}

#[cfg(test)]
#[path = "kept_tests.rs"]
mod tests;
