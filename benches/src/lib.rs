//! bstore-benches
