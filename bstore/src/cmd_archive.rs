//! `bstore archive --ledger DIR --to s3://BUCKET/PREFIX`: uploads the ledger's rooted slots
//! that the archive lacks (blocks with their history rows, per-slot signature tables) and
//! seals the closed slot ranges' signature indexes (`docs/archive.md`). The ledger is opened
//! as a secondary or read-only and never written. `bstore archive bench` measures it.

mod bench;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use bstore_archive::{
    Archive, ArchiveError, ArchiveLocation, ArchiveOptions, ArchiveSummary, Layout, ReadLimits,
    RequestCounts, S3Options,
};
use bstore_ledger::Slot;
use clap::{Args, Subcommand, ValueEnum};
use serde_json::{Value, json};

use crate::ledger_tool::Access;

/// Arguments of `bstore archive`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub(crate) struct ArchiveArgs {
    #[command(subcommand)]
    command: Option<ArchiveCommand>,
    #[command(flatten)]
    upload: UploadArgs,
}

#[derive(Debug, Subcommand)]
enum ArchiveCommand {
    /// Archive throughput and block read latency from the archive beside the local ledger,
    /// in one run over a generated ledger.
    Bench(bench::BenchArgs),
}

/// Output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    Text,
    Json,
}

#[derive(Debug, Args)]
struct UploadArgs {
    /// Ledger directory (the database is DIR/rocksdb). Never modified.
    #[arg(long, value_name = "DIR", required = true)]
    ledger: Option<PathBuf>,
    /// How the ledger is opened.
    #[arg(long, value_enum, default_value_t = Access::Secondary)]
    access: Access,
    /// The archive: s3://BUCKET/PREFIX.
    #[arg(long, value_name = "URL", required = true)]
    to: Option<String>,
    /// First slot considered [default: the lowest root].
    #[arg(long)]
    start: Option<u64>,
    /// Last slot considered [default: the highest root].
    #[arg(long)]
    end: Option<u64>,
    /// Slots uploading at once.
    #[arg(long, default_value_t = 8)]
    concurrency: usize,
    /// Slots per sealed signature-index range, for a new archive (an existing one keeps its
    /// own).
    #[arg(long, default_value_t = bstore_archive::DEFAULT_RANGE_SLOTS)]
    range_slots: u64,
    #[command(flatten)]
    s3: S3Args,
    /// Output format (JSON: one object, field names are stable).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// The S3 client's flags; each falls back to its standard environment variable.
#[derive(Debug, Clone, Args)]
pub(crate) struct S3Args {
    /// S3 endpoint, e.g. http://127.0.0.1:3900 [env: AWS_ENDPOINT_URL].
    #[arg(long, value_name = "URL")]
    pub endpoint: Option<String>,
    /// Region the endpoint signs for [env: AWS_REGION].
    #[arg(long)]
    pub region: Option<String>,
    /// [env: AWS_ACCESS_KEY_ID]
    #[arg(long)]
    pub access_key_id: Option<String>,
    /// [env: AWS_SECRET_ACCESS_KEY]
    #[arg(long)]
    pub secret_access_key: Option<String>,
    /// Retries of one failed request.
    #[arg(long, default_value_t = 3)]
    pub max_retries: usize,
    /// Seconds after which a failing request is not retried any more.
    #[arg(long, default_value_t = 30)]
    pub retry_timeout_secs: u64,
    /// Seconds one request may take.
    #[arg(long, default_value_t = 60)]
    pub request_timeout_secs: u64,
}

impl S3Args {
    /// The client options these flags give.
    pub(crate) fn options(&self) -> S3Options {
        S3Options {
            endpoint: self.endpoint.clone(),
            region: self.region.clone(),
            access_key_id: self.access_key_id.clone(),
            secret_access_key: self.secret_access_key.clone(),
            max_retries: self.max_retries,
            retry_timeout: Duration::from_secs(self.retry_timeout_secs),
            request_timeout: Duration::from_secs(self.request_timeout_secs),
            ..S3Options::default()
        }
    }

    /// The archive at `url`.
    pub(crate) fn open(&self, url: &str) -> Result<Archive, ArchiveError> {
        let location = ArchiveLocation::parse(url)?;
        Archive::open_s3(&location, &self.options(), ReadLimits::default())
    }
}

/// A runtime for the S3 client (two workers: the uploads; the ledger reads run on the
/// calling thread).
pub(crate) fn runtime() -> Result<tokio::runtime::Runtime, Box<dyn std::error::Error>> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("archive-io")
        .enable_all()
        .build()?)
}

/// Runs `bstore archive`.
pub(crate) fn run(args: ArchiveArgs) -> Result<(), Box<dyn std::error::Error>> {
    match args.command {
        Some(ArchiveCommand::Bench(b)) => bench::run(b),
        None => upload(&args.upload),
    }
}

fn upload(args: &UploadArgs) -> Result<(), Box<dyn std::error::Error>> {
    let (Some(ledger), Some(to)) = (&args.ledger, &args.to) else {
        return Err("--ledger and --to are required".into());
    };
    let archive = args.s3.open(to)?;
    let read = crate::ledger_tool::open(ledger, args.access, Default::default())?;
    let opts = ArchiveOptions {
        first: args.start.map(Slot),
        last: args.end.map(Slot),
        concurrency: args.concurrency,
        new_layout: Layout::new(args.range_slots)?,
    };
    let tty = std::io::stderr().is_terminal();
    let mut last_line = std::time::Instant::now();
    let mut last_done = None;
    let mut progress = |p: &bstore_archive::Progress| {
        // A line per second at most, and the last one; on a terminal it rewrites itself.
        let due = last_line.elapsed() >= Duration::from_secs(1) || p.done == p.total;
        if due && last_done != Some(p.done) {
            last_line = std::time::Instant::now();
            last_done = Some(p.done);
            let line = format!(
                "archive: {}/{} slots, {} uploaded, {:.1} MB stored",
                p.done,
                p.total,
                p.uploaded,
                p.stored_bytes as f64 / 1e6
            );
            if tty {
                eprint!("\r{line}");
            } else {
                eprintln!("{line}");
            }
        }
    };
    let rt = runtime()?;
    let result = rt.block_on(bstore_archive::archive(
        &read.store,
        &archive,
        &opts,
        &mut progress,
    ));
    if tty {
        eprintln!();
    }
    let summary = result?;
    let out = summary_json(to, &summary);
    match args.format {
        Format::Json => println!("{out}"),
        Format::Text => print_text(&out),
    }
    Ok(())
}

/// The summary as JSON (stable field names).
pub(crate) fn summary_json(to: &str, s: &ArchiveSummary) -> Value {
    json!({
        "archive": to,
        "range_slots": s.layout.range_slots,
        "first_slot": s.first.map(|x| x.0),
        "last_slot": s.last.map(|x| x.0),
        "rooted_slots": s.rooted,
        "present": s.present,
        "uploaded": s.uploaded,
        "unavailable": s.unavailable,
        "unavailable_examples": s.unavailable_examples,
        "transactions": s.transactions,
        "raw_bytes": s.raw_bytes,
        "block_bytes": s.block_bytes,
        "sig_bytes": s.sig_bytes,
        "ranges_sealed": s.ranges_sealed,
        "index_bytes": s.index_bytes,
        "seals_deleted": s.seals_deleted,
        "requests": requests_json(&s.requests),
        "seconds": (s.seconds * 1000.0).round() / 1000.0,
        "slots_per_sec": rate(s.uploaded as f64, s.seconds),
        "mb_per_sec": rate(s.raw_bytes as f64 / 1e6, s.seconds),
    })
}

/// Request counts as JSON.
pub(crate) fn requests_json(r: &RequestCounts) -> Value {
    json!({
        "put": r.puts, "get": r.gets, "list": r.lists, "delete": r.deletes,
        "bytes_put": r.bytes_put, "bytes_got": r.bytes_got,
    })
}

fn rate(n: f64, seconds: f64) -> f64 {
    if seconds > 0.0 {
        (n / seconds * 100.0).round() / 100.0
    } else {
        0.0
    }
}

fn print_text(v: &Value) {
    if let Some(map) = v.as_object() {
        for (k, val) in map {
            println!("{k}: {val}");
        }
    }
}
