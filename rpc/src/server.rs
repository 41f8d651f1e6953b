//! The HTTP server: axum on a Tokio runtime of its own (a fixed number of I/O threads),
//! `POST /` for JSON-RPC, `GET /health` as Agave serves it, graceful shutdown on request or
//! on SIGINT / SIGTERM, and the secondary catch-up loop when following a live writer.

use std::net::SocketAddr;
use std::sync::Arc;
use std::thread::JoinHandle;

use axum::Router;
use axum::body::Body;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use bstore_ledger::store::Blockstore;
use tokio::sync::oneshot;

use crate::error::RpcError;
use crate::jsonrpc::{error_response, handle_body};
use crate::limits::{CatchUp, Limits, RpcConfig, Signals};
use crate::methods::Ctx;
use crate::workers::FetchWorkers;

struct AppState {
    ctx: Ctx,
    limits: Limits,
}

fn json(status: StatusCode, body: String) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

async fn rpc(State(state): State<Arc<AppState>>, body: Body) -> Response {
    let max = state.limits.max_request_bytes;
    let Ok(bytes) = axum::body::to_bytes(body, max).await else {
        return json(
            StatusCode::PAYLOAD_TOO_LARGE,
            error_response(RpcError::BodyTooLarge { max }),
        );
    };
    match handle_body(&state.ctx, &bytes, state.limits.max_batch_len).await {
        Some(text) => json(StatusCode::OK, text),
        None => StatusCode::NO_CONTENT.into_response(),
    }
}

async fn health() -> &'static str {
    "ok"
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

/// A running server. Drop or [`RpcServer::stop`] shuts it down gracefully: in-flight
/// requests finish, then the fetch workers are joined.
#[derive(Debug)]
pub struct RpcServer {
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<Result<(), RpcError>>>,
}

impl RpcServer {
    /// Binds `config.addr` (errors are returned here, not later) and serves `store` from a
    /// background thread.
    pub fn start(store: Arc<Blockstore>, config: RpcConfig) -> Result<Self, RpcError> {
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
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(config.io_threads.max(1))
            .thread_name("bstoreRpcIo")
            .enable_all()
            .build()
            .map_err(|source| RpcError::Io { source })?;
        let workers = FetchWorkers::new(
            Arc::clone(&store),
            config.limits.max_concurrent_fetches,
            config.limits.max_queued_fetches,
        )?;
        let state = Arc::new(AppState {
            ctx: Ctx { store, workers },
            limits: config.limits,
        });
        let (stop_tx, stop_rx) = oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("bstoreRpcServer".into())
            .spawn(move || runtime.block_on(serve(listener, state, config, stop_rx)))
            .map_err(|source| RpcError::Io { source })?;
        log::info!("JSON-RPC listening on http://{addr}");
        Ok(Self {
            addr,
            stop: Some(stop_tx),
            thread: Some(thread),
        })
    }

    /// The bound address (the real port when `config.addr` had port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
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

async fn serve(
    listener: std::net::TcpListener,
    state: Arc<AppState>,
    config: RpcConfig,
    stop_rx: oneshot::Receiver<()>,
) -> Result<(), RpcError> {
    let listener =
        tokio::net::TcpListener::from_std(listener).map_err(|source| RpcError::Io { source })?;
    let catch_up = match config.catch_up {
        CatchUp::Never => None,
        CatchUp::Every(period) => {
            let store = Arc::clone(&state.ctx.store);
            Some(tokio::spawn(async move {
                let mut tick = tokio::time::interval(period);
                tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
                loop {
                    tick.tick().await;
                    let store = Arc::clone(&store);
                    match tokio::task::spawn_blocking(move || store.catch_up()).await {
                        Ok(Ok(())) => {}
                        Ok(Err(e)) => log::warn!("secondary catch-up failed: {e}"),
                        Err(e) => log::warn!("secondary catch-up task failed: {e}"),
                    }
                }
            }))
        }
    };
    let app = Router::new()
        .route("/", post(rpc))
        .route("/health", get(health))
        .with_state(state);
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
    let served = axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await
        .map_err(|source| RpcError::Io { source });
    if let Some(task) = catch_up {
        task.abort();
    }
    served
}
