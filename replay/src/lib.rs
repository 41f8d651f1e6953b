//! bstore-replay
