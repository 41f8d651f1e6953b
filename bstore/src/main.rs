//! `bstore`: the command line over the bstore crates. Each subcommand lives in its own
//! module and only parses arguments, calls the library, and prints JSON or tables.

mod cmd_metrics;
mod cmd_shreds;
mod summary;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// bstore: the ledger fetch pipeline of a Solana-style validator.
#[derive(Debug, Parser)]
#[command(name = "bstore", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Work on shred stream files (SPEC 8): inspect headers, deshred into entries.
    Shreds(cmd_shreds::ShredsArgs),
    /// Metrics tools: render per-slot charts from a line-protocol file or InfluxDB.
    Metrics(cmd_metrics::MetricsArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Shreds(args) => cmd_shreds::run(args),
        Command::Metrics(args) => cmd_metrics::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bstore: {e}");
            ExitCode::FAILURE
        }
    }
}
