//! bstore-rpc
