//! Interop with Agave: ledgers written by Agave's own crates (solana-ledger 4.2,
//! driven through the `agave-interop` tool of `interop/agave`) are read by bstore, and
//! ledgers bstore writes are read by Agave. Entries are compared byte for byte (the bincode
//! `Vec<Entry>` each side fetched), never only by count. The scenarios on Agave-made
//! shreds (two versions of a slot and their duplicate proofs, erasure recovery, purging) are
//! modules of this target, one file each under `interop_agave/`.
//!
//! Every test needs the tool: `scripts/interop-agave.sh` builds it and runs these tests with
//! `BSTORE_AGAVE_TOOL` set. Without it each test fails; it never passes vacuously. The
//! tool's messages are read as the types of `bstore-interop-protocol`, which the tool
//! prints: a message that drifted fails to parse, naming the field.

#[path = "it/common/mod.rs"]
mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use bstore_interop_protocol::{
    ColumnDump, Generated as GenInfo, GeneratedSlot, IndexFormat, Inserted, MarkedDead, Message,
    Rooted, Summary,
};
use bstore_ledger::Slot;
use bstore_ledger::entry::encode_entries;
use bstore_ledger::fetch::{AllowDead, EntryFetch};
use bstore_ledger::shred::ShredRef;
use bstore_ledger::store::{AccessMode, Blockstore};
use bstore_ledger::stream::{read_stream_file, write_record};
use common::{bstore, expected, json_lines, testdata};
use serde_json::{Value, json};

/// The tool, or a failing test: an unset or unusable `BSTORE_AGAVE_TOOL` must never turn a
/// test into a pass.
fn tool() -> PathBuf {
    let Some(path) = std::env::var_os("BSTORE_AGAVE_TOOL") else {
        panic!("BSTORE_AGAVE_TOOL is not set: run scripts/interop-agave.sh");
    };
    let path = PathBuf::from(path);
    let meta = std::fs::metadata(&path)
        .unwrap_or_else(|e| panic!("BSTORE_AGAVE_TOOL={}: {e}", path.display()));
    assert!(
        meta.is_file() && meta.permissions().mode() & 0o111 != 0,
        "BSTORE_AGAVE_TOOL={} is not an executable file",
        path.display()
    );
    path
}

/// Runs `agave-interop ARGS`, asserts success, and parses its one message as `T`.
fn agave<T: Message>(args: &[&str]) -> T {
    let out = Command::new(tool())
        .args(args)
        .output()
        .expect("runs agave-interop");
    assert!(
        out.status.success(),
        "agave-interop {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "agave-interop {args:?} printed no {}: {e}\n{}",
            std::any::type_name::<T>(),
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

fn s(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

/// A stream of Agave-shredded slots and the generator's account of it.
struct Generated {
    stream: PathBuf,
    entries_dir: PathBuf,
    info: GenInfo,
}

impl Generated {
    fn new(dir: &Path, start: u64, slots: u64, data_per_slot: u64, seed: u64) -> Self {
        Self::make(dir, "agave", start, slots, data_per_slot, seed, None)
    }

    /// Version `version` of the slots of `seed`: the same leader, payers and PoH start hash,
    /// other entries (`gen --version-seed`), so two versions are a leader's equivocation.
    fn version(
        dir: &Path,
        start: u64,
        slots: u64,
        data_per_slot: u64,
        seed: u64,
        version: u64,
    ) -> Self {
        let name = format!("version-{version}");
        Self::make(dir, &name, start, slots, data_per_slot, seed, Some(version))
    }

    fn make(
        dir: &Path,
        name: &str,
        start: u64,
        slots: u64,
        data_per_slot: u64,
        seed: u64,
        version: Option<u64>,
    ) -> Self {
        let stream = dir.join(format!("{name}.bin"));
        let entries_dir = dir.join(format!("{name}-entries"));
        let (start, slots, data, seed) = (
            start.to_string(),
            slots.to_string(),
            data_per_slot.to_string(),
            seed.to_string(),
        );
        let mut args = vec![
            "gen",
            "--out",
            s(&stream),
            "--start-slot",
            &start,
            "--slots",
            &slots,
            "--data-shreds-per-slot",
            &data,
            "--seed",
            &seed,
            "--chained",
            "--entries-dir",
            s(&entries_dir),
        ];
        let version = version.map(|v| v.to_string());
        if let Some(v) = &version {
            args.extend(["--version-seed", v]);
        }
        let info = agave(&args);
        Self {
            stream,
            entries_dir,
            info,
        }
    }

    fn leader(&self) -> &str {
        &self.info.leader
    }

    fn slots(&self) -> &[GeneratedSlot] {
        &self.info.slots
    }

    fn slot_numbers(&self) -> Vec<u64> {
        self.slots().iter().map(|s| s.slot).collect()
    }

    /// The bincode `Vec<Entry>` the generator shredded into `slot`.
    fn entries(&self, slot: u64) -> Vec<u8> {
        std::fs::read(self.entries_dir.join(format!("{slot}.bin"))).expect("generated entries")
    }
}

fn u(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a u64: {v}"))
}

/// What bstore's own library sees of one slot.
#[derive(Debug)]
struct BstoreSlot {
    /// bincode `Vec<Entry>` of the completed data sets (`encode_entries`).
    entries: Vec<u8>,
    num_shreds: u64,
    fetch_full: bool,
    consumed: u64,
    received: u64,
    last_index: Option<u64>,
    parent_slot: Option<u64>,
    dead: bool,
    root: bool,
}

fn bstore_read(ledger: &Path, slot: u64) -> BstoreSlot {
    let store = Blockstore::open(ledger, AccessMode::ReadOnly).expect("bstore opens the ledger");
    let meta = store
        .meta(Slot(slot))
        .expect("bstore reads the meta")
        .unwrap_or_else(|| panic!("bstore sees no meta for slot {slot}"));
    let fetched = store
        .get_slot_entries_with_shred_info(Slot(slot), 0, AllowDead::Yes)
        .unwrap_or_else(|e| panic!("bstore fetch of slot {slot}: {e}"));
    BstoreSlot {
        entries: encode_entries(&fetched.entries),
        num_shreds: fetched.num_shreds,
        fetch_full: fetched.is_full,
        consumed: meta.consumed,
        received: meta.received,
        last_index: meta.last_index,
        parent_slot: meta.parent_slot.map(|p| p.0),
        dead: store.is_dead(Slot(slot)).expect("dead flag"),
        root: store.is_root(Slot(slot)).expect("root flag"),
    }
}

/// Agave's `summary` of one slot and the bincode entries Agave fetched.
fn agave_read(ledger: &Path, slot: u64) -> (Summary, Vec<u8>) {
    let out = ledger.with_extension(format!("agave-entries-{slot}.bin"));
    let summary: Summary = agave(&[
        "summary",
        "--ledger",
        s(ledger),
        "--slot",
        &slot.to_string(),
        "--entries-out",
        s(&out),
    ]);
    let bytes = std::fs::read(&out)
        .unwrap_or_else(|e| panic!("Agave fetched no entries for slot {slot} ({e}): {summary:?}"));
    (summary, bytes)
}

fn bstore_ingest(ledger: &Path, files: &[&Path], leader: Option<&str>) -> Value {
    let mut args = vec!["ledger", "ingest", "--ledger", s(ledger)];
    if let Some(leader) = leader {
        args.extend(["--leader", leader]);
    }
    args.extend(files.iter().map(|f| s(f)));
    json_lines(&bstore(&args)).remove(0)
}

fn agave_insert(ledger: &Path, file: &Path, select: &str) -> Inserted {
    agave(&["insert", "--ledger", s(ledger), "--select", select, s(file)])
}

/// Writes the records of `src` that `keep(is_data, slot, index)` selects to `dst`; returns
/// how many were kept.
fn filtered_stream(src: &Path, dst: &Path, keep: impl Fn(bool, u64, u32) -> bool) -> usize {
    let mut out = Vec::new();
    let mut kept = 0;
    for packet in read_stream_file(src).expect("stream file") {
        let shred = ShredRef::parse(&packet).expect("a valid shred");
        if keep(shred.is_data(), shred.slot().0, shred.index().0) {
            write_record(&mut out, &packet);
            kept += 1;
        }
    }
    std::fs::write(dst, out).expect("write filtered stream");
    kept
}

/// What Agave's fetch in `summary` returned; a failed fetch fails the test with Agave's
/// reason.
fn fetched(summary: &Summary) -> &bstore_interop_protocol::FetchedEntries {
    summary.entries.fetched().unwrap_or_else(|e| {
        panic!(
            "Agave cannot fetch the entries of slot {}: {e}",
            summary.slot
        )
    })
}

/// bstore and Agave both see `slot` full, with the generator's exact entries, meta and
/// shred count.
fn assert_slot_exact_on_both_sides(ledger: &Path, gen_slot: &GeneratedSlot, entries: &[u8]) {
    let slot = gen_slot.slot;
    let data = gen_slot.data_shreds;
    let b = bstore_read(ledger, slot);
    assert!(b.fetch_full, "bstore: slot {slot} not full: {b:?}");
    assert_eq!(
        (b.consumed, b.received, b.last_index, b.parent_slot),
        (data, data, Some(data - 1), Some(gen_slot.parent_slot)),
        "bstore meta of slot {slot}"
    );
    assert_eq!(b.num_shreds, data, "bstore: shreds of slot {slot}");
    assert!(
        b.entries == entries,
        "bstore: entries of slot {slot} differ from the generated ones"
    );

    let (summary, agave_entries) = agave_read(ledger, slot);
    assert!(summary.is_full, "Agave: slot {slot} not full: {summary:?}");
    let meta = summary
        .meta
        .as_ref()
        .unwrap_or_else(|| panic!("Agave: no meta for slot {slot}"));
    assert_eq!(
        (meta.consumed, meta.received, meta.last_index),
        (data, data, Some(data - 1)),
        "Agave meta of slot {slot}: {summary:?}"
    );
    assert_eq!(
        meta.parent_slot,
        Some(gen_slot.parent_slot),
        "Agave parent of {slot}"
    );
    let fetched = fetched(&summary);
    assert!(fetched.is_full, "Agave fetch of {slot}: {summary:?}");
    assert_eq!(fetched.num_shreds, data, "Agave fetch of {slot}");
    assert_eq!(
        fetched.sha256, gen_slot.entries_sha256,
        "Agave: entries of slot {slot} differ from the generated ones"
    );
    assert!(
        agave_entries == entries,
        "Agave: entries bytes of slot {slot} differ"
    );
}

/// (a) Agave writes (gen + insert all) → bstore reads every slot exactly, PoH included.
#[test]
#[ignore = "needs the Agave tool; run scripts/interop-agave.sh"]
fn agave_writes_bstore_reads_every_slot_exactly() {
    let dir = tempfile::tempdir().expect("tempdir");
    let generated = Generated::new(dir.path(), 100, 4, 96, 1);
    let ledger = dir.path().join("ledger");
    let ins = agave_insert(&ledger, &generated.stream, "all");
    assert_eq!(ins.selected, generated.info.records);
    assert_eq!(ins.slots_full, generated.slot_numbers());

    let mut poh_seed = generated.info.start_hash.clone();
    for gen_slot in generated.slots() {
        let slot = gen_slot.slot;
        let b = bstore_read(&ledger, slot);
        let data = gen_slot.data_shreds;
        assert!(b.fetch_full, "slot {slot}: {b:?}");
        assert_eq!(
            (b.consumed, b.received, b.last_index, b.parent_slot),
            (data, data, Some(data - 1), Some(slot - 1)),
            "bstore's reading of Agave's meta for slot {slot}"
        );
        assert!(
            b.entries == generated.entries(slot),
            "slot {slot}: bstore's entries differ from what Agave shredded"
        );
        let line = json_lines(&bstore(&[
            "ledger",
            "slot",
            "--ledger",
            s(&ledger),
            &slot.to_string(),
            "--verify-poh",
            &poh_seed,
        ]))
        .remove(0);
        assert_eq!(line["full"], true, "slot {slot}: {line}");
        assert_eq!(line["entries"], gen_slot.entries, "slot {slot}");
        assert_eq!(line["transactions"], gen_slot.transactions, "slot {slot}");
        assert_eq!(
            line["blockhash"],
            gen_slot.blockhash.as_str(),
            "slot {slot}"
        );
        assert_eq!(line["poh"], "ok", "slot {slot}: {line}");
        assert_eq!(
            line["data_sets"].as_array().map(Vec::len),
            Some(gen_slot.fec_sets as usize),
            "slot {slot}: one data set per FEC set"
        );
        poh_seed = line["blockhash"].as_str().expect("blockhash").to_string();
    }
}

/// (b) bstore ingests Agave's shreds (leader signatures checked) → Agave reads every slot
/// exactly and full.
#[test]
#[ignore = "needs the Agave tool; run scripts/interop-agave.sh"]
fn bstore_ingests_agave_reads_every_slot_exactly() {
    let dir = tempfile::tempdir().expect("tempdir");
    let generated = Generated::new(dir.path(), 200, 3, 64, 2);
    let ledger = dir.path().join("ledger");
    let out = bstore_ingest(&ledger, &[&generated.stream], Some(generated.leader()));
    assert_eq!(out["inserted"], generated.info.records, "{out}");
    assert_eq!(out["rejected"], 0, "{out}");
    assert_eq!(out["slots_full"], json!(generated.slot_numbers()));
    for gen_slot in generated.slots() {
        let slot = gen_slot.slot;
        assert_slot_exact_on_both_sides(&ledger, gen_slot, &generated.entries(slot));
        let (summary, _) = agave_read(&ledger, slot);
        let data = gen_slot.data_shreds as u32;
        let completed: Vec<u32> = (1..=data / 32).map(|set| set * 32 - 1).collect();
        assert_eq!(
            summary.meta.map(|m| m.completed_data_indexes),
            Some(completed),
            "Agave reads bstore's completed data indexes of slot {slot}"
        );
        assert!(!summary.dead);
        assert!(!summary.root);
        assert!(!summary.duplicate_proof);
    }
}

/// (b') A ledger bstore wrote must let Agave go on inserting: Agave's `index` column must
/// list every data and code shred bstore stored (Agave derives `consumed`, duplicate checks
/// and erasure recovery from it).
#[test]
#[ignore = "needs the Agave tool; run scripts/interop-agave.sh"]
fn bstore_ingest_fills_agaves_index_column() {
    let dir = tempfile::tempdir().expect("tempdir");
    let generated = Generated::new(dir.path(), 250, 2, 64, 7);
    let ledger = dir.path().join("ledger");
    bstore_ingest(&ledger, &[&generated.stream], None);
    for gen_slot in generated.slots() {
        assert_index_lists_every_shred(&ledger, gen_slot);
    }
}

/// (c) bstore inserts the even shreds, then Agave the odd ones: both see every slot full
/// and exact, and Agave's index lists every shred of both writers.
#[test]
#[ignore = "needs the Agave tool; run scripts/interop-agave.sh"]
fn mixed_writers_bstore_even_first_then_agave_odd() {
    mixed_writers(WhoFirst::Bstore);
}

/// (c) The reverse order: Agave inserts the odd shreds, then bstore the even ones.
#[test]
#[ignore = "needs the Agave tool; run scripts/interop-agave.sh"]
fn mixed_writers_agave_odd_first_then_bstore_even() {
    mixed_writers(WhoFirst::Agave);
}

#[derive(Debug, Clone, Copy)]
enum WhoFirst {
    Bstore,
    Agave,
}

/// bstore writes the shreds of even index (data and code each by their own index), Agave
/// those of odd index (the tool's `--select odd`, the same rule).
fn mixed_writers(first: WhoFirst) {
    let dir = tempfile::tempdir().expect("tempdir");
    let generated = Generated::new(dir.path(), 300, 3, 64, 3);
    let ledger = dir.path().join("ledger");
    let even = dir.path().join("even.bin");
    let kept = filtered_stream(&generated.stream, &even, |_, _, index| index % 2 == 0);
    assert_eq!(
        kept as u64 * 2,
        generated.info.records,
        "even half of every slot"
    );
    let agave_odd = |ledger: &Path| {
        let out = agave_insert(ledger, &generated.stream, "odd");
        assert_eq!(out.selected, kept as u64, "odd half: {out:?}");
    };
    match first {
        WhoFirst::Bstore => {
            bstore_ingest(&ledger, &[&even], None);
            agave_odd(&ledger);
        }
        WhoFirst::Agave => {
            agave_odd(&ledger);
            bstore_ingest(&ledger, &[&even], None);
        }
    }
    for gen_slot in generated.slots() {
        let slot = gen_slot.slot;
        assert_slot_exact_on_both_sides(&ledger, gen_slot, &generated.entries(slot));
        assert_index_lists_every_shred(&ledger, gen_slot);
    }
}

/// Agave's `index` row of the slot lists every data and code shred the generator made
/// (whoever stored them): Agave derives `consumed`, duplicate checks and erasure recovery
/// from it.
fn assert_index_lists_every_shred(ledger: &Path, gen_slot: &GeneratedSlot) {
    let slot = gen_slot.slot;
    let (summary, _) = agave_read(ledger, slot);
    let index = &summary.index;
    let data: Vec<u64> = (0..gen_slot.data_shreds).collect();
    let code: Vec<u64> = (0..gen_slot.code_shreds).collect();
    assert!(index.present, "slot {slot}: no index row: {index:?}");
    let row = index
        .row
        .as_ref()
        .unwrap_or_else(|| panic!("slot {slot}: an index row Agave finds but that is not raw"));
    assert_eq!(row.format, IndexFormat::V2, "slot {slot}: {index:?}");
    assert_eq!(row.data.indices, data, "slot {slot}");
    assert_eq!(row.coding.indices, code, "slot {slot}");
}

/// Data shreds withheld per slot of the partial-slot scenario, and what both sides must
/// then report: (withheld indices, consumed, received, last index).
type Partial = (Vec<u32>, u64, u64, Option<u64>);

/// (d) Partial slots (data shreds withheld, no code shreds): written by each side and read
/// by both, every reader agrees the slots are not full and on consumed / received / last
/// index, and both fetch the same completed data sets.
#[test]
#[ignore = "needs the Agave tool; run scripts/interop-agave.sh"]
fn partial_slots_agree_on_both_sides() {
    let dir = tempfile::tempdir().expect("tempdir");
    let generated = Generated::new(dir.path(), 400, 3, 64, 4);
    let partial: [Partial; 3] = [
        // A hole in the first data set: nothing completes.
        (vec![5], 5, 64, Some(63)),
        // The last shred withheld: the last index is unknown, the first set completes.
        (vec![63], 63, 63, None),
        // A hole in the second data set: only the first completes.
        ((40..=50).collect(), 40, 64, Some(63)),
    ];
    let slots = generated.slot_numbers();
    let withheld = |slot: u64, index: u32| {
        slots
            .iter()
            .position(|&s| s == slot)
            .is_some_and(|i| partial[i].0.contains(&index))
    };
    let file = dir.path().join("partial.bin");
    filtered_stream(&generated.stream, &file, |is_data, slot, index| {
        is_data && !withheld(slot, index)
    });
    let by_bstore = dir.path().join("by-bstore");
    let by_agave = dir.path().join("by-agave");
    let out = bstore_ingest(&by_bstore, &[&file], None);
    assert_eq!(out["slots_full"], json!([]), "{out}");
    let out = agave_insert(&by_agave, &file, "all");
    assert!(out.slots_full.is_empty(), "{out:?}");

    for (i, gen_slot) in generated.slots().iter().enumerate() {
        let slot = gen_slot.slot;
        let (_, consumed, received, last_index) = &partial[i];
        let mut by_ledger = Vec::new();
        for ledger in [&by_bstore, &by_agave] {
            let b = bstore_read(ledger, slot);
            assert!(!b.fetch_full, "bstore: {slot} full in {}", ledger.display());
            assert_eq!(
                (b.consumed, b.received, b.last_index),
                (*consumed, *received, *last_index),
                "bstore reading slot {slot} of {}",
                ledger.display()
            );
            let (summary, agave_entries) = agave_read(ledger, slot);
            assert!(!summary.is_full, "Agave: {summary:?}");
            let meta = summary
                .meta
                .as_ref()
                .map(|m| (m.consumed, m.received, m.last_index));
            assert_eq!(
                meta,
                Some((*consumed, *received, *last_index)),
                "Agave reading slot {slot} of {}: {summary:?}",
                ledger.display()
            );
            assert_eq!(
                fetched(&summary).num_shreds,
                b.num_shreds,
                "completed shreds of slot {slot}"
            );
            assert!(
                agave_entries == b.entries,
                "slot {slot} of {}: Agave and bstore fetch different entries",
                ledger.display()
            );
            by_ledger.push(b.entries);
        }
        assert_eq!(
            by_ledger[0], by_ledger[1],
            "slot {slot}: the two ledgers differ"
        );
    }
}

/// (e) Roots and dead slots set by either side are seen by the other.
#[test]
#[ignore = "needs the Agave tool; run scripts/interop-agave.sh"]
fn roots_and_dead_slots_cross_over() {
    let dir = tempfile::tempdir().expect("tempdir");
    let generated = Generated::new(dir.path(), 500, 4, 32, 5);
    let ledger = dir.path().join("ledger");
    agave_insert(&ledger, &generated.stream, "all");
    let [a_root, b_root, a_dead, b_dead] = [500u64, 501, 502, 503];
    let rooted: Rooted = agave(&["set-root", "--ledger", s(&ledger), &a_root.to_string()]);
    assert_eq!(rooted.rooted, [a_root]);
    let dead: MarkedDead = agave(&["set-dead", "--ledger", s(&ledger), &a_dead.to_string()]);
    assert_eq!(dead.dead, [a_dead]);
    {
        let store = Blockstore::open(&ledger, AccessMode::ReadWrite).expect("bstore opens");
        store.set_roots([Slot(b_root)]).expect("bstore set_roots");
        store
            .set_dead_slot(Slot(b_dead))
            .expect("bstore set_dead_slot");
    }
    for slot in [a_root, b_root, a_dead, b_dead] {
        let want_root = slot == a_root || slot == b_root;
        let want_dead = slot == a_dead || slot == b_dead;
        let b = bstore_read(&ledger, slot);
        assert_eq!(
            (b.root, b.dead),
            (want_root, want_dead),
            "bstore, slot {slot}"
        );
        let (summary, _) = agave_read(&ledger, slot);
        assert_eq!(
            (summary.root, summary.dead),
            (want_root, want_dead),
            "Agave, slot {slot}: {summary:?}"
        );
        let line = json_lines(&bstore(&[
            "ledger",
            "slot",
            "--ledger",
            s(&ledger),
            &slot.to_string(),
        ]))
        .remove(0);
        assert_eq!(
            (&line["rooted"], &line["dead"]),
            (&json!(want_root), &json!(want_dead)),
            "bstore ledger slot {slot}: {line}"
        );
    }
}

/// (f) The real testnet slot 417955322 (320 data shreds from Syndica's fixtures): ingested
/// by bstore and read by Agave, and inserted by Agave and read by bstore.
#[test]
#[ignore = "needs the Agave tool; run scripts/interop-agave.sh"]
fn real_testnet_slot_crosses_both_ways() {
    let exp = expected("sig-testnet-417955322/expected.json");
    let totals = &exp["deshred"]["totals"];
    let slot = u(&exp["slot"]);
    let file = testdata().join("sig-testnet-417955322/shreds.bin");
    let dir = tempfile::tempdir().expect("tempdir");
    let by_bstore = dir.path().join("by-bstore");
    let by_agave = dir.path().join("by-agave");

    let out = bstore_ingest(&by_bstore, &[&file], None);
    assert_eq!(out["slots_full"], json!([slot]), "{out}");
    let out = agave_insert(&by_agave, &file, "all");
    assert_eq!(out.slots_full, [slot], "{out:?}");
    assert_eq!(out.completed_data_sets.len(), 9);

    let mut all_entries = Vec::new();
    for ledger in [&by_bstore, &by_agave] {
        let (summary, agave_entries) = agave_read(ledger, slot);
        assert!(summary.is_full, "{summary:?}");
        let e = fetched(&summary);
        assert_eq!(
            (e.count, e.ticks, e.transactions),
            (
                u(&totals["entries"]),
                u(&totals["ticks"]),
                u(&totals["txs"])
            ),
            "Agave reading {}",
            ledger.display()
        );
        assert_eq!(e.blockhash.as_deref(), totals["last_entry_hash"].as_str());
        assert_eq!(e.num_shreds, 320);
        let b = bstore_read(ledger, slot);
        assert!(b.fetch_full);
        assert_eq!((b.consumed, b.last_index), (320, Some(319)));
        assert!(
            b.entries == agave_entries,
            "bstore and Agave fetch different entries from {}",
            ledger.display()
        );
        let line = json_lines(&bstore(&[
            "ledger",
            "slot",
            "--ledger",
            s(ledger),
            &slot.to_string(),
            "--verify-poh",
            totals["poh_seed"].as_str().expect("seed"),
        ]))
        .remove(0);
        assert_eq!(line["poh"], "ok", "{line}");
        assert_eq!(line["blockhash"], totals["last_entry_hash"]);
        all_entries.push(b.entries);
    }
    assert_eq!(all_entries[0], all_entries[1]);
}

/// (g) The same stream inserted by each side gives the same bytes in `index`,
/// `erasure_meta`, `merkle_root_meta` and `meta` (the meta's `first_shred_timestamp`,
/// bytes 24..32, is wall-clock time and masked).
#[test]
#[ignore = "needs the Agave tool; run scripts/interop-agave.sh"]
fn same_stream_gives_the_same_column_bytes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let generated = Generated::new(dir.path(), 600, 2, 64, 6);
    let by_bstore = dir.path().join("by-bstore");
    let by_agave = dir.path().join("by-agave");
    bstore_ingest(&by_bstore, &[&generated.stream], None);
    agave_insert(&by_agave, &generated.stream, "all");
    let mut differences = Vec::new();
    for slot in generated.slot_numbers() {
        for (column, rows) in column_rows(&by_agave, slot) {
            assert!(
                !rows.is_empty(),
                "Agave wrote no {column} row for slot {slot}"
            );
        }
        differences.extend(column_differences(&by_bstore, &by_agave, slot));
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}

/// The columns whose rows both writers must make byte-identical from the same shreds in the
/// same order.
const COMPARED_COLUMNS: [&str; 4] = ["index", "erasure_meta", "merkle_root_meta", "meta"];

/// One row as hex: (key, value).
type HexRow = (String, String);

/// The slot's rows of [`COMPARED_COLUMNS`] (`dump-columns`), the meta's
/// `first_shred_timestamp` (wall-clock time, bytes 24..32) masked. Both sides write Agave
/// 4.x's V3 `meta` rows.
fn column_rows(ledger: &Path, slot: u64) -> Vec<(&'static str, Vec<HexRow>)> {
    let dump: ColumnDump = agave(&[
        "dump-columns",
        "--ledger",
        s(ledger),
        "--slot",
        &slot.to_string(),
    ]);
    let rows = dump.columns.hex_rows();
    assert_eq!(
        rows.each_ref().map(|(column, _)| *column),
        COMPARED_COLUMNS,
        "the columns dump-columns prints"
    );
    rows.into_iter()
        .map(|(column, rows)| {
            let rows = rows
                .into_iter()
                .map(|(key, value)| {
                    let mut value = value.to_string();
                    if column == "meta" && value.len() >= 64 {
                        value.replace_range(48..64, &"_".repeat(16));
                    }
                    (key.to_string(), value)
                })
                .collect();
            (column, rows)
        })
        .collect()
}

/// Where ledgers `ours` and `theirs` differ in the slot's rows of [`COMPARED_COLUMNS`]: one
/// line per column, naming the first differing row.
fn column_differences(ours: &Path, theirs: &Path, slot: u64) -> Vec<String> {
    let name = |p: &Path| {
        p.file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into())
    };
    let other = column_rows(theirs, slot);
    column_rows(ours, slot)
        .into_iter()
        .zip(other)
        .filter(|((_, a), (_, b))| a != b)
        .map(|((column, a), (_, b))| {
            let first = a.iter().zip(&b).find(|(x, y)| x != y);
            format!(
                "slot {slot} {column}: {} rows in {}, {} in {}; first differing row: {:?} vs {:?}",
                a.len(),
                name(ours),
                b.len(),
                name(theirs),
                first.map(|(x, _)| short(x)),
                first.map(|(_, y)| short(y)),
            )
        })
        .collect()
}

/// A row for a failure message: the key and the first 96 hex digits of the value.
fn short((key, value): &HexRow) -> String {
    format!("{key}={}", &value[..value.len().min(96)])
}

// Scenarios on Agave-made versions, erasure sets and purges, one file each.
#[path = "interop_agave/duplicates.rs"]
mod duplicates;
#[path = "interop_agave/follow.rs"]
mod follow;
#[path = "interop_agave/history.rs"]
mod history;
#[path = "interop_agave/parent_info.rs"]
mod parent_info;
#[path = "interop_agave/purge.rs"]
mod purge;
#[path = "interop_agave/recovery.rs"]
mod recovery;
