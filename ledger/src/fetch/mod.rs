//! Completed ranges and deshredding (SPEC 4).

mod defect;

pub use defect::DataDefect;
