//! `agave-interop`: Agave's own ledger crates (solana-ledger 3.1) writing and reading
//! ledgers, so bstore's interop tests can check both directions against the real thing.
//! Every command prints one JSON object on stdout; errors go to stderr with exit code 1.
//! See docs/interop-agave.md.

mod bench;
mod dump;
mod error;
mod flags;
mod generate;
mod insert;
mod layout;
mod open;
mod raw;
mod select;
mod stream;
mod summary;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::error::Result;
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
        #[arg(long, default_value_t = 0)]
        seed: u64,
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
    /// (is_trusted = false, no leader schedule).
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
    /// Times Agave's `get_slot_entries_with_shred_info(slot, 0, false)` per slot.
    FetchBench {
        #[arg(long)]
        ledger: PathBuf,
        /// A..B (B excluded) or A..=B.
        #[arg(long)]
        slots: SlotRange,
        #[arg(long, default_value_t = 5)]
        rounds: usize,
        #[arg(long, value_enum, default_value_t = Access::Secondary)]
        access: Access,
    },
    /// Raw hex of the slot's rows in index, erasure_meta, merkle_root_meta and meta.
    DumpColumns {
        #[arg(long)]
        ledger: PathBuf,
        #[arg(long)]
        slot: u64,
    },
}

fn run(command: Command) -> Result<serde_json::Value> {
    match command {
        Command::Gen {
            out,
            start_slot,
            slots,
            data_shreds_per_slot,
            seed,
            chained,
            shred_version,
            entries_dir,
        } => generate::run(&generate::GenArgs {
            out,
            start_slot,
            slots,
            data_shreds_per_slot,
            seed,
            chained,
            shred_version,
            entries_dir,
        }),
        Command::Insert {
            ledger,
            files,
            select,
            slots,
        } => insert::run(&insert::InsertArgs {
            ledger,
            files,
            select,
            slots,
        }),
        Command::Summary {
            ledger,
            slot,
            access,
            entries_out,
        } => summary::run(&summary::SummaryArgs {
            ledger,
            slot,
            access,
            entries_out,
        }),
        Command::SetRoot { ledger, slots } => flags::set_roots(&ledger, &slots),
        Command::SetDead { ledger, slots } => flags::set_dead(&ledger, &slots),
        Command::FetchBench {
            ledger,
            slots,
            rounds,
            access,
        } => bench::run(&bench::BenchArgs {
            ledger,
            slots,
            rounds,
            access,
        }),
        Command::DumpColumns { ledger, slot } => dump::run(&dump::DumpArgs { ledger, slot }),
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
