//! `getSignaturesForAddress` over the `address_signatures` column, following Agave's
//! `get_confirmed_signatures_for_address2` step by step (its results, limits and quirks are
//! what clients page with):
//!
//! 1. Start at the highest slot of the commitment, or at the slot of `before` (whose status
//!    must be found, else the answer is empty); in that slot, the signatures up to and
//!    including `before` in block order are excluded.
//! 2. The start slot's entries, newest transaction first, then older slots newest first
//!    (only rooted ones, or confirmed ones at `confirmed`), down to the slot of `until` (or
//!    the first available block), collecting until `limit` entries.
//! 3. Signatures of the `until` slot from `until` back to the block's start are dropped,
//!    then the list is cut to `limit`.
//! 4. Each entry gets its transaction's error (from its status), memo and block time.
//!
//! An answer with neither `before` nor `until` is kept, and the next such request at the
//! same commitment whose walk (steps 1 and 2) finds the same entries, each on the same side
//! of the highest root, is answered with it (`address_answers.rs` says why that is exact).

use std::collections::HashSet;
use std::ops::ControlFlow;

use bstore_ledger::fetch::{AllowDead, FetchBuffer, ViewFetch};
use bstore_ledger::history::{StatusMeta, decode_memo};
use bstore_ledger::store::KvEngine;
use bstore_ledger::{LedgerError, Slot};
use hyper::body::Bytes;

use super::Text;
use super::address_answers::{AddressAnswers, Found, Question};
use super::transaction::StatusFinder;
use crate::encode::json::JsonOut;
use crate::encode::write_tx_error;
use crate::error::RpcError;
use crate::methods::chain::Chain;
use crate::methods::history::{self, block_signatures, read_rows};
use crate::params::Commitment;
use crate::params::history::SignaturesConfig;

/// The block's first signatures, last transaction first (Agave's `get_block_signatures_rev`,
/// which reads the complete block: a block whose history is incomplete fails the request,
/// with Agave's message).
fn block_signatures_rev<E: KvEngine>(
    chain: &Chain<'_, E>,
    slot: Slot,
    buf: &mut FetchBuffer,
) -> Result<Vec<[u8; 64]>, RpcError> {
    let views = match chain.store().fetch_slot_views(slot, 0, AllowDead::No, buf) {
        Ok(views) => views,
        Err(LedgerError::DeadSlot { .. } | LedgerError::SlotCleanedUp { .. }) => {
            return Ok(Vec::new());
        }
        Err(e) => return Err(e.into()),
    };
    let signatures = block_signatures(&views.sets);
    let rows = read_rows(chain.store(), slot, &signatures)?;
    if let Err(incomplete) = history::decode(&rows) {
        log::warn!("slot {slot}: {}", incomplete.0);
        return Err(RpcError::invalid_params(
            "io error: Unable to get block: missing transaction metadata",
        ));
    }
    Ok(signatures.into_iter().rev().copied().collect())
}

/// `getSignaturesForAddress`' result as JSON text.
pub(super) fn signatures_for_address<E: KvEngine>(
    chain: &Chain<'_, E>,
    buf: &mut FetchBuffer,
    address: &[u8; 32],
    cfg: &SignaturesConfig,
    answers: &AddressAnswers,
) -> Result<Text, RpcError> {
    let store = chain.store();
    let commitment = cfg.commitment;
    let highest = chain.tip(commitment)?.unwrap_or_default();
    if let Some(min) = cfg.min_context_slot
        && highest.0 < min
    {
        return Err(RpcError::MinContextSlotNotReached {
            context_slot: highest,
        });
    }
    let max_root = chain.max_root()?;
    let reusable = matches!(commitment, Commitment::Finalized | Commitment::Confirmed)
        && cfg.before.is_none()
        && cfg.until.is_none();
    let question = Question {
        address,
        limit: cfg.limit,
        commitment,
        max_root,
    };
    let mut statuses = StatusFinder::new(chain, commitment);

    let (start, before_excluded) = match &cfg.before {
        None => (highest, HashSet::new()),
        Some(before) => match statuses.find(before)? {
            // A `before` signature not found: no entries, Agave's answer too.
            None => return Ok(Text::Shared(Bytes::from_static(b"[]"))),
            Some((slot, _)) => {
                let mut sigs = block_signatures_rev(chain, slot, buf)?;
                if let Some(pos) = sigs.iter().position(|s| s == before) {
                    sigs.truncate(pos + 1);
                }
                (slot, sigs.into_iter().collect())
            }
        },
    };
    let first_available = chain.first_available_block()?;
    let (lowest, until_excluded) = match &cfg.until {
        None => (first_available, HashSet::new()),
        Some(until) => match statuses.find(until)? {
            None => (first_available, HashSet::new()),
            Some((slot, _)) => {
                let mut sigs = block_signatures_rev(chain, slot, buf)?;
                if let Some(pos) = sigs.iter().position(|s| s == until) {
                    sigs = sigs.split_off(pos);
                }
                (slot, sigs.into_iter().collect::<HashSet<_>>())
            }
        },
    };

    // One walk, newest first: every entry of the start slot (but those up to `before`),
    // then entries of older slots that count, until `limit` are found. Agave takes the
    // start slot's entries whole before `until` filters them, so with an `until` the limit
    // is checked only below the start slot; without one the first `limit` are the answer
    // and the walk stops there (a busy address's start slot can hold thousands).
    let mut found: Vec<Found> = Vec::new();
    let mut scan_error = None;
    let whole_start_slot = cfg.until.is_some();
    store.address_signatures_rev(address, start, lowest.min(start), |e| {
        if e.slot == start {
            if !before_excluded.contains(&e.signature) {
                found.push((e.slot, e.transaction_index, e.signature));
            }
            if !whole_start_slot && found.len() >= cfg.limit {
                return ControlFlow::Break(());
            }
            return ControlFlow::Continue(());
        }
        if found.len() >= cfg.limit {
            return ControlFlow::Break(());
        }
        match chain.counts(e.slot, commitment) {
            Ok(true) => found.push((e.slot, e.transaction_index, e.signature)),
            Ok(false) => {}
            Err(err) => {
                scan_error = Some(err);
                return ControlFlow::Break(());
            }
        }
        if found.len() >= cfg.limit {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })?;
    if let Some(e) = scan_error {
        return Err(e);
    }

    let entries: Vec<Found> = found
        .into_iter()
        .filter(|(_, _, sig)| !until_excluded.contains(sig))
        .take(cfg.limit)
        .collect();
    if reusable && let Some(text) = answers.reuse(&question, &entries) {
        return Ok(Text::Shared(text));
    }
    let at: Vec<(Slot, &[u8; 64])> = entries.iter().map(|(slot, _, sig)| (*slot, sig)).collect();
    let memos = store.transaction_memo_rows(&at)?;
    let slots: Vec<Slot> = entries.iter().map(|(slot, _, _)| *slot).collect();
    chain.read_block_times(&slots)?;
    let mut out = JsonOut::with_capacity(entries.len() * 200 + 2);
    let mut whole = true;
    out.try_array(
        entries.iter().zip(memos),
        |out, ((slot, index, sig), memo)| {
            let entry = Entry {
                slot: *slot,
                index: *index,
                signature: sig,
                memo: memo.as_deref(),
            };
            whole &= write_entry(chain, &mut statuses, out, &entry, max_root)?;
            Ok::<(), RpcError>(())
        },
    )?;
    let text = out.into_string()?;
    if reusable && whole {
        return Ok(answers.keep(&question, entries, text));
    }
    Ok(Text::Written(text))
}

/// One address entry to answer, with its memo row as read.
struct Entry<'e> {
    slot: Slot,
    /// The transaction's position in its block, as the `address_signatures` key holds it
    /// (Agave 4.x's `transactionIndex`).
    index: u32,
    signature: &'e [u8; 64],
    memo: Option<&'e [u8]>,
}

/// One `RpcConfirmedTransactionStatusWithSignature`; whether every row it shows was found
/// (its status and block time) and decoded (its status and memo).
fn write_entry<E: KvEngine>(
    chain: &Chain<'_, E>,
    statuses: &mut StatusFinder<'_, '_, E>,
    out: &mut JsonOut,
    entry: &Entry<'_>,
    max_root: Option<Slot>,
) -> Result<bool, RpcError> {
    let (slot, sig) = (entry.slot, entry.signature);
    let mut whole = true;
    out.raw("{\"signature\":");
    out.b58(sig);
    out.raw(",\"slot\":");
    out.u64(slot.0);
    out.raw(",\"err\":");
    // Only the status's `err` is shown: the rest of the row is not decoded.
    let status = statuses.find(sig)?;
    match status.as_ref().map(|(_, row)| StatusMeta::decode_err(row)) {
        Some(Ok(Some(e))) => write_tx_error(out, &e),
        Some(Err(e)) => {
            log::warn!(
                "slot {slot}: the status of {} does not decode: {e}",
                bs58::encode(sig).into_string()
            );
            whole = false;
            out.raw("null");
        }
        Some(Ok(None)) => out.raw("null"),
        None => {
            whole = false;
            out.raw("null");
        }
    }
    out.raw(",\"memo\":");
    match entry.memo {
        Some(row) => match decode_memo(row) {
            Ok(memo) => out.str(memo),
            Err(e) => {
                log::warn!(
                    "slot {slot}: memo of {}: {e}",
                    bs58::encode(sig).into_string()
                );
                whole = false;
                out.raw("null");
            }
        },
        None => out.raw("null"),
    }
    out.raw(",\"blockTime\":");
    let block_time = chain.block_time(slot)?;
    whole &= block_time.is_some();
    out.opt_i64(block_time);
    let finalized = max_root.is_some_and(|r| slot <= r);
    out.raw(if finalized {
        ",\"confirmationStatus\":\"finalized\""
    } else {
        ",\"confirmationStatus\":\"confirmed\""
    });
    out.raw(",\"transactionIndex\":");
    out.u64(u64::from(entry.index));
    out.raw("}");
    Ok(whole)
}
