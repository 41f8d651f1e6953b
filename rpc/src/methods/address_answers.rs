//! `getSignaturesForAddress` answers kept across requests.
//!
//! A client polling an address for its newest transactions asks the same question again
//! and again, and most of each answer's work is the same every time: each entry's status,
//! memo and block time, read and written as JSON. The walk of the address's rows (one seek,
//! then the entries, with the commitment check of each slot) is done for every request; its
//! result, the entries in order, decides whether a kept answer is still the answer.
//!
//! A kept answer is reused when the request has neither `before` nor `until`, asks for the
//! same address, limit and commitment (`finalized` or `confirmed`), this request's walk
//! found exactly the (slot, transaction index, signature) entries the kept text was
//! written from, and each entry is on the same side of the highest root as then (its
//! `confirmationStatus`). The text is then the one a fresh answer would write, because
//! nothing else it shows about a transaction in a counted slot changes:
//! - `err` and `memo` come from the transaction's status and memo rows, which the writer
//!   puts in the same write batch as its `address_signatures` row (Agave's transaction
//!   status service writes one batch per replayed batch; bstore's synthetic writer one per
//!   slot), so an entry the walk finds has them, and an answer whose every status was found
//!   has read them all;
//! - `blockTime` is written when the slot's bank freezes, before it can be confirmed;
//! - `confirmationStatus` is `finalized` for an entry at or below the highest root and
//!   `confirmed` above it: the side is compared;
//! - a counted block does not change: a purged one that comes back is the same block, and
//!   replaying it writes the same rows.
//!
//! New counted entries, roots and confirmations that advance, purges and a rising first
//! available block all change the walk's entries or an entry's side of the root (or leave
//! them, and the answer, as they were), so a kept answer needs no other invalidation. An
//! answer is not kept when one of its statuses or block times was missing or a row did not
//! decode: it may read otherwise once the rows are whole. (A RocksDB secondary's catch-up
//! publishes a write batch whole, so a reader that sees an address row sees its batch's
//! status and memo rows too.)
//!
//! Memory: the texts and entries kept are bounded by `Limits::address_answers_bytes`
//! (0: nothing is kept; [`KeptAnswers`]).

use bstore_ledger::Slot;
use hyper::body::Bytes;

use super::Text;
use super::kept::{KeptAnswerCounts, KeptAnswers, KeptSize, shared_text};
use crate::params::Commitment;

/// One entry of an answer: (slot, transaction index, signature), as the walk finds it.
pub(crate) type Found = (Slot, u32, [u8; 64]);

/// Bytes one kept answer is counted for besides its text and entries: its slot in the
/// table (key and value, 64 bytes, in a table up to twice the size of what it holds), the
/// shared record (64) and three allocations' headers, rounded up. Even answers of `[]`
/// then hold at most about the bound.
const ANSWER_OVERHEAD: usize = 256;

/// What a request is keyed by: the address, the limit and the commitment.
type Key = ([u8; 32], usize, Commitment);

/// A request an answer may be kept for, and where the ledger stands for it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Question<'a> {
    pub address: &'a [u8; 32],
    pub limit: usize,
    pub commitment: Commitment,
    /// The highest root the answer is (or was) written at: entries at or below it are
    /// `finalized`.
    pub max_root: Option<Slot>,
}

impl Question<'_> {
    fn key(&self) -> Key {
        (*self.address, self.limit, self.commitment)
    }
}

/// Whether an entry in `slot` is `finalized` with `max_root` the highest root.
fn finalized(slot: Slot, max_root: Option<Slot>) -> bool {
    max_root.is_some_and(|root| slot <= root)
}

/// One kept answer.
#[derive(Debug)]
struct Kept {
    /// The walk's entries the text was written from.
    found: Box<[Found]>,
    /// The highest root it was written at.
    max_root: Option<Slot>,
    /// Exactly the text's bytes (no spare capacity), shared with the answers sent.
    text: Bytes,
}

impl Kept {
    /// Whether this is the answer to `question` whose walk found `found`.
    fn answers(&self, question: &Question<'_>, found: &[Found]) -> bool {
        *self.found == *found
            && found.iter().all(|(slot, _, _)| {
                finalized(*slot, self.max_root) == finalized(*slot, question.max_root)
            })
    }
}

impl KeptSize for Kept {
    fn kept_bytes(&self) -> usize {
        self.text.len() + std::mem::size_of_val(&*self.found) + ANSWER_OVERHEAD
    }
}

/// The kept answers, shared by every request of a server.
#[derive(Debug)]
pub(crate) struct AddressAnswers(KeptAnswers<Key, Kept>);

impl AddressAnswers {
    /// Keeps answers of at most `max_bytes` in all (0: none).
    pub(crate) fn new(max_bytes: usize) -> Self {
        Self(KeptAnswers::new(max_bytes))
    }

    /// The kept answer to `question` if it was written from exactly `found`, each entry on
    /// the same side of the highest root.
    pub(crate) fn reuse(&self, question: &Question<'_>, found: &[Found]) -> Option<Bytes> {
        if !self.0.enabled() {
            return None;
        }
        let text = self
            .0
            .get(&question.key())
            .filter(|kept| kept.answers(question, found))
            .map(|kept| kept.text.clone());
        self.0.count(text.is_some());
        text
    }

    /// Keeps `text`, written from `found`, as the answer to `question` (replacing the one
    /// kept before); an answer larger than the whole bound is not kept. The text to send:
    /// the kept one shares its bytes, nothing is copied ([`shared_text`]).
    pub(crate) fn keep(&self, question: &Question<'_>, found: Vec<Found>, text: String) -> Text {
        if !self.0.enabled() {
            return Text::Written(text);
        }
        let text = shared_text(text);
        let kept = Kept {
            found: found.into_boxed_slice(),
            max_root: question.max_root,
            text: text.clone(),
        };
        self.0.keep(question.key(), kept);
        Text::Shared(text)
    }

    /// How often a kept answer was and was not the answer (requests without `before` or
    /// `until` at `finalized` or `confirmed`).
    pub(crate) fn counts(&self) -> KeptAnswerCounts {
        self.0.counts()
    }

    /// Answers kept and the bytes they are counted for.
    #[cfg(test)]
    fn held(&self) -> (usize, usize) {
        self.0.held()
    }
}

#[cfg(test)]
#[path = "address_answers_tests.rs"]
mod tests;
