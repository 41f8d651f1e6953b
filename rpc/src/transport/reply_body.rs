//! The HTTP body of a JSON-RPC response: the answers' texts as chunks, sent without being
//! copied into one string, holding their response budget reservation
//! ([`Reservation`]) until hyper drops the body (sent, or the client is gone).

use std::collections::VecDeque;
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

use http_body::{Frame, SizeHint};
use hyper::body::Bytes;

use crate::methods::budget::Reservation;

/// A response body made of chunks (no copy of an encoded block into a bigger string) that
/// holds its reservation until hyper drops it.
#[derive(Debug)]
pub(crate) struct ReplyBody {
    chunks: VecDeque<Bytes>,
    _reservation: Reservation,
}

impl ReplyBody {
    /// A reply of at most this many bytes is sent as one chunk (one copy of a small text
    /// costs less than a write per chunk); larger ones keep their chunks uncopied.
    const COALESCE_BELOW: usize = 64 * 1024;

    pub(crate) fn new(chunks: Vec<Bytes>, reservation: Reservation) -> Self {
        let total: usize = chunks.iter().map(Bytes::len).sum();
        let chunks = if chunks.len() > 1 && total <= Self::COALESCE_BELOW {
            let mut one = Vec::with_capacity(total);
            chunks.iter().for_each(|c| one.extend_from_slice(c));
            VecDeque::from([Bytes::from(one)])
        } else {
            chunks.into_iter().filter(|c| !c.is_empty()).collect()
        };
        Self {
            chunks,
            _reservation: reservation,
        }
    }
}

impl http_body::Body for ReplyBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        Poll::Ready(
            self.get_mut()
                .chunks
                .pop_front()
                .map(|c| Ok(Frame::data(c))),
        )
    }

    fn is_end_stream(&self) -> bool {
        self.chunks.is_empty()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.chunks.iter().map(|c| c.len() as u64).sum())
    }
}
