//! A root bank for Agave 4.x's window-service recovery context.
//!
//! Agave 4.x hands `insert_shreds_handle_duplicate` a `ShredRecoveryContext`, which filters
//! the shreds it recovers with the root bank: shred version, slot range (root to root plus
//! half an epoch, at least 500 slots) and the shred-limit features. The tool has no cluster,
//! so the bank is bank 0 of Agave's own test genesis (one staked validator, every feature
//! but Alpenglow active at slot 0) with one epoch long enough (`SLOTS_PER_EPOCH`) that the
//! slot-range filter never drops a slot of the streams the tests insert (real mainnet slots
//! included). Shred features take effect an epoch after activation, so none applies here.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use solana_accounts_db::accounts_db::ACCOUNTS_DB_CONFIG_FOR_TESTING;
use solana_epoch_schedule::EpochSchedule;
use solana_pubkey::Pubkey;
use solana_runtime::bank::Bank;
use solana_runtime::genesis_utils::{
    bootstrap_validator_stake_lamports, create_genesis_config_with_leader,
};
use solana_runtime::runtime_config::RuntimeConfig;

/// One epoch, no warmup: the recovery filter's upper slot bound is half of it.
const SLOTS_PER_EPOCH: u64 = 1 << 40;

/// Bank 0 of a default genesis with `SLOTS_PER_EPOCH`, its accounts under `accounts_dir`.
pub fn bank(accounts_dir: &Path) -> Arc<Bank> {
    let mut genesis = create_genesis_config_with_leader(
        1_000_000_000,
        &Pubkey::new_unique(),
        bootstrap_validator_stake_lamports(),
    )
    .genesis_config;
    genesis.epoch_schedule = EpochSchedule::custom(SLOTS_PER_EPOCH, SLOTS_PER_EPOCH, false);
    Arc::new(Bank::new_from_genesis(
        &genesis,
        Arc::new(RuntimeConfig::default()),
        vec![accounts_dir.to_path_buf()],
        None,
        ACCOUNTS_DB_CONFIG_FOR_TESTING,
        None,
        None,
        Arc::new(AtomicBool::new(false)),
        None,
        None,
    ))
}
