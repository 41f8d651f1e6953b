//! `bstore shreds inspect|deshred FILE...`.

use std::io::Write;
use std::ops::Range;
use std::path::PathBuf;

use bstore_ledger::block::{DataSet, parse_data_set};
use bstore_ledger::entry::{EntriesView, HashLimits, verify_poh_with_limits};
use bstore_ledger::fetch::group_by_slot;
use bstore_ledger::shred::ShredRef;
use bstore_ledger::stream::StreamReader;
use bstore_ledger::{Hash, LedgerError};
use clap::{Args, Subcommand};
use serde_json::{Value, json};

use crate::summary::{SlotFacts, SummaryOptions, summarize};

/// Arguments of `bstore shreds`.
#[derive(Debug, Args)]
pub(crate) struct ShredsArgs {
    #[command(subcommand)]
    command: ShredsCommand,
}

#[derive(Debug, Subcommand)]
enum ShredsCommand {
    /// Print one JSON line per shred record: header fields, or an error and the record number.
    Inspect {
        /// Shred stream files (u64 LE length + packet bytes, repeated).
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Group the data shreds by slot, deshred the complete data sets and print one JSON line
    /// per slot.
    Deshred {
        /// Shred stream files (u64 LE length + packet bytes, repeated).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Verify the PoH chain of each slot from this start hash (the parent's blockhash,
        /// base58); adds "poh": "ok" or the first failing entry.
        #[arg(long, value_name = "START_HASH")]
        verify_poh: Option<Hash>,
        /// Add "first_signatures": the first signature of every transaction, in order.
        #[arg(long)]
        signatures: bool,
        #[command(flatten)]
        limits: HashLimitArgs,
    },
}

/// The PoH work bounds of `--verify-poh` and `bstore replay`: an entry or slot asking for
/// more hashes is refused before any hashing.
#[derive(Debug, Clone, Copy, Args)]
pub(crate) struct HashLimitArgs {
    /// Most hashes from one tick to the next (and in any one entry) when hashes per tick
    /// are not known [default: 500000, 8 × mainnet's 62500].
    #[arg(long, value_name = "N")]
    pub max_hashes_per_tick: Option<u64>,
    /// Most hashes in a slot when hashes per tick are not known [default: 32000000, 8 ×
    /// mainnet's 64 × 62500].
    #[arg(long, value_name = "N")]
    pub max_slot_hashes: Option<u64>,
}

impl HashLimitArgs {
    /// The limits asked for, defaults where not given.
    pub(crate) fn limits(&self) -> HashLimits {
        let defaults = HashLimits::default();
        HashLimits {
            max_hashes_per_tick: self
                .max_hashes_per_tick
                .unwrap_or(defaults.max_hashes_per_tick),
            max_slot_hashes: self.max_slot_hashes.unwrap_or(defaults.max_slot_hashes),
        }
    }
}

/// Runs `bstore shreds`.
pub(crate) fn run(args: ShredsArgs) -> Result<(), Box<dyn std::error::Error>> {
    match args.command {
        ShredsCommand::Inspect { files } => inspect(&files),
        ShredsCommand::Deshred {
            files,
            verify_poh,
            signatures,
            limits,
        } => {
            // PoH is verified here, under the limits, not by `summarize`.
            let opts = SummaryOptions {
                verify_poh: None,
                signatures,
                ..SummaryOptions::default()
            };
            let poh = verify_poh.map(|start| (start, limits.limits()));
            deshred(&files, &opts, poh.as_ref())
        }
    }
}

fn print_line(out: &mut impl Write, value: &Value) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    out.write_all(b"\n")
}

fn inspect(files: &[PathBuf]) -> Result<(), Box<dyn std::error::Error>> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for file in files {
        for (record, packet) in StreamReader::open(file)?.enumerate() {
            let line = match packet {
                // A framing error ends the file: the record boundaries are lost.
                Err(e) => json!({ "file": file, "record": record, "error": e.to_string() }),
                Ok(packet) => match ShredRef::parse(&packet) {
                    Ok(shred) => shred_json(file, record, &shred, packet.len()),
                    Err(e) => json!({ "file": file, "record": record, "error": e.to_string() }),
                },
            };
            print_line(&mut out, &line)?;
        }
    }
    out.flush()?;
    Ok(())
}

fn shred_json(file: &std::path::Path, record: usize, s: &ShredRef<'_>, packet_len: usize) -> Value {
    let variant = s.variant();
    json!({
        "file": file,
        "record": record,
        "slot": s.slot().0,
        "index": s.index().0,
        "variant": variant.name(),
        "variant_byte": format!("{:#04x}", variant.to_byte()),
        "kind": if s.is_data() { "data" } else { "code" },
        "fec_set_index": s.fec_set_index(),
        "version": s.version(),
        "parent_slot": s.parent_slot().map(|p| p.0),
        "flags": s.flags(),
        "data_complete": s.data_complete(),
        "last_in_slot": s.last_in_slot(),
        "reference_tick": s.reference_tick(),
        "size": s.size(),
        "data_len": s.data().len(),
        "payload_len": s.payload().len(),
        "packet_len": packet_len,
        "proof_size": s.proof_size(),
        "num_data": s.num_data(),
        "num_code": s.num_code(),
        "position": s.position(),
    })
}

fn deshred(
    files: &[PathBuf],
    opts: &SummaryOptions,
    poh: Option<&(Hash, HashLimits)>,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut packets = Vec::new();
    let mut invalid = 0u64;
    for file in files {
        for packet in StreamReader::open(file)? {
            packets.push(packet?);
        }
    }
    let parsed: Vec<ShredRef<'_>> = packets
        .iter()
        .filter_map(|p| match ShredRef::parse(p) {
            Ok(s) => Some(s),
            Err(e) => {
                invalid += 1;
                eprintln!("bstore: skipping shred: {e}");
                None
            }
        })
        .collect();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for (slot, shreds) in group_by_slot(parsed) {
        let sets = shreds.data_sets();
        let mut buffers = Vec::with_capacity(sets.len());
        let mut error: Option<LedgerError> = None;
        for range in &sets {
            match shreds.deshred(range) {
                Ok(bytes) => buffers.push((range.clone(), bytes)),
                Err(e) => {
                    error = Some(e);
                    break;
                }
            }
        }
        let facts = SlotFacts {
            slot,
            parent_slot: shreds.parent_slot(),
            data_shreds: shreds.len() as u64,
            last_index: shreds.last_index().map(u64::from),
            full: shreds.is_full(),
        };
        let line = match error {
            Some(e) => summary_error(&facts, &sets, &e),
            None => match parse_views(&buffers) {
                Ok(views) => {
                    let sets: Vec<_> = views.iter().map(|(r, v)| (r.clone(), v)).collect();
                    let mut line = summarize(&facts, &sets, opts);
                    if let Some((start, limits)) = poh {
                        line["poh"] = poh_verdict(start, limits, &views);
                    }
                    line
                }
                Err(message) => {
                    let mut v = facts.to_json(&sets);
                    v["error"] = json!(message);
                    v
                }
            },
        };
        print_line(&mut out, &line)?;
    }
    if invalid > 0 {
        eprintln!("bstore: {invalid} invalid shred record(s) skipped");
    }
    out.flush()?;
    Ok(())
}

/// Parses every deshredded set as zero-copy views, as Agave 4.x reads data sets (a block
/// marker counts as no entries; `docs/block-components.md`); the first that does not
/// decode is named.
fn parse_views(
    buffers: &[(Range<u32>, Vec<u8>)],
) -> Result<Vec<(Range<u32>, EntriesView<'_>)>, String> {
    buffers
        .iter()
        .map(|(range, bytes)| {
            let view = match parse_data_set(bytes) {
                Ok(DataSet::Entries(view)) => view,
                Ok(DataSet::Marker(_)) => EntriesView::empty(),
                Err(e) => return Err(format!("data set {}..{}: {e}", range.start, range.end)),
            };
            Ok((range.clone(), view))
        })
        .collect()
}

/// The `poh` field: "ok", why the chain fails (the first bad entry, or the hash limit an
/// entry crosses, found before hashing it), or why it was not verified.
fn poh_verdict(
    start: &Hash,
    limits: &HashLimits,
    views: &[(Range<u32>, EntriesView<'_>)],
) -> Value {
    let contiguous = views.first().is_some_and(|(r, _)| r.start == 0)
        && views.windows(2).all(|w| w[0].0.end == w[1].0.start);
    if !contiguous {
        return json!("not verified: the complete data sets do not run contiguously from shred 0");
    }
    match verify_poh_with_limits(start, views.iter().flat_map(|(_, v)| v.iter()), limits) {
        Ok(_) => json!("ok"),
        Err(e) => json!(e.to_string()),
    }
}

fn summary_error(facts: &SlotFacts, sets: &[Range<u32>], e: &LedgerError) -> Value {
    let mut v = facts.to_json(sets);
    v["error"] = json!(e.to_string());
    v
}
