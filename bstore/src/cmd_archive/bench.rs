//! `bstore archive bench --to s3://BUCKET/PREFIX`: builds a temporary ledger of generated
//! rooted slots with history rows, archives it under a fresh `PREFIX/bench-<time>` and
//! measures, in the same run: archive throughput (slots/s, MB/s of block records), block read
//! latency from the archive beside the same block read from the local ledger (p50/p99), and
//! signature lookups (`transaction`) with their object reads.

use std::time::{Instant, SystemTime, UNIX_EPOCH};

use bstore_archive::{ArchiveOptions, ArchiveReader, Layout};
use bstore_ledger::fetch::FetchBuffer;
use bstore_ledger::store::columns::{Rewards, TransactionStatus};
use bstore_ledger::store::{AccessMode, Blockstore};
use bstore_ledger::synth::{SlotGenerator, SlotSpec};
use bstore_ledger::{Hash, Slot};
use clap::Args;
use serde_json::json;

use super::{Format, S3Args, runtime, summary_json};

/// Arguments of `bstore archive bench`.
#[derive(Debug, Args)]
pub(super) struct BenchArgs {
    /// Where to archive: a fresh `bench-<unix time>` folder is made under this prefix.
    #[arg(long, value_name = "URL")]
    to: String,
    /// Generated rooted slots.
    #[arg(long, default_value_t = 200)]
    slots: u64,
    /// About this many data shreds per slot (whole FEC sets of 32).
    #[arg(long, default_value_t = 256)]
    shreds_per_slot: u32,
    /// Bytes of the status value written per transaction (Agave's are protobuf, a few
    /// hundred bytes with logs).
    #[arg(long, default_value_t = 300)]
    status_bytes: usize,
    /// Slots per sealed index range.
    #[arg(long, default_value_t = 64)]
    range_slots: u64,
    /// Slots uploading at once.
    #[arg(long, default_value_t = 8)]
    concurrency: usize,
    /// Times each block is read from each source.
    #[arg(long, default_value_t = 3)]
    rounds: usize,
    #[command(flatten)]
    s3: S3Args,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// A status value of `len` bytes that compresses like logs do (repeated program lines with
/// varying numbers).
fn status_value(sig: &[u8; 64], len: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(len + 64);
    let mut i = 0u64;
    while v.len() < len {
        let line = format!(
            "Program {:02x}{:02x}{:02x} consumed {} of 200000 compute units\n",
            sig[(i % 60) as usize],
            sig[1],
            sig[2],
            u64::from(sig[3]) * 37 + i
        );
        v.extend_from_slice(line.as_bytes());
        i += 1;
    }
    v.truncate(len);
    v
}

fn build_ledger(store: &Blockstore, args: &BenchArgs) -> Result<(), Box<dyn std::error::Error>> {
    let mut generator = SlotGenerator::new(7, 1);
    let spec = SlotSpec {
        data_shreds: args.shreds_per_slot,
        ..SlotSpec::default()
    };
    let mut hash = Hash::default();
    for s in 1..=args.slots {
        let g = generator.generate(Slot(s), Slot(s - 1), hash, spec)?;
        store.insert_shreds(&g.data_shreds)?;
        hash = g.blockhash;
        let mut batch = store.row_batch()?;
        for tx in g.entries.iter().flat_map(|e| &e.transactions) {
            if let Some(sig) = tx.first_signature() {
                batch.put_bytes::<TransactionStatus>(
                    (*sig, Slot(s)),
                    &status_value(sig.as_bytes(), args.status_bytes),
                )?;
            }
        }
        batch.put_bytes::<Rewards>(Slot(s), &[0u8; 48])?;
        store.write_rows(batch)?;
        store.set_block_time(Slot(s), 1_700_000_000 + s as i64)?;
        store.set_block_height(Slot(s), s)?;
        store.set_roots([Slot(s)])?;
    }
    Ok(())
}

fn quantile(v: &mut [f64], q: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    let i = ((v.len() as f64 - 1.0) * q).round() as usize;
    (v.get(i).copied().unwrap_or(0.0) * 10.0).round() / 10.0
}

/// Runs the bench.
pub(super) fn run(args: BenchArgs) -> Result<(), Box<dyn std::error::Error>> {
    let stamp = SystemTime::now().duration_since(UNIX_EPOCH)?.as_secs();
    let to = format!("{}/bench-{stamp}", args.to.trim_end_matches('/'));
    let archive = args.s3.open(&to)?;
    let dir = tempfile::tempdir()?;
    let store = Blockstore::open(dir.path(), AccessMode::ReadWrite)?;
    eprintln!("archive bench: generating {} slots", args.slots);
    build_ledger(&store, &args)?;
    let rt = runtime()?;
    let opts = ArchiveOptions {
        concurrency: args.concurrency,
        new_layout: Layout::new(args.range_slots)?,
        ..ArchiveOptions::default()
    };
    eprintln!("archive bench: archiving to {to}");
    let summary = rt.block_on(bstore_archive::archive(
        &store,
        &archive,
        &opts,
        &mut |_| {},
    ))?;
    let reader = rt.block_on(ArchiveReader::open(archive.clone()))?;

    let (mut local_us, mut remote_us, mut lookup_us) = (Vec::new(), Vec::new(), Vec::new());
    let mut buf = FetchBuffer::new();
    let mut lookups = Vec::new();
    for _ in 0..args.rounds {
        for s in 1..=args.slots {
            let slot = Slot(s);
            let t = Instant::now();
            let local = store.block_record(slot, &mut buf)?;
            local_us.push(t.elapsed().as_secs_f64() * 1e6);
            let t = Instant::now();
            let remote = rt.block_on(reader.block(slot))?;
            remote_us.push(t.elapsed().as_secs_f64() * 1e6);
            if remote.as_ref() != Some(&local) {
                return Err(
                    format!("slot {slot}: the archive's block differs from the ledger's").into(),
                );
            }
            if lookups.len() < args.slots as usize {
                let sig = bstore_archive::first_signature(&local, 0)?;
                lookups.extend(sig);
            }
        }
    }
    // The catalog is refreshed first so that no lookup pays for a refresh.
    rt.block_on(reader.refresh())?;
    let gets_before = archive.counts().gets;
    let mut locate_us = Vec::new();
    for sig in &lookups {
        let t = Instant::now();
        let at = rt
            .block_on(reader.locate(sig))?
            .ok_or("a signature of an archived block was not found")?;
        locate_us.push(t.elapsed().as_secs_f64() * 1e6);
        std::hint::black_box(rt.block_on(reader.block(at.slot))?);
        lookup_us.push(t.elapsed().as_secs_f64() * 1e6);
    }
    let reads_per_lookup =
        (archive.counts().gets - gets_before) as f64 / lookups.len().max(1) as f64;
    let out = json!({
        "slots": args.slots,
        "shreds_per_slot": args.shreds_per_slot,
        "status_bytes": args.status_bytes,
        "rounds": args.rounds,
        "archive": summary_json(&to, &summary),
        "raw_bytes_per_slot": summary.raw_bytes / args.slots.max(1),
        "stored_bytes_per_slot": summary.block_bytes / args.slots.max(1),
        "local_block_p50_us": quantile(&mut local_us, 0.5),
        "local_block_p99_us": quantile(&mut local_us, 0.99),
        "archive_block_p50_us": quantile(&mut remote_us, 0.5),
        "archive_block_p99_us": quantile(&mut remote_us, 0.99),
        "lookups": lookups.len(),
        "lookup_p50_us": quantile(&mut lookup_us, 0.5),
        "lookup_p99_us": quantile(&mut lookup_us, 0.99),
        "locate_p50_us": quantile(&mut locate_us, 0.5),
        "locate_p99_us": quantile(&mut locate_us, 0.99),
        "reads_per_lookup": (reads_per_lookup * 100.0).round() / 100.0,
    });
    match args.format {
        Format::Json => println!("{out}"),
        Format::Text => println!("{}", serde_json::to_string_pretty(&out)?),
    }
    Ok(())
}
