//! Why bytes or a shred were refused, one family per file: the payloads of
//! [`LedgerError`](crate::LedgerError)'s variants that say which rule a well-formed input
//! broke. They sit below every other module of the crate (they name only wire-format
//! defects and domain numbers), so `error.rs` imports nothing from the store, the fetch
//! path or the history rows. Their public paths are the historical ones:
//! `fetch::DataDefect`, `store::InsertDefect`, `store::ParentInfoDefect`.

mod data;
mod insert;
mod parent_info;

pub use data::DataDefect;
pub use insert::InsertDefect;
pub use parent_info::ParentInfoDefect;
