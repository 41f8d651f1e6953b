//! # bstore-testkit
//!
//! Harnesses for `bstore demo` and the benchmarks, kept out of the libraries a validator
//! links (`bstore-ledger`, `bstore-replay`, `bstore-rpc`):
//!
//! - [`pipeline`]: everything at work together: a paced inserter of generated slots,
//!   replay following it, the completed-data-sets service, and K full-slot reader threads.
//! - [`contention`]: the controls the pipeline's readers run under so they do not starve
//!   replay (a permit gate and a lower thread priority).
//! - [`fixtures`]: the repository's committed ledger fixtures, unpacked for tests and benches.
//! - [`floor`]: the fetch benchmarks' floor (the reads of a fetch and one copy, no checks).
//! - [`http`]: a keep-alive JSON-RPC client for the RPC benchmarks and load tools
//!   (`bstore bench rpc-load`), every size a server states bounded before it is read.
//!
//! Production admission is the RPC server's fetch workers (`bstore_rpc`), not these: see
//! `docs/admission.md` in the repository.

pub mod contention;
mod error;
pub mod fixtures;
pub mod floor;
pub mod http;
pub mod pipeline;

pub use error::TestkitError;
