//! The accept loop and one task per connection (run on an I/O thread, `io_threads.rs`), with
//! the bounds a plain hyper server lacks:
//!
//! - a cap on open connections: one more is answered HTTP 503 / JSON-RPC -32005 at once
//!   and closed (never queued, never served; see `conn_refuse.rs`), so idle sockets
//!   cannot pile up and every client learns why;
//! - hyper's header read timeout (from the moment a request may start until its header is
//!   complete), which closes half-sent headers;
//! - an idle timeout: a connection with no request in progress and no bytes moving for
//!   that long is closed (keep-alive idlers, stalled readers of a response);
//! - the body read timeout is the handler's (see `server.rs`).
//!
//! Shutdown: the loop stops accepting, every connection is told to shut down gracefully
//! (idle ones close, in-flight requests finish), and the loop returns once every connection
//! has given back its permit.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use hyper::body::Incoming;
use hyper::service::Service;
use hyper::{Request, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, watch};
use tokio::time::Instant;

use crate::transport::conn_refuse;
use crate::transport::io_threads::IoThreads;
use crate::transport::limits::ConnLimits;
use crate::transport::reply_body::ReplyBody;

/// What answers a connection's requests (`server.rs`'s routes), shared by every connection.
pub(crate) trait Handler: Send + Sync + 'static {
    fn handle(
        self: Arc<Self>,
        request: Request<Incoming>,
    ) -> impl Future<Output = Response<ReplyBody>> + Send + 'static;
}

/// When a connection last moved bytes, and how many of its requests are being handled.
#[derive(Debug)]
struct Activity {
    start: Instant,
    /// Milliseconds from `start` to the last read, write or finished request.
    last_ms: AtomicU64,
    /// Requests whose handler has not returned yet.
    active: AtomicUsize,
}

impl Activity {
    fn new() -> Self {
        Self {
            start: Instant::now(),
            last_ms: AtomicU64::new(0),
            active: AtomicUsize::new(0),
        }
    }

    fn touch(&self) {
        let ms = u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.last_ms.fetch_max(ms, Ordering::AcqRel);
    }

    /// When the connection becomes idle if nothing happens before.
    fn idle_at(&self, idle: Duration) -> Instant {
        self.start + Duration::from_millis(self.last_ms.load(Ordering::Acquire)) + idle
    }

    fn is_idle(&self, idle: Duration) -> bool {
        self.active.load(Ordering::Acquire) == 0 && Instant::now() >= self.idle_at(idle)
    }
}

/// Counts a request as in progress until dropped.
struct InProgress(Arc<Activity>);

impl InProgress {
    fn begin(activity: &Arc<Activity>) -> Self {
        activity.active.fetch_add(1, Ordering::AcqRel);
        Self(Arc::clone(activity))
    }
}

impl Drop for InProgress {
    fn drop(&mut self) {
        self.0.touch();
        self.0.active.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The socket, recording activity on every successful read or write.
struct Watched {
    stream: TcpStream,
    activity: Arc<Activity>,
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.stream).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.activity.touch();
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let polled = Pin::new(&mut self.stream).poll_write(cx, data);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.touch();
        }
        polled
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let polled = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.touch();
        }
        polled
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// The handler, counting each request as in progress while it runs.
struct Tracked<H> {
    handler: Arc<H>,
    activity: Arc<Activity>,
}

impl<H: Handler> Service<Request<Incoming>> for Tracked<H> {
    type Response = Response<ReplyBody>;
    type Error = std::convert::Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>> + Send>>;

    fn call(&self, req: Request<Incoming>) -> Self::Future {
        let guard = InProgress::begin(&self.activity);
        let response = Arc::clone(&self.handler).handle(req);
        Box::pin(async move {
            let response = response.await;
            drop(guard);
            Ok(response)
        })
    }
}

/// Serves one connection until it ends, idles out, or shutdown completes for it.
async fn connection<H: Handler>(
    stream: TcpStream,
    handler: Arc<H>,
    limits: ConnLimits,
    mut shutdown: watch::Receiver<bool>,
) {
    let activity = Arc::new(Activity::new());
    let io = TokioIo::new(Watched {
        stream,
        activity: Arc::clone(&activity),
    });
    let service = Tracked {
        handler,
        activity: Arc::clone(&activity),
    };
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout)
        .keep_alive(true);
    let conn = http.serve_connection(io, service);
    tokio::pin!(conn);
    let mut shutting_down = *shutdown.borrow();
    if shutting_down {
        conn.as_mut().graceful_shutdown();
    }
    loop {
        tokio::select! {
            done = conn.as_mut() => {
                if let Err(e) = done {
                    log::debug!("connection ended: {e}");
                }
                return;
            }
            () = tokio::time::sleep_until(activity.idle_at(limits.idle_timeout)) => {
                if activity.is_idle(limits.idle_timeout) {
                    log::debug!("closing a connection idle for {:?}", limits.idle_timeout);
                    return;
                }
            }
            changed = shutdown.changed(), if !shutting_down => {
                shutting_down = true;
                if changed.is_ok() {
                    conn.as_mut().graceful_shutdown();
                }
            }
        }
    }
}

/// Accepts until `stop` resolves, handing each connection to one of `io`'s threads, then
/// waits for every connection to finish.
pub(crate) async fn serve<H: Handler>(
    listener: TcpListener,
    handler: Arc<H>,
    limits: ConnLimits,
    io: &IoThreads,
    stop: impl Future<Output = ()>,
) {
    // Permits fit a u32 (`acquire_many` at shutdown); at least one connection is allowed.
    let max = u32::try_from(limits.max_connections.max(1)).unwrap_or(u32::MAX >> 3);
    let permits = Arc::new(Semaphore::new(max as usize));
    let refusing = Arc::new(Semaphore::new(conn_refuse::MAX_REFUSING));
    let (shutdown_tx, shutdown_rx) = watch::channel(false);
    tokio::pin!(stop);
    loop {
        let accepted = tokio::select! {
            () = &mut stop => break,
            accepted = listener.accept() => accepted,
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of descriptors or a reset before accept: back off briefly, go on.
                log::warn!("accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            }
        };
        let Ok(permit) = Arc::clone(&permits).try_acquire_owned() else {
            // Over the cap: answered 503 and closed, never queued.
            log::debug!("connection refused: {max} connections open");
            conn_refuse::refuse(stream, &refusing);
            continue;
        };
        // Deregistered here, registered again by the I/O thread that serves it.
        let stream = match stream.into_std() {
            Ok(stream) => stream,
            Err(e) => {
                log::warn!("cannot hand off an accepted connection: {e}");
                continue;
            }
        };
        let (handler, shutdown) = (Arc::clone(&handler), shutdown_rx.clone());
        let task = Box::pin(async move {
            match TcpStream::from_std(stream) {
                Ok(stream) => connection(stream, handler, limits, shutdown).await,
                Err(e) => log::warn!("cannot register a connection on its I/O thread: {e}"),
            }
            drop(permit);
        });
        if !io.hand_off(task) {
            log::error!("an I/O thread is gone: connection closed");
        }
    }
    drop(listener);
    let _ = shutdown_tx.send(true);
    // Every permit back = every connection task has finished.
    let _ = permits.acquire_many(max).await;
}
