//! The HTTP server: [`App`]'s rules served by `conn.rs`'s bounded accept loop (on the
//! server thread's single-threaded runtime) over a fixed number of I/O threads
//! (`io_threads.rs`, one single-threaded runtime each, no blocking pool); JSON-RPC over
//! `POST` and `/health` as Agave serves them, graceful shutdown on request or on
//! SIGINT / SIGTERM, and the secondary catch-up thread when following a live writer.

use std::net::SocketAddr;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use bstore_ledger::store::{Blockstore, KvEngine};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::header::{self, HeaderMap, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use tokio::sync::oneshot;

use crate::error::RpcError;
use crate::methods::archive::BlockArchive;
use crate::methods::budget::{Budget, BudgetStats};
use crate::methods::workers::FetchWorkers;
use crate::methods::{AddressAnswers, BlockAnswers, Ctx, KeptAnswerCounts};
use crate::transport::catch_up::{CatchUpThread, ViewHealth};
use crate::transport::conn::{self, Handler};
use crate::transport::cors::{self, Cors, FORBIDDEN_TEXT};
use crate::transport::io_threads::IoThreads;
use crate::transport::jsonrpc::{Reply, handle_body};
use crate::transport::limits::{CatchUp, Limits, RpcConfig, Signals};
use crate::transport::reply_body::ReplyBody;

/// What every connection serves, and what its requests run with. Matched by hand as
/// Agave's RPC matches (a router's path matching, type-erased services and boxed bodies
/// cost more per request than the rules are worth; checked against a running 4.4.0
/// validator): `/health` by any method; on any other path a `POST` with a JSON content
/// type is JSON-RPC (415 without one), `OPTIONS` is answered with what is allowed, any
/// other method is 405; cross-origin requests as `cors.rs` says.
struct App<E: KvEngine + 'static> {
    ctx: Ctx<E>,
    limits: Limits,
    body_read_timeout: Duration,
}

// Constants, so that each header value is checked once, when compiled.
const JSON: HeaderValue = HeaderValue::from_static("application/json; charset=utf-8");
const TEXT: HeaderValue = HeaderValue::from_static("text/plain; charset=utf-8");

/// Agave's words for a method other than `POST` and `OPTIONS`.
const NOT_POST: &str = "Used HTTP Method is not allowed. POST or OPTIONS is required\n";
/// Agave's words for a body without a JSON content type.
const NOT_JSON: &str =
    "Supplied content type is not allowed. Content-Type: application/json is required\n";
/// Agave's words for a body over the size limit.
const TOO_LARGE: &str = "request body size exceeds allowed maximum";

/// Whether a body is to be read as JSON: Agave's RPC takes exactly these content types,
/// ASCII case aside (no other parameter, no other charset).
fn is_json(headers: &HeaderMap) -> bool {
    let Some(sent) = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    [
        "application/json",
        "application/json; charset=utf-8",
        "application/json;charset=utf-8",
    ]
    .iter()
    .any(|json| sent.eq_ignore_ascii_case(json))
}

/// A response of `status` with `body` (and its content type, if any).
fn respond(
    status: StatusCode,
    content_type: Option<HeaderValue>,
    body: ReplyBody,
) -> Response<ReplyBody> {
    let mut response = Response::new(body);
    *response.status_mut() = status;
    if let Some(content_type) = content_type {
        response
            .headers_mut()
            .insert(header::CONTENT_TYPE, content_type);
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
        content_type: Option<HeaderValue>,
        text: &'static str,
    ) -> Response<ReplyBody> {
        let chunks = vec![Bytes::from_static(text.as_bytes())];
        respond(
            status,
            content_type,
            ReplyBody::new(chunks, self.ctx.budget.empty()),
        )
    }

    /// `OPTIONS`: what a request may be, with an empty body.
    fn options(&self) -> Response<ReplyBody> {
        let mut response = self.text(StatusCode::OK, Some(JSON), "");
        let headers = response.headers_mut();
        headers.insert(header::ALLOW, HeaderValue::from_static("OPTIONS, POST"));
        headers.insert(header::ACCEPT, HeaderValue::from_static("application/json"));
        response
    }

    async fn route(&self, request: Request<Incoming>) -> Response<ReplyBody> {
        // Agave answers `/health` before anything else looks at the request (no CORS).
        if request.uri().path() == "/health" {
            let health = self.ctx.health.text(Instant::now());
            return self.text(StatusCode::OK, None, health);
        }
        let cors = cors::of(request.headers());
        let mut response = match (&cors, request.method().clone()) {
            (Cors::Forbidden, _) => self.text(StatusCode::FORBIDDEN, Some(TEXT), FORBIDDEN_TEXT),
            (_, Method::POST) if !is_json(request.headers()) => {
                self.text(StatusCode::UNSUPPORTED_MEDIA_TYPE, Some(TEXT), NOT_JSON)
            }
            (_, Method::POST) => self.rpc(request.into_body()).await,
            (_, Method::OPTIONS) => self.options(),
            _ => self.text(StatusCode::METHOD_NOT_ALLOWED, Some(TEXT), NOT_POST),
        };
        cors::add(&cors, response.headers_mut());
        response
    }

    async fn rpc(&self, body: Incoming) -> Response<ReplyBody> {
        let max = self.limits.max_request_bytes;
        let budget = &self.ctx.budget;
        // The whole body must arrive within the body read timeout (slow senders are cut
        // off; `Connection: close` because the rest of their body is never read).
        let read = tokio::time::timeout(self.body_read_timeout, Limited::new(body, max).collect());
        let bytes = match read.await {
            Ok(Ok(collected)) => collected.to_bytes(),
            // The rest of the body is not read: the connection closes after the answer.
            Ok(Err(e)) if e.is::<LengthLimitError>() => {
                return closing(self.text(StatusCode::PAYLOAD_TOO_LARGE, Some(TEXT), TOO_LARGE));
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
    health: Arc<ViewHealth>,
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
        health,
        address_answers: Arc::new(AddressAnswers::new(config.limits.address_answers_bytes)),
        block_answers: Arc::new(BlockAnswers::new(config.limits.block_answers_bytes)),
    })
}

/// A running server. Drop or [`RpcServer::stop`] shuts it down gracefully: in-flight
/// requests finish, then the fetch workers are joined.
#[derive(Debug)]
pub struct RpcServer {
    addr: SocketAddr,
    budget: Budget,
    address_answers: Arc<AddressAnswers>,
    block_answers: Arc<BlockAnswers>,
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
        let health = Arc::new(match config.catch_up {
            CatchUp::Paced(_) => ViewHealth::following(config.unhealthy_after),
            CatchUp::Never => ViewHealth::fixed(),
        });
        let ctx = methods_ctx(&store, &config, archive, Arc::clone(&health))?;
        let budget = ctx.budget.clone();
        let address_answers = Arc::clone(&ctx.address_answers);
        let block_answers = Arc::clone(&ctx.block_answers);
        let catch_up = CatchUpThread::start(Arc::clone(&store), config.catch_up, health)?;
        let app = Arc::new(App {
            ctx,
            limits: config.limits,
            body_read_timeout: config.conn.body_read_timeout,
        });
        let (stop_tx, stop_rx) = oneshot::channel::<()>();
        let answers_at_exit = (Arc::clone(&address_answers), Arc::clone(&block_answers));
        let thread = std::thread::Builder::new()
            .name("bstoreRpcServer".into())
            .spawn(move || {
                let served = runtime.block_on(serve(listener, app, config, &io, stop_rx));
                // Every connection has finished (`conn::serve` waited for them).
                io.join();
                drop(catch_up);
                let (address, block) = (answers_at_exit.0.counts(), answers_at_exit.1.counts());
                log::info!(
                    "getSignaturesForAddress without before / until: {} answered from kept \
                     answers, {} afresh; getBlock: {} from kept answers, {} afresh",
                    address.reused,
                    address.missed,
                    block.reused,
                    block.missed
                );
                served
            })
            .map_err(|source| RpcError::Io { source })?;
        log::info!("JSON-RPC listening on http://{addr}");
        Ok(Self {
            addr,
            budget,
            address_answers,
            block_answers,
            stop: Some(stop_tx),
            thread: Some(thread),
        })
    }

    /// The bound address (the real port when `config.addr` had port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// How often a `getSignaturesForAddress` was answered with a kept answer
    /// (`Limits::address_answers_bytes`).
    pub fn address_answer_counts(&self) -> KeptAnswerCounts {
        self.address_answers.counts()
    }

    /// How often a `getBlock` was answered with a kept answer, and how many were written
    /// afresh (`Limits::block_answers_bytes`; not counted when answers are not kept).
    pub fn block_answer_counts(&self) -> KeptAnswerCounts {
        self.block_answers.counts()
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
