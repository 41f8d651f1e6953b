//! The shred wire format (SPEC 3).

mod defect;

pub use defect::ShredDefect;
