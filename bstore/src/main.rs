//! `bstore`: the command line over the bstore crates. Each subcommand lives in its own
//! module and only parses arguments, calls the library, and prints JSON or tables.
//!
//! Design notes, formats and their sources: `docs/README.md` in the repository.

mod bench_ledger;
mod cmd_archive;
mod cmd_bench;
mod cmd_bench_getblock;
mod cmd_bench_insert;
mod cmd_bench_rpc;
mod cmd_damage;
mod cmd_demo;
mod cmd_ledger;
mod cmd_metrics;
mod cmd_replay;
mod cmd_serve;
mod cmd_shreds;
mod cmd_soak;
mod cpu_check;
mod ledger_tool;
mod open_args;
mod purge;
mod replay_follow;
mod serve_archive;
mod stderr_log;
mod summary;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Owned entry decoding allocates per transaction; mimalloc makes that ~40% cheaper than
/// glibc's malloc (see BENCHMARKS.md, `fetch`). Validators run a fast allocator too. Built
/// with mimalloc's `override` feature (the workspace's Cargo.toml), it is also the process's
/// `malloc`, which RocksDB's C++ allocations use.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// bstore: the ledger fetch pipeline of a Solana-style validator.
#[derive(Debug, Parser)]
#[command(name = "bstore", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Work on shred stream files (`docs/formats-shreds.md#shred-stream-files`): inspect headers,
    /// deshred into entries.
    Shreds(cmd_shreds::ShredsArgs),
    /// The main job: insert a generated slot stream while replay, the data-sets service and
    /// RPC-like readers run; prints latencies and writes a chart.
    Demo(cmd_demo::DemoArgs),
    /// Replay the full or rooted slots of a ledger, verifying PoH; per-slot statistics.
    Replay(cmd_replay::ReplayArgs),
    /// A RocksDB ledger: ingest shred files, summarize a slot, generate a synthetic ledger,
    /// purge; agave-ledger-tool's read commands (bounds, roots, dead and duplicate slots,
    /// analyze), which never write.
    Ledger(cmd_ledger::LedgerArgs),
    /// Measurements that need a ledger: `bench fetch`.
    Bench(cmd_bench::BenchArgs),
    /// Serve the ledger's blocks over Solana-compatible JSON-RPC (getBlock and slot methods).
    Serve(Box<cmd_serve::ServeArgs>),
    /// Metrics tools: render per-slot charts from a line-protocol file or InfluxDB.
    Metrics(cmd_metrics::MetricsArgs),
    /// Upload rooted slots (blocks, history rows, a signature index) to S3-compatible
    /// object storage; `archive bench` measures it.
    Archive(Box<cmd_archive::ArchiveArgs>),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    stderr_log::init();
    if let Err(e) = cpu_check::check() {
        eprintln!("bstore: {e}");
        return ExitCode::FAILURE;
    }
    let result = match cli.command {
        Command::Shreds(args) => cmd_shreds::run(args),
        Command::Metrics(args) => cmd_metrics::run(args),
        Command::Ledger(args) => cmd_ledger::run(args),
        Command::Replay(args) => cmd_replay::run(args),
        Command::Demo(args) => cmd_demo::run(args),
        Command::Serve(args) => cmd_serve::run(*args),
        Command::Bench(args) => cmd_bench::run(args),
        Command::Archive(args) => cmd_archive::run(*args),
    };
    // Counts of log lines still held back by the per-site limit (stderr_log.rs).
    log::logger().flush();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bstore: {e}");
            ExitCode::FAILURE
        }
    }
}
