//! `getBlock` answers of rooted blocks kept across requests.
//!
//! Explorers, indexers and wallets ask for the newest finalized blocks again and again,
//! and a block's answer is the most work the server does: every data shred read and
//! deshredded, every status decoded, every transaction written as JSON. A rooted block's
//! answer is kept under (slot, config) with what it was read from, and a later request
//! for the same slot and config is answered with it once these checks pass, on the I/O
//! thread (a few point reads, the same ones a fresh answer starts with):
//!
//! - the slot is available as a fresh answer would find it ([`Chain::available`]: its
//!   errors are the request's errors, so a purged or no longer rooted slot answers as it
//!   would afresh) and still rooted;
//! - its meta has the same [`BlockFrame`]: a full slot's shreds are never replaced, so
//!   the same frame is the same data sets, entries and transactions;
//! - its parent has the same [`ParentState`] (read, like the frame, before the block
//!   was), so `previousBlockhash` is the same.
//!
//! The rest of the answer is written once for a rooted block: its statuses as the block
//! was replayed, its block time, height and rewards, in that order, when its bank froze
//! (Agave 4.4's transaction status service), all before the slot could be rooted, and a
//! replay writes the same bytes again. What could still arrive late is not kept: an answer
//! without a block time or height, one whose history was incomplete (`null`), or one that
//! shows rewards without a rewards row (Agave writes none for a block without rewards,
//! so such a block is answered afresh each time). A block only confirmed is never kept.
//!
//! Memory: the texts are bounded by `Limits::block_answers_bytes` (0: nothing is kept;
//! [`KeptAnswers`]).

use bstore_ledger::Slot;
use bstore_ledger::fetch::{BlockFrame, ParentState};
use bstore_ledger::store::KvEngine;
use hyper::body::Bytes;

use super::Text;
use super::chain::{Available, Chain};
use super::kept::{KeptAnswerCounts, KeptAnswers, KeptSize, shared_text};
use crate::error::RpcError;
use crate::params::BlockConfig;

/// Bytes one kept answer is counted for besides its text and frames: its slot in the
/// table (key and value, ~48 bytes, in a table up to twice the size of what it holds),
/// the shared record with its two frames (~250) and four allocations' headers, rounded
/// up.
const ANSWER_OVERHEAD: usize = 512;

/// What an answer is kept under: the slot and the whole config (its commitment too).
type Key = (Slot, BlockConfig);

/// One kept answer and what it was read from.
#[derive(Debug)]
struct Kept {
    frame: BlockFrame,
    parent: ParentState,
    /// Exactly the text's bytes (no spare capacity), shared with the answers sent.
    text: Bytes,
}

impl KeptSize for Kept {
    fn kept_bytes(&self) -> usize {
        self.text.len() + self.frame.heap_bytes() + self.parent.heap_bytes() + ANSWER_OVERHEAD
    }
}

/// The kept answers, shared by every request of a server.
#[derive(Debug)]
pub(crate) struct BlockAnswers(KeptAnswers<Key, Kept>);

impl BlockAnswers {
    /// Keeps answers of at most `max_bytes` in all (0: none).
    pub(crate) fn new(max_bytes: usize) -> Self {
        Self(KeptAnswers::new(max_bytes))
    }

    /// Whether an answer is kept for `slot` and `cfg` (nothing read, nothing counted).
    pub(crate) fn holds(&self, slot: Slot, cfg: &BlockConfig) -> bool {
        self.0.contains(&(slot, *cfg))
    }

    /// The kept answer for `slot` and `cfg` if the ledger still holds what it was read
    /// from (the module docs); `None` when there is none or it is out of date (not
    /// counted: the fresh answer that follows is). Availability errors are the request's.
    pub(crate) fn reuse<E: KvEngine>(
        &self,
        chain: &Chain<'_, E>,
        slot: Slot,
        cfg: &BlockConfig,
    ) -> Result<Option<Bytes>, RpcError> {
        let Some(kept) = self.0.get(&(slot, *cfg)) else {
            return Ok(None);
        };
        let available = chain.available(slot, cfg.commitment)?;
        if !available.rooted || BlockFrame::of(&available.meta) != kept.frame {
            return Ok(None);
        }
        let parent = chain
            .store()
            .block_parent_state(slot, &available.meta)
            .map_err(|e| super::block::read_error(chain, slot, e))?;
        if parent != kept.parent {
            return Ok(None);
        }
        self.0.count(true);
        Ok(Some(kept.text.clone()))
    }

    /// The frame of a slot about to be read afresh, when its answer could be kept: the
    /// slot is rooted and answers are kept at all (taken before the block is read).
    pub(crate) fn frame_to_keep(&self, available: &Available) -> Option<BlockFrame> {
        (self.0.enabled() && available.rooted).then(|| BlockFrame::of(&available.meta))
    }

    /// Counts one answer written afresh, and keeps it when it was read with `frame` (from
    /// [`Self::frame_to_keep`]) and `parent` and is `whole` (the module docs: nothing in it
    /// can arrive late). The text to send: a kept one shares its bytes, nothing is copied
    /// ([`shared_text`]).
    pub(crate) fn fresh(
        &self,
        slot: Slot,
        cfg: &BlockConfig,
        read: Option<(BlockFrame, ParentState)>,
        whole: bool,
        text: String,
    ) -> Text {
        if !self.0.enabled() {
            return Text::Written(text);
        }
        self.0.count(false);
        let (Some((frame, parent)), true) = (read, whole) else {
            return Text::Written(text);
        };
        let text = shared_text(text);
        let kept = Kept {
            frame,
            parent,
            text: text.clone(),
        };
        self.0.keep((slot, *cfg), kept);
        Text::Shared(text)
    }

    /// How often a kept answer was the answer, and how many were written afresh.
    pub(crate) fn counts(&self) -> KeptAnswerCounts {
        self.0.counts()
    }
}

#[cfg(test)]
#[path = "block_answers_tests.rs"]
mod tests;
