//! The integration tests of bstore-formats, one binary: each module is one scenario on real
//! data from `../shared/testdata` or on generated inputs.

mod block_agave_vectors;
mod common;
mod entry_arbitrary_bytes;
mod entry_bincode_compat;
mod entry_length_bombs;
mod entry_malformed;
mod entry_real_batches;
mod entry_transactions;
mod entry_truncation;
mod entry_v1_agave;
mod entry_v1_malformed;
mod poh_real;
mod recovery_legacy;
mod recovery_legacy_positionless;
mod shred_agave_generated;
mod shred_firedancer_legacy;
mod shred_mainnet_headers;
mod shred_proptest;
mod shred_rejects;
mod shred_shredder_reproduces_testnet;
mod shred_testnet_merkle;
mod shred_v2_fec;
