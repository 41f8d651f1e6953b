//! `getTransaction` and `getSignatureStatuses` over the `transaction_status` column
//! (Agave's `get_rooted_transaction` / `get_complete_transaction` and
//! `get_rooted_transaction_status`): a signature's status is the one in the lowest slot at
//! or above the first available block that is rooted (or, at `confirmed`, available as a
//! confirmed block). A status that does not decode counts as absent, as in Agave.

use bstore_ledger::entry::TransactionView;
use bstore_ledger::fetch::{BlockReader, FetchBuffer, Located};
use bstore_ledger::history::StatusMeta;
use bstore_ledger::store::{KvEngine, StatusLookup};
use bstore_ledger::{LedgerError, Slot};

use crate::encode::json::JsonOut;
use crate::encode::{write_err_and_status, write_transaction_members};
use crate::error::RpcError;
use crate::methods::chain::Chain;
use crate::params::history::TransactionConfig;
use crate::params::{BlockConfig, Commitment, TransactionDetails};

/// Roots Agave's bank status cache holds (`MAX_ROOT_ENTRIES`, `MAX_RECENT_BLOCKHASHES`):
/// once it has more, `purge_roots` drops the lowest, with every status of those slots.
/// Without `searchTransactionHistory`, `getSignatureStatuses` answers only for these
/// newest roots.
pub(crate) const STATUS_CACHE_ROOTS: usize = 300;

/// Finds signatures' statuses at one commitment for one request: one ledger cursor sought
/// per signature (`StatusLookup`), and slot facts remembered by the request's [`Chain`].
pub(crate) struct StatusFinder<'c, 'a, E: KvEngine> {
    chain: &'c Chain<'a, E>,
    lookup: StatusLookup<'a, E>,
    commitment: Commitment,
}

impl<'c, 'a, E: KvEngine> StatusFinder<'c, 'a, E> {
    pub(crate) fn new(chain: &'c Chain<'a, E>, commitment: Commitment) -> Self {
        Self {
            chain,
            lookup: chain.store().status_lookup(),
            commitment,
        }
    }

    /// The slot and raw status of `signature`, if any: the lowest slot at or above the
    /// first available block whose transactions count at the commitment.
    pub(crate) fn find(
        &mut self,
        signature: &[u8; 64],
    ) -> Result<Option<(Slot, Vec<u8>)>, RpcError> {
        let (chain, commitment) = (self.chain, self.commitment);
        let lowest = chain.first_available_block()?;
        self.lookup
            .first_accepted(signature, lowest, |slot| chain.counts(slot, commitment))
    }
}

/// The slot and raw status of `signature` at `commitment`, if any (one lookup).
pub(crate) fn find_status<E: KvEngine>(
    chain: &Chain<'_, E>,
    signature: &[u8; 64],
    commitment: Commitment,
) -> Result<Option<(Slot, Vec<u8>)>, RpcError> {
    StatusFinder::new(chain, commitment).find(signature)
}

/// `getTransaction`'s result as JSON text (`null` when not found).
pub(crate) fn get_transaction<E: KvEngine>(
    chain: &Chain<'_, E>,
    buf: &mut FetchBuffer,
    signature: &[u8; 64],
    cfg: &TransactionConfig,
) -> Result<String, RpcError> {
    let text = transaction_answer(chain, buf, signature, cfg, false)?;
    // A lookup that may walk the block always has an answer.
    Ok(text.unwrap_or_else(|| "null".into()))
}

/// [`get_transaction`] reading at most the one data set the transaction memo names (work
/// bounded as the I/O thread requires, `inline.rs`); `None` when that is not enough and
/// the block must be walked.
pub(crate) fn get_located_transaction<E: KvEngine>(
    chain: &Chain<'_, E>,
    buf: &mut FetchBuffer,
    signature: &[u8; 64],
    cfg: &TransactionConfig,
) -> Result<Option<String>, RpcError> {
    transaction_answer(chain, buf, signature, cfg, true)
}

fn transaction_answer<E: KvEngine>(
    chain: &Chain<'_, E>,
    buf: &mut FetchBuffer,
    signature: &[u8; 64],
    cfg: &TransactionConfig,
    located_only: bool,
) -> Result<Option<String>, RpcError> {
    let null = || Ok(Some("null".to_string()));
    let store = chain.store();
    let Some((slot, row)) = find_status(chain, signature, cfg.commitment)? else {
        return null();
    };
    let Ok(meta) = StatusMeta::decode(&row) else {
        log::warn!(
            "getTransaction: slot {slot}: the status of {} does not decode",
            bs58::encode(signature).into_string()
        );
        return null();
    };
    // Agave 4.4 counts a transaction's index from the block's start (`replay_fec_set_index`).
    let Some(slot_meta) = store.meta(slot)? else {
        return null();
    };
    // Reads the block only as far as the data sets holding the transaction (or, located
    // only, the one set the memo names).
    let found = match located_only {
        false => store.block_transaction(slot, &slot_meta, signature, buf),
        true => match store.located_transaction(slot, &slot_meta, signature, buf) {
            Ok(Located::Found(found)) => Ok(Some(found)),
            Ok(Located::Unlocated) => return Ok(None),
            Err(e) => Err(e),
        },
    };
    let found = match found {
        Ok(found) => found,
        Err(LedgerError::DeadSlot { .. } | LedgerError::SlotCleanedUp { .. }) => {
            return null();
        }
        Err(e) => return Err(e.into()),
    };
    let Some(found) = found else {
        // Agave: `TransactionStatusSlotMismatch`, answered as not found.
        return null();
    };
    confirmed_transaction_json(
        slot,
        found.index,
        &found.transaction,
        &meta,
        chain.block_time(slot)?,
        cfg,
    )
    .map(Some)
}

/// Agave's `EncodedConfirmedTransactionWithStatusMeta`: `slot`, the transaction, its meta
/// (rewards shown) and version flattened, `blockTime`, and `transactionIndex` (the
/// transaction's position among the block's transactions, as Agave 4.x reports it). Local
/// and archived transactions alike.
pub(crate) fn confirmed_transaction_json(
    slot: Slot,
    index: u32,
    tx: &TransactionView<'_>,
    meta: &StatusMeta<'_>,
    block_time: Option<i64>,
    cfg: &TransactionConfig,
) -> Result<String, RpcError> {
    let block_cfg = BlockConfig {
        encoding: cfg.encoding,
        details: TransactionDetails::Full,
        rewards: true,
        commitment: cfg.commitment,
        max_supported_version: cfg.max_supported_version,
    };
    let mut out = JsonOut::with_capacity(tx.bytes().len() * 4 + 1024);
    out.raw("{\"slot\":");
    out.u64(slot.0);
    out.raw(",");
    write_transaction_members(&mut out, tx, Some(meta), &block_cfg)?;
    out.raw(",\"blockTime\":");
    out.opt_i64(block_time);
    out.raw(",\"transactionIndex\":");
    out.u64(u64::from(index));
    out.raw("}");
    out.into_string()
}

/// The rooted slots whose statuses Agave's status cache still holds: the newest
/// [`STATUS_CACHE_ROOTS`] roots (every rooted slot with `searchTransactionHistory`, which
/// reads the ledger). A rooted slot within that many slots of the highest root is among
/// them; an older one only when few enough roots lie above it (skipped slots), which
/// takes one walk of at most [`STATUS_CACHE_ROOTS`] roots per request, the first time an
/// older slot is asked about.
struct StatusCacheSpan<'c, 'a, E: KvEngine> {
    chain: &'c Chain<'a, E>,
    max_root: Option<Slot>,
    /// `None` until needed: the lowest root the cache holds (`Slot(0)`: every one).
    lowest: Option<Slot>,
}

impl<'c, 'a, E: KvEngine> StatusCacheSpan<'c, 'a, E> {
    fn new(chain: &'c Chain<'a, E>, search: bool) -> Result<Self, RpcError> {
        Ok(Self {
            chain,
            max_root: chain.tip(Commitment::Finalized)?,
            lowest: search.then_some(Slot(0)),
        })
    }

    /// Whether the status of rooted `slot` is answered.
    fn holds(&mut self, slot: Slot) -> Result<bool, RpcError> {
        let Some(max_root) = self.max_root else {
            return Ok(true);
        };
        // At most STATUS_CACHE_ROOTS slots, so roots, from `slot` to the highest root.
        if slot.0.saturating_add(STATUS_CACHE_ROOTS as u64) > max_root.0 {
            return Ok(true);
        }
        let lowest = match self.lowest {
            Some(lowest) => lowest,
            None => {
                // The STATUS_CACHE_ROOTS-th newest root, or the lowest of fewer.
                let mut lowest = Slot(0);
                let newest = self.chain.store().rooted_slots_rev(..=max_root);
                for root in newest.take(STATUS_CACHE_ROOTS) {
                    lowest = root?;
                }
                *self.lowest.insert(lowest)
            }
        };
        Ok(slot >= lowest)
    }
}

/// `getSignatureStatuses`' `value`: one status or `null` per signature. Every answer is a
/// rooted slot's (`confirmations: null`, `finalized`); without `searchTransactionHistory`
/// only the newest [`STATUS_CACHE_ROOTS`] roots count, as Agave's status cache.
pub(crate) fn signature_statuses<E: KvEngine>(
    chain: &Chain<'_, E>,
    signatures: &[[u8; 64]],
    search: bool,
) -> Result<String, RpcError> {
    let mut cached = StatusCacheSpan::new(chain, search)?;
    let mut finder = StatusFinder::new(chain, Commitment::Finalized);
    let mut out = JsonOut::with_capacity(signatures.len() * 128 + 64);
    out.try_array(signatures, |out, sig| {
        let found = match finder.find(sig)? {
            Some((slot, row)) if cached.holds(slot)? => Some((slot, row)),
            _ => None,
        };
        let found = found.and_then(|(slot, row)| Some((slot, StatusMeta::decode(&row).ok()?.err)));
        match found {
            None => out.raw("null"),
            Some((slot, err)) => {
                out.raw("{\"slot\":");
                out.u64(slot.0);
                out.raw(",\"confirmations\":null,");
                write_err_and_status(out, err.as_ref());
                out.raw(",\"confirmationStatus\":\"finalized\"}");
            }
        }
        Ok::<(), RpcError>(())
    })?;
    out.into_string()
}
