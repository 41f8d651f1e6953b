//! `agave-interop`: Agave's own ledger crates (solana-ledger 4.2; 4.3 through interop/agave43,
//! feature `agave43`; 4.4 through interop/agave44, feature `agave44`) writing and reading
//! ledgers, so bstore's interop tests can check both directions against the real thing.
//! Every command prints one JSON object on stdout, a message type of
//! `bstore-interop-protocol` (the types bstore's readers parse); errors go to stderr with
//! exit code 1. See docs/interop-agave.md.

mod agave_api;
mod bench;
mod dump;
mod duplicate;
mod encode_bench;
mod error;
mod flags;
mod generate;
mod history;
mod insert;
mod insert_bench;
mod layout;
mod open;
mod purge;
mod raw;
mod root_bank;
mod rows;
mod select;
mod stream;
mod summary;
mod validator;

use std::path::PathBuf;
use std::process::ExitCode;

use bstore_interop_protocol::Message;
use clap::{Parser, Subcommand};

use crate::error::{Context, Result};
use crate::insert::Via;
use crate::open::Access;
use crate::select::{Select, SlotRange};

#[derive(Debug, Parser)]
#[command(name = "agave-interop", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Consecutive slots of ticks and signed transfers shredded by Agave's `Shredder`
    /// (Merkle data + code shreds) into a shred stream file.
    Gen {
        #[arg(long)]
        out: PathBuf,
        #[arg(long)]
        start_slot: u64,
        #[arg(long)]
        slots: u64,
        /// Rounded up to whole FEC sets of 32 data shreds (Agave's shredder makes no other).
        #[arg(long)]
        data_shreds_per_slot: usize,
        /// Seeds the leader key, the payers, the PoH start hash and (without
        /// `--version-seed`) the entries.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Draws the entries from this seed instead: another version of the same slots,
        /// signed by the same leader and PoH-chained from the same start hash.
        #[arg(long)]
        version_seed: Option<u64>,
        /// Chain each slot's first FEC set from its parent's last Merkle root (mainnet);
        /// without it, from the all-zero hash.
        #[arg(long)]
        chained: bool,
        #[arg(long, default_value_t = 1)]
        shred_version: u16,
        /// Also write each slot's entries as bincode `Vec<Entry>` to DIR/<slot>.bin.
        #[arg(long, value_name = "DIR")]
        entries_dir: Option<PathBuf>,
    },
    /// Inserts the selected shreds of stream files with Agave's `insert_shreds`
    /// (is_trusted = false, no leader schedule), or as a validator's window service does.
    Insert {
        #[arg(long)]
        ledger: PathBuf,
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// even / odd: shreds whose index within their kind (data index for data shreds,
        /// code index for code shreds) is even / odd.
        #[arg(long, value_enum, default_value_t = Select::All)]
        select: Select,
        /// Only shreds of these slots: A..B (B excluded) or A..=B.
        #[arg(long)]
        slots: Option<SlotRange>,
        /// insert-shreds: no recovery. window-service: `insert_shreds_handle_duplicate` with
        /// erasure recovery, duplicates stored as `window_service` stores them.
        #[arg(long, value_enum, default_value_t = Via::InsertShreds)]
        via: Via,
        /// Shreds per insert call.
        #[arg(long, default_value_t = 1024)]
        batch: usize,
        /// Keep the ledger open as the primary and wait this long after each insert call
        /// (a live writer for a follower to catch up with); each call is announced on stderr.
        #[arg(long, default_value_t = 0)]
        pause_ms: u64,
    },
    /// Everything Agave keeps for one slot, as JSON.
    Summary {
        #[arg(long)]
        ledger: PathBuf,
        #[arg(long)]
        slot: u64,
        #[arg(long, value_enum, default_value_t = Access::Primary)]
        access: Access,
        /// Writes the bincode `Vec<Entry>` Agave fetched for the slot to FILE.
        #[arg(long, value_name = "FILE")]
        entries_out: Option<PathBuf>,
    },
    /// Marks slots as roots with Agave's `set_roots`.
    SetRoot {
        #[arg(long)]
        ledger: PathBuf,
        #[arg(required = true)]
        slots: Vec<u64>,
    },
    /// Marks slots dead with Agave's `set_dead_slot`.
    SetDead {
        #[arg(long)]
        ledger: PathBuf,
        #[arg(required = true)]
        slots: Vec<u64>,
    },
    /// Times Agave's `get_slot_entries_with_shred_info(slot, 0, false)` per slot, or with
    /// --views (Agave 4.4 on) its replay's `get_slot_entry_views_with_shred_info`.
    FetchBench {
        #[arg(long)]
        ledger: PathBuf,
        /// A..B (B excluded) or A..=B.
        #[arg(long)]
        slots: SlotRange,
        #[arg(long, default_value_t = 5)]
        rounds: usize,
        #[arg(long, value_enum, default_value_t = Access::ReadOnly)]
        access: Access,
        /// Entry views (transactions as unsanitized views), as Agave 4.4's replay reads.
        #[arg(long)]
        views: bool,
    },
    /// Agave's shred insert (parse + `insert_shreds`, calls of --batch shreds) timed on a
    /// fresh ledger under --ledger-dir per round; twin of `bstore bench insert`.
    InsertBench {
        #[arg(long)]
        ledger_dir: PathBuf,
        #[arg(long, default_value_t = 5)]
        rounds: usize,
        #[arg(long, default_value_t = 1024)]
        batch: usize,
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Agave's getBlock work per block (get_rooted_block, then the json and base64
    /// encoders with meta), timed; twin of `bstore bench getblock`.
    EncodeBench {
        #[arg(long)]
        ledger: PathBuf,
        #[arg(long)]
        first_slot: u64,
        #[arg(long)]
        last_slot: u64,
        #[arg(long, default_value_t = 5)]
        rounds: usize,
        #[arg(long, value_enum, default_value_t = Access::ReadOnly)]
        access: Access,
    },
    /// Raw hex of the slot's rows in index, erasure_meta, merkle_root_meta and meta.
    DumpColumns {
        #[arg(long)]
        ledger: PathBuf,
        #[arg(long)]
        slot: u64,
    },
    /// Stores a duplicate-slot proof with Agave's `store_duplicate_slot`: PROOF is a shred
    /// stream file of two records, shred1 then shred2.
    StoreDuplicate {
        #[arg(long)]
        ledger: PathBuf,
        #[arg(long)]
        slot: u64,
        proof: PathBuf,
    },
    /// Reads a slot's proof with Agave's `has_duplicate_shreds_in_slot` /
    /// `get_duplicate_slot` and checks its two shreds with Agave's shred API.
    DuplicateProof {
        #[arg(long)]
        ledger: PathBuf,
        #[arg(long)]
        slot: u64,
        /// Checks both shreds' signatures against this leader (base58).
        #[arg(long)]
        leader: Option<solana_pubkey::Pubkey>,
        /// Writes the proof as a two-record shred stream file (shred1, shred2).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Per slot of a range: Agave's getters (meta, index, shreds, flags, replay rows) and
    /// the raw rows of every slot-keyed column family (count and sha256).
    SlotRows {
        #[arg(long)]
        ledger: PathBuf,
        /// A..B (B excluded) or A..=B.
        #[arg(long)]
        slots: SlotRange,
    },
    /// agave-ledger-tool's `purge START END` (inclusive): on 4.2 `purge_from_next_slots`, then
    /// an exact `purge_slots`; on 4.3 and 4.4 an exact `purge_slots_cleanup_chaining`.
    Purge {
        #[arg(long)]
        ledger: PathBuf,
        start: u64,
        end: u64,
    },
    /// Writes what replay and RPC keep per replayed slot: bank hash, optimistic slot, block
    /// time and height, rewards, a performance sample.
    SetReplayRows {
        #[arg(long)]
        ledger: PathBuf,
        #[arg(required = true)]
        slots: Vec<u64>,
    },
    /// Writes a new ledger with full transaction history (statuses, address index, memos,
    /// rewards, block times and heights) through Agave's Blockstore, and Agave's RPC
    /// answers over it to FILE (getBlock, getTransaction, getSignaturesForAddress,
    /// getSignatureStatuses). See docs/interop-agave-history.md.
    History {
        /// Must not hold a ledger yet.
        #[arg(long)]
        ledger: PathBuf,
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
        /// Seeds every key and hash (the slots and the kinds of transaction stay the same).
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// A one-node Agave cluster (solana-test-validator) writing its ledger to DIR: the mint
    /// keypair goes to DIR/payer.json, `ready <rpc url>` to stdout when it serves; stops on
    /// SIGTERM, SIGINT or when stdin closes. One at a time: it takes fixed port ranges.
    Validator {
        #[arg(long)]
        ledger: PathBuf,
        /// Its JSON-RPC port on 127.0.0.1 (pubsub takes the next one).
        #[arg(long)]
        rpc_port: u16,
        /// Alpenglow active from genesis.
        #[arg(long)]
        alpenglow: bool,
        /// Epochs of this many slots, no warmup (short epochs for epoch rewards).
        #[arg(long)]
        slots_per_epoch: Option<u64>,
        /// Restart the cluster whose ledger DIR already holds (made by this command): the
        /// validator loads its newest snapshot and replays the ledger from there, as a
        /// restarted node does. Genesis flags are then ignored.
        #[arg(long)]
        resume: bool,
    },
}

/// A message as printed: through serde_json's `Value`, so every object's keys come out
/// sorted, as the protocol's recorded lines have them.
fn emit<T: Message>(message: Result<T>) -> Result<serde_json::Value> {
    serde_json::to_value(message?).context("serialize the message")
}

fn run(command: Command) -> Result<serde_json::Value> {
    match command {
        Command::Gen {
            out,
            start_slot,
            slots,
            data_shreds_per_slot,
            seed,
            version_seed,
            chained,
            shred_version,
            entries_dir,
        } => emit(generate::run(&generate::GenArgs {
            out,
            start_slot,
            slots,
            data_shreds_per_slot,
            seed,
            version_seed,
            chained,
            shred_version,
            entries_dir,
        })),
        Command::Insert {
            ledger,
            files,
            select,
            slots,
            via,
            batch,
            pause_ms,
        } => emit(insert::run(&insert::InsertArgs {
            ledger,
            files,
            select,
            slots,
            via,
            batch: batch.max(1),
            pause: std::time::Duration::from_millis(pause_ms),
        })),
        Command::Summary {
            ledger,
            slot,
            access,
            entries_out,
        } => emit(summary::run(&summary::SummaryArgs {
            ledger,
            slot,
            access,
            entries_out,
        })),
        Command::SetRoot { ledger, slots } => emit(flags::set_roots(&ledger, &slots)),
        Command::SetDead { ledger, slots } => emit(flags::set_dead(&ledger, &slots)),
        Command::FetchBench {
            ledger,
            slots,
            rounds,
            access,
            views,
        } => emit(bench::run(&bench::BenchArgs {
            ledger,
            slots,
            rounds,
            access,
            views,
        })),
        Command::InsertBench {
            ledger_dir,
            rounds,
            batch,
            files,
        } => emit(insert_bench::run(&insert_bench::InsertBenchArgs {
            ledger_dir,
            rounds,
            batch,
            files,
        })),
        Command::EncodeBench {
            ledger,
            first_slot,
            last_slot,
            rounds,
            access,
        } => emit(encode_bench::run(&encode_bench::EncodeBenchArgs {
            ledger,
            first_slot,
            last_slot,
            rounds,
            access,
        })),
        Command::DumpColumns { ledger, slot } => emit(dump::run(&dump::DumpArgs { ledger, slot })),
        Command::StoreDuplicate {
            ledger,
            slot,
            proof,
        } => emit(duplicate::store(&duplicate::StoreArgs {
            ledger,
            slot,
            proof,
        })),
        Command::DuplicateProof {
            ledger,
            slot,
            leader,
            out,
        } => emit(duplicate::read(&duplicate::ReadArgs {
            ledger,
            slot,
            leader,
            out,
        })),
        Command::SlotRows { ledger, slots } => emit(rows::run(&rows::RowsArgs { ledger, slots })),
        Command::Purge { ledger, start, end } => emit(purge::purge(&ledger, start, end)),
        Command::SetReplayRows { ledger, slots } => emit(purge::set_replay_rows(&ledger, &slots)),
        Command::History { ledger, out, seed } => {
            emit(history::run(&history::HistoryArgs { ledger, out, seed }))
        }
        Command::Validator {
            ledger,
            rpc_port,
            alpenglow,
            slots_per_epoch,
            resume,
        } => emit(validator::run(&validator::ValidatorArgs {
            ledger,
            rpc_port,
            alpenglow,
            slots_per_epoch,
            resume,
        })),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(value) => {
            println!("{value}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("agave-interop: error: {e}");
            ExitCode::FAILURE
        }
    }
}
