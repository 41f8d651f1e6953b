//! The protocol against what the tool really printed: lines recorded from `agave-interop`
//! (Agave 4.2.2) and the committed history answers file.

mod drift;
mod recorded;
