//! bstore-metrics
