//! Runs the requests of one HTTP body ([`crate::params::request`] parses it) and assembles the
//! response as chunks: each result's text is moved into the body as it is, never copied
//! into a bigger string, and its budget reservation moves with it.

use bstore_ledger::store::KvEngine;
use hyper::body::Bytes;

use crate::error::RpcError;
use crate::methods::budget::{Budget, Reservation};
use crate::methods::{Ctx, call};
use crate::params::request::{
    Envelope, RESULT_PREFIX, Request, error_response, error_text, parse_body, result_suffix,
    unversioned_error_text,
};

/// A response body in order, and the budget its results hold.
#[derive(Debug)]
pub(crate) struct Reply {
    pub chunks: Vec<Bytes>,
    pub reservation: Reservation,
}

impl Reply {
    fn new(budget: &Budget) -> Self {
        Self {
            chunks: Vec::new(),
            reservation: budget.empty(),
        }
    }

    /// A whole-body error of the HTTP layer (a body that could not be read in full).
    pub(crate) fn error(budget: &Budget, error: &RpcError) -> Self {
        let mut r = Self::new(budget);
        r.chunks.push(Bytes::from(error_response(error)));
        r
    }
}

/// Batch items run between two yields to the I/O thread's other tasks.
const YIELD_EVERY: usize = 16;

/// Runs one request and appends its response object; `false` for a notification.
async fn run<E: KvEngine + 'static>(ctx: &Ctx<E>, request: Request, reply: &mut Reply) -> bool {
    let (id, outcome) = match request {
        Request::Notification => return false,
        Request::Invalid { id } => (id, Err(RpcError::InvalidRequest)),
        Request::Unversioned { id } => {
            reply.chunks.push(Bytes::from(unversioned_error_text(&id)));
            return true;
        }
        Request::Call { id, method, params } => {
            let outcome = call(ctx, &method, params).await;
            match &outcome {
                Err(e @ (RpcError::Ledger { .. } | RpcError::Internal { .. })) => {
                    log::error!("{method}: {e}: {:?}", e.data());
                }
                Err(e @ RpcError::Archive { fault, .. }) => {
                    log::error!("{method}: archive {}: {:?}", fault.kind.name(), e.data());
                }
                _ => {}
            }
            (id, outcome)
        }
    };
    match outcome {
        Ok(answer) => {
            reply
                .chunks
                .push(Bytes::from_static(RESULT_PREFIX.as_bytes()));
            reply.chunks.push(answer.text);
            reply.chunks.push(Bytes::from(result_suffix(&id)));
            reply.reservation.merge(answer.reservation);
        }
        Err(e) => reply.chunks.push(Bytes::from(error_text(&id, &e))),
    }
    true
}

/// Handles one HTTP body; `None` when nothing is to be sent back (only notifications, or
/// an empty batch). An answer ends with a newline, as Agave's do.
/// Batch items run one after another, so one batch holds at most one worker at a time;
/// its results accumulate against the budget until the response is sent. Every
/// [`YIELD_EVERY`] items the batch lets the I/O thread's other connections run (items
/// answered on the I/O thread itself would otherwise hold it for the whole batch).
pub(crate) async fn handle_body<E: KvEngine + 'static>(
    ctx: &Ctx<E>,
    body: &[u8],
    max_batch: usize,
) -> Option<Reply> {
    let mut reply = Reply::new(&ctx.budget);
    match parse_body(body, max_batch) {
        Envelope::Refused(e) => reply.chunks.push(Bytes::from(error_response(&e))),
        Envelope::Single(request) => {
            if !run(ctx, request, &mut reply).await {
                return None;
            }
        }
        Envelope::Batch(requests) => {
            let mut answered = 0usize;
            for (i, request) in requests.into_iter().enumerate() {
                if i % YIELD_EVERY == YIELD_EVERY - 1 {
                    tokio::task::yield_now().await;
                }
                if answered > 0 {
                    reply.chunks.push(Bytes::from_static(b","));
                }
                if run(ctx, request, &mut reply).await {
                    answered += 1;
                } else if answered > 0 {
                    // No object followed the comma.
                    reply.chunks.pop();
                }
            }
            if answered == 0 {
                return None;
            }
            reply.chunks.insert(0, Bytes::from_static(b"["));
            reply.chunks.push(Bytes::from_static(b"]"));
        }
    }
    reply.chunks.push(Bytes::from_static(b"\n"));
    Some(reply)
}
