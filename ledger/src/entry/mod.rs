//! Entries and transactions (SPEC 5).

mod defect;

pub use defect::{EntryDefect, PohDefect};
