//! Shared by the `archive_cluster_*` scenarios. They run against the 3-node Garage cluster that
//! `scripts/archive-cluster.sh` starts, and fail — never skip — when it is not there.

#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

use bstore_archive::{Archive, ArchiveLocation, ArchiveReader, ReadLimits, S3Options};
use bstore_ledger::fetch::FetchBuffer;
use bstore_ledger::history::BlockRecord;
use bstore_ledger::store::{AccessMode, Blockstore};
use bstore_ledger::synth::{SlotGenerator, SlotSpec};
use bstore_ledger::{Hash, Slot};

/// A variable the cluster script sets; its absence fails the test.
pub(crate) fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| {
        panic!("{name} is not set: run the cluster tests with scripts/archive-cluster.sh")
    })
}

/// `s3://BUCKET/<test>-<time>`: a fresh prefix per scenario run.
pub(crate) fn fresh_url(test: &str) -> String {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_nanos();
    format!("s3://{}/{test}-{stamp}", env("BSTORE_ARCHIVE_BUCKET"))
}

/// Client options that give up quickly (a node outage must fail fast in a test).
pub(crate) fn quick_options() -> S3Options {
    S3Options {
        max_retries: 1,
        retry_timeout: Duration::from_secs(5),
        request_timeout: Duration::from_secs(10),
        ..S3Options::default()
    }
}

/// The flags matching `quick_options` for the CLI.
pub(crate) const QUICK_FLAGS: [&str; 6] = [
    "--max-retries",
    "1",
    "--retry-timeout-secs",
    "5",
    "--request-timeout-secs",
    "10",
];

pub(crate) fn archive(url: &str) -> Archive {
    env("AWS_ENDPOINT_URL");
    let location = ArchiveLocation::parse(url).expect("url");
    Archive::open_s3(&location, &quick_options(), ReadLimits::default()).expect("client")
}

pub(crate) fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime")
}

pub(crate) fn reader(rt: &tokio::runtime::Runtime, url: &str) -> ArchiveReader {
    rt.block_on(ArchiveReader::open(archive(url)))
        .expect("archive opens")
}

/// Stops (SIGKILL) or starts Garage node `n` through the cluster script.
pub(crate) fn node(action: &str, n: u32) {
    let ctl = env("BSTORE_GARAGE_CTL");
    let dir = env("BSTORE_GARAGE_DIR");
    let status = Command::new(&ctl)
        .args([action, &dir, &n.to_string()])
        .status()
        .expect("runs the cluster script");
    assert!(status.success(), "{ctl} {action} {dir} {n} failed");
}

/// Runs the bstore binary.
pub(crate) fn bstore(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_bstore"))
        .args(args)
        .output()
        .expect("runs bstore")
}

/// Runs the bstore binary and requires success; returns stdout.
pub(crate) fn bstore_ok(args: &[&str]) -> String {
    let out = bstore(args);
    assert!(
        out.status.success(),
        "bstore {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `bstore archive --format json` of `ledger` to `url` (plus `extra` flags), parsed.
pub(crate) fn archive_cli(ledger: &Path, url: &str, extra: &[&str]) -> serde_json::Value {
    let ledger = ledger.to_str().expect("utf-8");
    let mut args = vec![
        "archive", "--ledger", ledger, "--to", url, "--format", "json",
    ];
    args.extend_from_slice(&QUICK_FLAGS);
    args.extend_from_slice(extra);
    serde_json::from_str(&bstore_ok(&args)).expect("json summary")
}

/// A ledger at `dir` of rooted slots `1..=n` with a status per transaction, rewards, block
/// time and height; returns each slot's record as the ledger gives it.
pub(crate) fn make_ledger(dir: &Path, n: u64, shreds_per_slot: u32) -> Vec<BlockRecord> {
    let store = Blockstore::open(dir, AccessMode::ReadWrite).expect("opens");
    let mut generator = SlotGenerator::new(11, 1);
    let spec = SlotSpec {
        data_shreds: shreds_per_slot,
        ..SlotSpec::default()
    };
    let mut hash = Hash::default();
    for s in 1..=n {
        let g = generator
            .generate(Slot(s), Slot(s - 1), hash, spec)
            .expect("generates");
        store.insert_shreds(&g.data_shreds).expect("inserts");
        hash = g.blockhash;
        // Agave-encoded statuses, memos, address signatures and rewards.
        bstore_ledger::synth::history::write_history(&store, Slot(s), &g.entries).expect("history");
        store
            .set_block_time(Slot(s), 1_700_000_000 + s as i64)
            .expect("time");
        store.set_block_height(Slot(s), s).expect("height");
        store.set_roots([Slot(s)]).expect("root");
    }
    let mut buf = FetchBuffer::new();
    (1..=n)
        .map(|s| store.block_record(Slot(s), &mut buf).expect("record"))
        .collect()
}

/// The first signature of each transaction of `record`, with its index.
pub(crate) fn signatures(record: &BlockRecord) -> Vec<([u8; 64], u32)> {
    bstore_archive::first_signatures(record)
        .expect("entry sets parse")
        .into_iter()
        .zip(0u32..)
        .map(|(sig, index)| (sig.expect("signed"), index))
        .collect()
}

/// Every record reads back from the archive equal, and three signatures of each (first,
/// middle, last) resolve to it.
pub(crate) fn assert_archived(
    rt: &tokio::runtime::Runtime,
    reader: &ArchiveReader,
    records: &[BlockRecord],
) {
    for want in records {
        let got = rt
            .block_on(reader.block(want.slot))
            .unwrap_or_else(|e| panic!("slot {}: {e}", want.slot));
        assert_eq!(got.as_ref(), Some(want), "slot {}", want.slot);
        let sigs = signatures(want);
        let sample = [sigs.first(), sigs.get(sigs.len() / 2), sigs.last()];
        for &(sig, index) in sample.into_iter().flatten() {
            let (_, at) = rt
                .block_on(reader.transaction(&sig))
                .expect("lookup")
                .unwrap_or_else(|| panic!("a signature of slot {} is not found", want.slot));
            assert_eq!((at.slot, at.index), (want.slot, index));
        }
    }
}
