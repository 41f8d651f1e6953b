//! The transport layer: everything between a socket and [`crate::methods::call`].
//!
//! - `server.rs`: [`RpcServer`](server::RpcServer), the HTTP rules (which request is
//!   JSON-RPC), the accept loop's thread, startup and graceful shutdown;
//! - `cors.rs`: cross-origin requests, answered as Agave answers them;
//! - `catch_up.rs`: the secondary's catch-up thread, and whether the view still follows
//!   the writer (`getHealth`, `/health`);
//! - `conn.rs` + `conn_refuse.rs`: the bounded accept loop and the answer a connection
//!   past the cap gets;
//! - `io_threads.rs`: the I/O threads, one single-threaded runtime each, that serve the
//!   accepted connections;
//! - `limits.rs`: every bound and its default ([`limits::RpcConfig`]);
//! - `jsonrpc.rs`: runs the calls of one body (single or batch) and assembles the
//!   response from their answers;
//! - `reply_body.rs`: the response body that holds its budget reservation until sent.
//!
//! The worker pools and the response budget the methods run under are built here
//! (`server.rs`) but live in [`crate::methods`], which uses them.

pub(crate) mod catch_up;
pub(crate) mod conn;
mod conn_refuse;
mod cors;
mod io_threads;
pub(crate) mod jsonrpc;
pub(crate) mod limits;
mod reply_body;
pub(crate) mod server;
