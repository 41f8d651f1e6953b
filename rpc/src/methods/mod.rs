//! The methods layer: a typed call in, the answer's JSON text out, read from the ledger
//! through its fetch and block-reading API and written by [`crate::encode`].
//!
//! Params are parsed first ([`Call::parse`], no ledger access); then ledger work bounded by
//! a small constant runs on the I/O thread ([`inline`]), and the rest on two bounded pools
//! ([`workers`]): `getBlock` on the fetch workers, the other ledger methods on the scan
//! workers (nothing runs on Tokio's unbounded blocking pool). Every result is reserved
//! against the response budget ([`budget`]) before it is handed to the HTTP layer.
//!
//! - one file per family: [`block`] (`getBlock`), [`transaction`] (`getTransaction`,
//!   `getSignatureStatuses`), [`signatures`] (`getSignaturesForAddress`), [`slots`] (the
//!   slot methods), [`node`] (`getHealth`, `getVersion`), [`archived`] (the archive
//!   fallbacks);
//! - what they read with: [`chain`] (commitment and availability from the blockstore
//!   alone), [`history`] (a block's history rows), [`address_answers`] and
//!   [`block_answers`] (`getSignaturesForAddress` and `getBlock` answers kept across
//!   requests, in [`kept`]'s bounded table), [`archive`] (the archive
//!   tier's trait), [`record_block`] (an archived block as the same views and rows as a
//!   local one);
//! - [`block_api`]: [`FetchedBlock`](block_api::FetchedBlock), `getBlock`'s result without
//!   the server.
//!
//! Every method is generic over the ledger's storage engine `E` ([`Ctx<E>`](Ctx),
//! [`Chain<'_, E>`](chain::Chain), [`FetchWorkers<E>`](workers::FetchWorkers)), with
//! RocksDB as the default: the server's code is the RocksDB instance of it, and the tests
//! also run the in-memory one (`crate::testing`).

mod address_answers;
pub mod archive;
mod archived;
mod block;
mod block_answers;
pub(crate) mod block_api;
pub(crate) mod budget;
mod chain;
mod history;
mod inline;
mod job_queue;
mod kept;
mod node;
mod record_block;
mod signatures;
mod slots;
mod transaction;
pub(crate) mod workers;

use std::sync::Arc;
use std::time::Instant;

use hyper::body::Bytes;
use serde_json::Value;

use bstore_ledger::fetch::FetchBuffer;
use bstore_ledger::store::{Blockstore, DefaultEngine, KvEngine};

use crate::error::RpcError;
use crate::params::args::Call;
use crate::params::history::TransactionConfig;
use crate::transport::catch_up::ViewHealth;
pub(crate) use address_answers::AddressAnswers;
use archive::BlockArchive;
pub(crate) use block_answers::BlockAnswers;
use budget::{Budget, Reservation};
use chain::Chain;
pub use kept::KeptAnswerCounts;
use workers::FetchWorkers;

/// What every method may use, over the ledger's storage engine `E` (the server's is the
/// default engine; the methods are monomorphized for each engine, nothing is dispatched).
#[derive(Debug)]
pub(crate) struct Ctx<E: KvEngine + 'static = DefaultEngine> {
    /// The ledger, for work run on the I/O thread ([`inline`]).
    pub store: Arc<Blockstore<E>>,
    /// `RpcConfig::inline_point_reads`: whether [`inline`]'s work may run on the I/O thread.
    pub inline_point_reads: bool,
    /// `getBlock` fetch + encode.
    pub workers: FetchWorkers<E>,
    /// The other ledger methods (scans and point reads).
    pub scans: FetchWorkers<E>,
    /// Bytes of results in flight, shared by every request.
    pub budget: Budget,
    /// `Limits::confirmed_window_slots`.
    pub confirmed_window: u64,
    /// The archive tier behind the ledger (`bstore serve --archive`), if any.
    pub archive: Option<Arc<dyn BlockArchive>>,
    /// Whether the view still follows a live writer (`getHealth`, `/health`).
    pub health: Arc<ViewHealth>,
    /// `getSignaturesForAddress` answers kept across requests.
    pub address_answers: Arc<AddressAnswers>,
    /// Rooted blocks' `getBlock` answers kept across requests.
    pub block_answers: Arc<BlockAnswers>,
}

/// A result's JSON text and the budget it holds until the response is sent. The text is
/// moved into the response body as it is (a kept answer's bytes are shared, not copied).
#[derive(Debug)]
pub(crate) struct Answer {
    pub text: Bytes,
    pub reservation: Reservation,
}

/// A method's JSON text: written for this request, or shared with a kept answer.
#[derive(Debug)]
pub(crate) enum Text {
    Written(String),
    Shared(Bytes),
}

impl From<String> for Text {
    fn from(text: String) -> Self {
        Self::Written(text)
    }
}

impl From<Text> for Bytes {
    fn from(text: Text) -> Self {
        match text {
            Text::Written(text) => Bytes::from(text),
            Text::Shared(bytes) => bytes,
        }
    }
}

impl Answer {
    /// Reserves `text` against `budget`: a written text's allocation, a shared text's
    /// length (a kept answer may be evicted, its bytes then held by this answer alone,
    /// before it is sent).
    fn reserve(text: impl Into<Text>, budget: &Budget) -> Result<Self, RpcError> {
        let (text, bytes) = match text.into() {
            Text::Written(text) => {
                let capacity = text.capacity();
                (Bytes::from(text), capacity)
            }
            Text::Shared(text) => {
                let len = text.len();
                (text, len)
            }
        };
        let reservation = budget.reserve(bytes)?;
        Ok(Self { text, reservation })
    }
}

fn to_text(value: &Value) -> Result<String, RpcError> {
    serde_json::to_string(value).map_err(|e| RpcError::Internal {
        reason: e.to_string(),
    })
}

/// Calls `method` with `params`.
pub(crate) async fn call<E: KvEngine + 'static>(
    ctx: &Ctx<E>,
    method: &str,
    params: Option<Value>,
) -> Result<Answer, RpcError> {
    let call = Call::parse(method, params)?;
    match call {
        Call::GetBlock { slot, config } => match &ctx.archive {
            Some(archive) => archived::get_block(ctx, archive, slot, config).await,
            None => block::get_block(ctx, slot, config).await,
        },
        Call::GetHealth => {
            ctx.health.check(Instant::now())?;
            Answer::reserve(to_text(&node::get_health())?, &ctx.budget)
        }
        Call::GetVersion => Answer::reserve(to_text(&node::get_version())?, &ctx.budget),
        Call::GetTransaction { signature, config } => {
            // A transaction the memo locates in a small data set is read here (one set);
            // anything that may walk its block goes to the scan workers.
            let here = ctx.inline_point_reads
                && ctx
                    .store
                    .located_transaction_set_shreds(&signature)
                    .is_some_and(|shreds| shreds <= inline::MAX_SET_SHREDS);
            let located = match here {
                true => located_call(ctx, &signature, &config),
                false => Ok(None),
            };
            let local = match located {
                Ok(Some(answer)) => Ok(answer),
                Err(e) => Err(e),
                Ok(None) => {
                    history_call(ctx, false, move |chain, buf| {
                        transaction::get_transaction(chain, buf, &signature, &config)
                    })
                    .await
                }
            };
            match &ctx.archive {
                Some(archive) => {
                    archived::get_transaction(ctx, archive, signature, config, local).await
                }
                None => local,
            }
        }
        Call::GetFirstAvailableBlock if ctx.archive.is_some() => {
            let archive = ctx.archive.as_ref().map(Arc::clone);
            match archive {
                Some(archive) => archived::first_available_block(ctx, &archive).await,
                None => Err(RpcError::Internal {
                    reason: "no archive".into(),
                }),
            }
        }
        Call::GetBlocks { start, end, config } if ctx.archive.is_some() => {
            let archive = ctx.archive.as_ref().map(Arc::clone);
            match archive {
                Some(archive) => archived::blocks(ctx, &archive, start, end, None, config).await,
                None => Err(RpcError::Internal {
                    reason: "no archive".into(),
                }),
            }
        }
        Call::GetBlocksWithLimit {
            start,
            limit,
            config,
        } if ctx.archive.is_some() => {
            let archive = ctx.archive.as_ref().map(Arc::clone);
            match archive {
                Some(archive) => {
                    archived::blocks(ctx, &archive, start, None, Some(limit), config).await
                }
                None => Err(RpcError::Internal {
                    reason: "no archive".into(),
                }),
            }
        }
        Call::GetSignaturesForAddress { address, config } => {
            let here = ctx.inline_point_reads
                && config.limit <= inline::MAX_ENTRIES
                && config.before.is_none()
                && config.until.is_none();
            let answers = Arc::clone(&ctx.address_answers);
            history_call(ctx, here, move |chain, buf| {
                signatures::signatures_for_address(chain, buf, &address, &config, &answers)
            })
            .await
        }
        Call::GetSignatureStatuses {
            signatures,
            search_transaction_history,
        } => {
            let here = ctx.inline_point_reads && signatures.len() <= inline::MAX_SIGNATURES;
            history_call(ctx, here, move |chain, _| {
                let value = transaction::signature_statuses(
                    chain,
                    &signatures,
                    search_transaction_history,
                )?;
                // Agave's context here is its processed bank.
                let context = chain
                    .tip(crate::params::Commitment::Processed)?
                    .unwrap_or_default();
                Ok(format!(
                    "{{\"context\":{{\"slot\":{},\"apiVersion\":\"{}\"}},\"value\":{value}}}",
                    context.0,
                    env!("CARGO_PKG_VERSION")
                ))
            })
            .await
        }
        other => {
            let (budget, window) = (ctx.budget.clone(), ctx.confirmed_window);
            let here = ctx.inline_point_reads && slots::reads_a_few_rows(&other);
            let answer = move |store: &Blockstore<E>| {
                let value = slots::answer(&Chain::new(store, window), &other)?;
                Answer::reserve(to_text(&value)?, &budget)
            };
            if here {
                inline::run(&ctx.store, |store, _| answer(store))
            } else {
                ctx.scans.run(move |store, _| answer(store)).await
            }
        }
    }
}

/// `getTransaction` on the I/O thread, reading at most the data set the transaction memo
/// names (`None`: the block must be walked, on the workers).
fn located_call<E: KvEngine + 'static>(
    ctx: &Ctx<E>,
    signature: &[u8; 64],
    config: &TransactionConfig,
) -> Result<Option<Answer>, RpcError> {
    let window = ctx.confirmed_window;
    let text = inline::run(&ctx.store, |store, buf| {
        transaction::get_located_transaction(&Chain::new(store, window), buf, signature, config)
    })?;
    text.map(|text| Answer::reserve(text, &ctx.budget))
        .transpose()
}

/// Runs a history method (JSON text out) here on the I/O thread when `here` (its work is
/// bounded small, see [`inline`]), else on the scan workers, and reserves its answer.
async fn history_call<E, T, F>(ctx: &Ctx<E>, here: bool, f: F) -> Result<Answer, RpcError>
where
    E: KvEngine + 'static,
    T: Into<Text>,
    F: FnOnce(&Chain<'_, E>, &mut FetchBuffer) -> Result<T, RpcError> + Send + 'static,
{
    let (budget, window) = (ctx.budget.clone(), ctx.confirmed_window);
    let answer = move |store: &Blockstore<E>, buf: &mut FetchBuffer| {
        let text = f(&Chain::new(store, window), buf)?;
        Answer::reserve(text, &budget)
    };
    if here {
        inline::run(&ctx.store, answer)
    } else {
        ctx.scans.run(answer).await
    }
}
