//! The HTTP server: [`App`]'s two routes served by `conn.rs`'s bounded accept loop (on the
//! server thread's single-threaded runtime) over a fixed number of I/O threads
//! (`io_threads.rs`, one single-threaded runtime each, no blocking pool); `POST /` for
//! JSON-RPC, `GET /health` as Agave serves it, graceful shutdown on request or on
//! SIGINT / SIGTERM, and the secondary catch-up thread when following a live writer.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

use bstore_ledger::store::{Blockstore, KvEngine};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::header::{self, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use tokio::sync::oneshot;

use crate::error::RpcError;
use crate::methods::Ctx;
use crate::methods::archive::BlockArchive;
use crate::methods::budget::{Budget, BudgetStats};
use crate::methods::workers::FetchWorkers;
use crate::transport::conn::{self, Handler};
use crate::transport::io_threads::IoThreads;
use crate::transport::jsonrpc::{Reply, handle_body};
use crate::transport::limits::{CatchUp, Limits, RpcConfig, Signals};
use crate::transport::reply_body::ReplyBody;

/// What every connection serves, and what its requests run with. Two routes, matched by
/// hand (a router's path matching, type-erased services and boxed bodies cost more per
/// request than the routes are worth): `POST /` and `GET` / `HEAD /health`; another
/// method on either path is 405 with `allow`, any other path 404.
struct App<E: KvEngine + 'static> {
    ctx: Ctx<E>,
    limits: Limits,
    body_read_timeout: Duration,
}

const JSON: &str = "application/json";

/// A response of `status` with `body` (and its content type, if any).
fn respond(
    status: StatusCode,
    content_type: Option<&'static str>,
    body: ReplyBody,
) -> Response<ReplyBody> {
    let mut response = Response::new(body);
    *response.status_mut() = status;
    if let Some(content_type) = content_type {
        response
            .headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    }
    response
}

fn json(status: StatusCode, reply: Reply) -> Response<ReplyBody> {
    respond(
        status,
        Some(JSON),
        ReplyBody::new(reply.chunks, reply.reservation),
    )
}

/// `response` with `Connection: close`: the request's body was not read to its end, so
/// nothing after it on the connection can be parsed.
fn closing(mut response: Response<ReplyBody>) -> Response<ReplyBody> {
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

impl<E: KvEngine + 'static> App<E> {
    /// A body of one static text (nothing reserved: it is not a result).
    fn text(
        &self,
        status: StatusCode,
        content_type: Option<&'static str>,
        text: &'static str,
    ) -> Response<ReplyBody> {
        let chunks = vec![Bytes::from_static(text.as_bytes())];
        respond(
            status,
            content_type,
            ReplyBody::new(chunks, self.ctx.budget.empty()),
        )
    }

    fn method_not_allowed(&self, allow: &'static str) -> Response<ReplyBody> {
        let mut response = self.text(StatusCode::METHOD_NOT_ALLOWED, None, "");
        response
            .headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static(allow));
        response
    }

    async fn route(&self, request: Request<Incoming>) -> Response<ReplyBody> {
        let get = matches!(*request.method(), Method::GET | Method::HEAD);
        match request.uri().path() {
            "/" if request.method() == Method::POST => self.rpc(request.into_body()).await,
            "/" => self.method_not_allowed("POST"),
            "/health" if get => self.text(StatusCode::OK, Some("text/plain; charset=utf-8"), "ok"),
            "/health" => self.method_not_allowed("GET,HEAD"),
            _ => self.text(StatusCode::NOT_FOUND, None, ""),
        }
    }

    async fn rpc(&self, body: Incoming) -> Response<ReplyBody> {
        let max = self.limits.max_request_bytes;
        let budget = &self.ctx.budget;
        // The whole body must arrive within the body read timeout (slow senders are cut
        // off; `Connection: close` because the rest of their body is never read).
        let read = tokio::time::timeout(self.body_read_timeout, Limited::new(body, max).collect());
        let bytes = match read.await {
            Ok(Ok(collected)) => collected.to_bytes(),
            Ok(Err(e)) if e.is::<LengthLimitError>() => {
                let e = RpcError::BodyTooLarge { max };
                return json(StatusCode::PAYLOAD_TOO_LARGE, Reply::error(budget, &e));
            }
            // A malformed chunked body, or the connection failing mid-body: the rest of the
            // stream cannot be trusted, so the connection closes after the answer.
            Ok(Err(e)) => {
                let e = RpcError::BodyUnreadable {
                    reason: e.to_string(),
                };
                return closing(json(StatusCode::BAD_REQUEST, Reply::error(budget, &e)));
            }
            Err(_) => {
                let e = RpcError::BodyTimeout {
                    after: self.body_read_timeout,
                };
                return closing(json(StatusCode::REQUEST_TIMEOUT, Reply::error(budget, &e)));
            }
        };
        match handle_body(&self.ctx, &bytes, self.limits.max_batch_len).await {
            Some(reply) => json(StatusCode::OK, reply),
            // Agave's RPC answers 200 with an empty body here.
            None => self.text(StatusCode::OK, Some(JSON), ""),
        }
    }
}

impl<E: KvEngine + 'static> Handler for App<E> {
    async fn handle(self: Arc<Self>, request: Request<Incoming>) -> Response<ReplyBody> {
        self.route(request).await
    }
}

/// Resolves on SIGINT or SIGTERM (never, if the handlers cannot be installed: logged).
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match (
            signal(SignalKind::interrupt()),
            signal(SignalKind::terminate()),
        ) {
            (Ok(mut int), Ok(mut term)) => {
                tokio::select! {
                    _ = int.recv() => log::info!("SIGINT: shutting down"),
                    _ = term.recv() => log::info!("SIGTERM: shutting down"),
                }
            }
            (Err(e), _) | (_, Err(e)) => {
                log::error!("cannot install signal handlers: {e}");
                std::future::pending::<()>().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

/// What the methods run with over `store`, bounded as `config` says: the fetch and scan
/// worker pools, the response budget, the confirmed window and the archive tier.
fn methods_ctx<E: KvEngine + 'static>(
    store: &Arc<Blockstore<E>>,
    config: &RpcConfig,
    archive: Option<Arc<dyn BlockArchive>>,
) -> Result<Ctx<E>, RpcError> {
    let workers = FetchWorkers::new(
        Arc::clone(store),
        "bstoreRpcFetch",
        config.limits.max_concurrent_fetches,
        config.limits.max_queued_fetches,
    )?;
    let scans = FetchWorkers::new(
        Arc::clone(store),
        "bstoreRpcScan",
        config.limits.max_concurrent_scans,
        config.limits.max_queued_scans,
    )?;
    Ok(Ctx {
        store: Arc::clone(store),
        inline_point_reads: config.inline_point_reads,
        workers,
        scans,
        budget: Budget::new(config.limits.response_budget_bytes),
        confirmed_window: config.limits.confirmed_window_slots,
        archive,
    })
}

/// A running server. Drop or [`RpcServer::stop`] shuts it down gracefully: in-flight
/// requests finish, then the fetch workers are joined.
#[derive(Debug)]
pub struct RpcServer {
    addr: SocketAddr,
    budget: Budget,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<Result<(), RpcError>>>,
}

impl RpcServer {
    /// Binds `config.addr` (errors are returned here, not later) and serves `store` from a
    /// background thread. Any storage engine: RocksDB in production, the in-memory engine
    /// in tests.
    pub fn start<E: KvEngine + 'static>(
        store: Arc<Blockstore<E>>,
        config: RpcConfig,
    ) -> Result<Self, RpcError> {
        Self::start_with_archive(store, config, None)
    }

    /// [`Self::start`] with an archive tier behind the ledger (`crate::archive`): blocks and
    /// transactions the ledger no longer has are answered from it. Its futures run on the
    /// I/O thread of the connection that asked.
    pub fn start_with_archive<E: KvEngine + 'static>(
        store: Arc<Blockstore<E>>,
        config: RpcConfig,
        archive: Option<Arc<dyn BlockArchive>>,
    ) -> Result<Self, RpcError> {
        let listener =
            std::net::TcpListener::bind(config.addr).map_err(|source| RpcError::Bind {
                addr: config.addr,
                source,
            })?;
        listener
            .set_nonblocking(true)
            .map_err(|source| RpcError::Io { source })?;
        let addr = listener
            .local_addr()
            .map_err(|source| RpcError::Io { source })?;
        // The accept loop's runtime; connections are served on the I/O threads' own.
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|source| RpcError::Io { source })?;
        let io = IoThreads::start(config.io_threads)?;
        let ctx = methods_ctx(&store, &config, archive)?;
        let budget = ctx.budget.clone();
        let catch_up = CatchUpThread::start(Arc::clone(&store), config.catch_up)?;
        let app = Arc::new(App {
            ctx,
            limits: config.limits,
            body_read_timeout: config.conn.body_read_timeout,
        });
        let (stop_tx, stop_rx) = oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("bstoreRpcServer".into())
            .spawn(move || {
                let served = runtime.block_on(serve(listener, app, config, &io, stop_rx));
                // Every connection has finished (`conn::serve` waited for them).
                io.join();
                drop(catch_up);
                served
            })
            .map_err(|source| RpcError::Io { source })?;
        log::info!("JSON-RPC listening on http://{addr}");
        Ok(Self {
            addr,
            budget,
            stop: Some(stop_tx),
            thread: Some(thread),
        })
    }

    /// The bound address (the real port when `config.addr` had port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The response memory budget: bytes held now, the most ever held, the limit.
    pub fn response_budget(&self) -> BudgetStats {
        self.budget.stats()
    }

    /// Blocks until the server stops by itself (a signal, with `Signals::Stop`).
    pub fn wait(mut self) -> Result<(), RpcError> {
        self.join()
    }

    /// Stops gracefully and waits for the server to finish.
    pub fn stop(mut self) -> Result<(), RpcError> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        self.join()
    }

    fn join(&mut self) -> Result<(), RpcError> {
        match self.thread.take().map(JoinHandle::join) {
            None => Ok(()),
            Some(Ok(result)) => result,
            Some(Err(_)) => Err(RpcError::Internal {
                reason: "the server thread panicked".into(),
            }),
        }
    }
}

impl Drop for RpcServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let _ = self.join();
    }
}

/// The longest the catch-up thread waits before it looks for a stop request.
const STOP_CHECK: Duration = Duration::from_millis(20);

/// The secondary's catch-up loop on a thread of its own (one call at a time), stopped and
/// joined when dropped.
struct CatchUpThread {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl CatchUpThread {
    fn start<E: KvEngine + 'static>(
        store: Arc<Blockstore<E>>,
        catch_up: CatchUp,
    ) -> Result<Self, RpcError> {
        let CatchUp::Paced(pacing) = catch_up else {
            return Ok(Self {
                stop: None,
                thread: None,
            });
        };
        let (tx, rx) = mpsc::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("bstoreRpcCatchUp".into())
            .spawn(move || {
                let mut pacer = store.catch_up_pacer(pacing);
                if let Some(e) = pacer.watch_error() {
                    log::warn!("{e}; catching up at fixed intervals instead");
                }
                // Runs until told to stop (or the server is gone: the sender is dropped).
                while let Err(mpsc::TryRecvError::Empty) = rx.try_recv() {
                    if pacer.wait(STOP_CHECK)
                        && let Err(e) = store.catch_up()
                    {
                        log::warn!("secondary catch-up failed: {e}");
                    }
                }
            })
            .map_err(|source| RpcError::Io { source })?;
        Ok(Self {
            stop: Some(tx),
            thread: Some(thread),
        })
    }
}

impl Drop for CatchUpThread {
    fn drop(&mut self) {
        self.stop = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

async fn serve<E: KvEngine + 'static>(
    listener: std::net::TcpListener,
    app: Arc<App<E>>,
    config: RpcConfig,
    io: &IoThreads,
    stop_rx: oneshot::Receiver<()>,
) -> Result<(), RpcError> {
    let listener =
        tokio::net::TcpListener::from_std(listener).map_err(|source| RpcError::Io { source })?;
    let signals = config.signals;
    let shutdown = async move {
        match signals {
            Signals::Stop => {
                tokio::select! {
                    _ = stop_rx => {}
                    _ = stop_signal() => {}
                }
            }
            Signals::Ignore => {
                let _ = stop_rx.await;
            }
        }
    };
    conn::serve(listener, app, config.conn, io, shutdown).await;
    Ok(())
}
