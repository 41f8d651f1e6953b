//! `validator`: a one-node Agave cluster (solana-test-validator's `TestValidatorGenesis`)
//! writing its ledger to `--ledger`, for live comparisons of bstore with Agave's own RPC.
//!
//! The mint keypair is written to `DIR/payer.json` (the Solana CLI's format: a JSON array
//! of the 64 secret-key bytes) before the cluster starts; `ready <rpc url>` goes to stdout
//! once the first slot is made and the RPC serves. The validator stops cleanly on SIGTERM,
//! SIGINT or when stdin closes, then the command prints its JSON summary and exits.

use std::io::Read;
use std::net::{IpAddr, Ipv4Addr};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bstore_interop_protocol::ValidatorRun;
use serde_json::json;
use solana_core::consensus::tower_storage::FileTowerStorage;
use solana_epoch_schedule::EpochSchedule;
use solana_keypair::Keypair;
use solana_net_utils::SocketAddrSpace;
use solana_rpc::rpc::JsonRpcConfig;
use solana_signer::Signer;
use solana_test_validator::TestValidatorGenesis;

use crate::error::{Context, Error, Result};

/// How often the stop flags are looked at.
const POLL: Duration = Duration::from_millis(50);

#[derive(Debug)]
pub struct ValidatorArgs {
    pub ledger: PathBuf,
    pub rpc_port: u16,
    pub alpenglow: bool,
    /// Epoch length without warmup (`None`: Agave's default schedule).
    pub slots_per_epoch: Option<u64>,
    /// Restart the cluster already in `ledger` instead of making a new one.
    pub resume: bool,
}

pub fn run(args: &ValidatorArgs) -> Result<ValidatorRun> {
    let payer_path = args.ledger.join("payer.json");
    let exists = args.ledger.join("rocksdb").exists();
    let mint = match (exists, args.resume) {
        (true, false) => {
            return Err(Error::new(format!(
                "{} already holds a ledger: the validator makes a new cluster (--resume restarts it)",
                args.ledger.display()
            )));
        }
        (false, true) => {
            return Err(Error::new(format!(
                "{} holds no ledger to resume",
                args.ledger.display()
            )));
        }
        // The ledger's genesis names the mint; its keypair is the one written at creation.
        (true, true) => read_payer(&payer_path)?,
        (false, false) => {
            std::fs::create_dir_all(&args.ledger).context(args.ledger.display())?;
            let mint = Keypair::new();
            let secret: Vec<u8> = mint.to_bytes().to_vec();
            std::fs::write(&payer_path, json!(secret).to_string()).context(payer_path.display())?;
            mint
        }
    };

    let stop = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
        signal_hook::flag::register(signal, Arc::clone(&stop)).context("signal handler")?;
    }
    watch_stdin(Arc::clone(&stop));

    if std::env::var_os("RUST_LOG").is_some() {
        agave_logger::setup_with_default("solana=info");
    }
    let mut genesis = TestValidatorGenesis::default();
    genesis
        .ledger_path(&args.ledger)
        .tower_storage(Arc::new(FileTowerStorage::new(args.ledger.clone())))
        .rpc_port(args.rpc_port)
        .bind_ip_addr(IpAddr::V4(Ipv4Addr::LOCALHOST))
        .rpc_config(JsonRpcConfig {
            enable_rpc_transaction_history: true,
            enable_extended_tx_metadata_storage: true,
            full_api: true,
            disable_health_check: true,
            ..JsonRpcConfig::default()
        });
    if let Some(slots) = args.slots_per_epoch {
        genesis.epoch_schedule(EpochSchedule::custom(slots, slots, false));
    }
    if args.alpenglow {
        genesis.activate_alpenglow();
    }
    let started = Instant::now();
    let validator = genesis
        .start_with_mint_address(mint.pubkey(), SocketAddrSpace::new(true))
        .map_err(|e| Error::new(format!("Agave test validator did not start: {e}")))?;
    let rpc_url = validator.rpc_url();
    println!("ready {rpc_url}");
    let ready_ms = started.elapsed().as_millis();
    while !stop.load(Ordering::Relaxed) {
        std::thread::sleep(POLL);
    }
    let ran = started.elapsed();
    // Dropping the validator exits its services and closes the ledger.
    drop(validator);
    Ok(ValidatorRun {
        rpc_url,
        mint: mint.pubkey().to_string(),
        payer: payer_path.display().to_string(),
        alpenglow: args.alpenglow,
        resumed: args.resume,
        ready_ms: u64::try_from(ready_ms).unwrap_or(u64::MAX),
        ran_ms: u64::try_from(ran.as_millis()).unwrap_or(u64::MAX),
    })
}

/// The mint keypair `run` wrote to `path` (the Solana CLI's JSON array of 64 bytes).
fn read_payer(path: &std::path::Path) -> Result<Keypair> {
    let text = std::fs::read_to_string(path).context(path.display())?;
    let bytes: Vec<u8> = serde_json::from_str(&text).context(path.display())?;
    Keypair::try_from(bytes.as_slice())
        .map_err(|e| Error::new(format!("{}: not a keypair: {e}", path.display())))
}

/// Sets `stop` when stdin reaches its end (the parent closed it or exited).
fn watch_stdin(stop: Arc<AtomicBool>) {
    std::thread::spawn(move || {
        let mut sink = [0u8; 256];
        let mut stdin = std::io::stdin();
        while let Ok(n) = stdin.read(&mut sink) {
            if n == 0 {
                break;
            }
        }
        stop.store(true, Ordering::Relaxed);
    });
}
