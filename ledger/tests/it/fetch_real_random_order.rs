//! Scenario: every real slot of ../shared/testdata, inserted into the store in a seeded random
//! order and random-size calls, fetches (owned, views, one data block at a time) exactly the
//! entries the file-based deshred gives; while only part of it is in, every fetch returns
//! just the complete data sets below the first hole — never a half-received one.
#![cfg(feature = "storage")]

use crate::common;

use std::collections::BTreeSet;
use std::ops::Range;

use bstore_ledger::Slot;
use bstore_ledger::entry::{Entry, decode_entries};
use bstore_ledger::fetch::{
    AllowDead, EntryFetch, FetchBuffer, ShredRanges, SlotEntries, ViewFetch, completed_ranges,
    group_by_slot,
};
use bstore_ledger::shred::ShredRef;
use bstore_ledger::store::{AccessMode, Blockstore, ReadPath};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The files with one slot of data shreds each (records or ar archives).
fn real_slots() -> Vec<(&'static str, Vec<Vec<u8>>)> {
    let rec = |rel: &'static str| (rel, common::read_records(rel));
    let ar = |rel: &'static str| (rel, common::read_ar(rel));
    vec![
        rec("sig-testnet-417955322/shreds.bin"),
        rec("sig-v2-slot410010000-fec0/shreds.bin"),
        rec("sig-agave-generated/agave.blockstore.test_get_rooted_block.shreds.bin"),
        rec("sig-agave-generated/agave.blockstore.bench_write_small.shreds.bin"),
        rec("sig-agave-generated/merkle_proof_test_shreds_34_data_34_code.bin"),
        rec("sig-mainnet-shreds/recovery_slot284737905_fec483/input_shreds.bin"),
        ar("firedancer/localnet-shreds/localnet-slot0-shreds.ar"),
        ar("firedancer/localnet-shreds/localnet-slot50-shreds.ar"),
        ar("firedancer/fec-sets/chained_resigned-FT9QgTVo375TgDAQusTgpsfXqTosCJLfrBpoVdcbnhtS.ar"),
        ar("firedancer/fec-sets/chained-5XDmMEZpXM2GBXNjhgRCti4qLGeFQvx4RnzWeRgfupYk.ar"),
    ]
}

/// What the store must return for the data shreds in `present`: the complete data sets below
/// the first missing index (`docs/fetch-pipeline.md#the-fetch-pipeline`), decoded from the file's
/// own deshred.
fn model(packets: &[Vec<u8>], present: &BTreeSet<usize>) -> (Slot, Vec<Range<u32>>, Vec<Entry>) {
    let shreds = present
        .iter()
        .map(|&i| ShredRef::parse(&packets[i]).expect("parses"));
    let slots = group_by_slot(shreds);
    let Some(slot) = slots.values().next() else {
        return (Slot(0), Vec::new(), Vec::new());
    };
    let mut consumed = 0u32;
    while slot.get(consumed).is_some() {
        consumed += 1;
    }
    let completed = (0..consumed).filter(|&i| slot.get(i).is_some_and(|s| s.data_complete()));
    let ranges = completed_ranges(completed, 0, consumed);
    let mut entries = Vec::new();
    for r in &ranges {
        entries.extend(decode_entries(&slot.deshred(r).expect("deshreds")).expect("decodes"));
    }
    (slot.slot(), ranges, entries)
}

/// [`check_fetch_with`] on both read paths (range scan, the default, and multi-get).
fn check_fetch(store: &Blockstore, slot: Slot, ranges: &[Range<u32>], want: &[Entry], label: &str) {
    for path in [ReadPath::Scan, ReadPath::MultiGet] {
        store.set_read_path(path);
        check_fetch_with(store, slot, ranges, want, &format!("{label} ({path:?})"));
    }
    store.set_read_path(ReadPath::default());
}

fn check_fetch_with(
    store: &Blockstore,
    slot: Slot,
    ranges: &[Range<u32>],
    want: &[Entry],
    label: &str,
) {
    let SlotEntries {
        entries,
        num_shreds,
        ..
    } = store
        .get_slot_entries_with_shred_info(slot, 0, AllowDead::No)
        .unwrap_or_else(|e| panic!("{label}: {e}"));
    assert_eq!(entries, want, "{label}: owned entries");
    assert_eq!(
        num_shreds,
        ranges.last().map_or(0, |r| u64::from(r.end)),
        "{label}"
    );
    assert_eq!(
        store.completed_ranges(slot, 0).expect("ranges"),
        ranges,
        "{label}"
    );
    let mut buf = FetchBuffer::new();
    let views = store
        .fetch_slot_views(slot, 0, AllowDead::No, &mut buf)
        .expect("views");
    let from_views: Vec<Entry> = views
        .sets
        .iter()
        .flat_map(|s| s.entries.to_owned_entries().expect("owned"))
        .collect();
    assert_eq!(from_views, want, "{label}: views");
    // One data block at a time, as the completed-data-sets service fetches.
    let mut blocks = Vec::new();
    for r in ranges {
        blocks.extend(
            store
                .get_entries_in_data_block(slot, r.clone())
                .expect("block"),
        );
    }
    assert_eq!(blocks, want, "{label}: data blocks");
}

#[test]
fn random_order_ingest_fetches_what_the_file_deshred_gives() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed);
    for (rel, packets) in real_slots() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Blockstore::open(dir.path(), AccessMode::ReadWrite).expect("open");
        let data: Vec<usize> = (0..packets.len())
            .filter(|&i| ShredRef::parse(&packets[i]).is_ok_and(|s| s.is_data()))
            .collect();
        // Data shreds only: coding shreds would make the store recover data shreds the
        // file lacks, which `store_recovery.rs` checks; here the file's own deshred is the
        // expectation.
        let mut order = data.clone();
        order.shuffle(&mut rng);
        let mut present = BTreeSet::new();
        let mut pos = 0;
        let mut checks = 0;
        while pos < order.len() {
            let n = rng
                .gen_range(1..=(order.len() / 4).max(1))
                .min(order.len() - pos);
            let call: Vec<&Vec<u8>> = order[pos..pos + n].iter().map(|&i| &packets[i]).collect();
            store
                .insert_shreds_with(call, common::insert_options(rel))
                .expect("insert");
            present.extend(order[pos..pos + n].iter().filter(|i| data.contains(i)));
            pos += n;
            let (slot, ranges, want) = model(&packets, &present);
            if !present.is_empty() {
                check_fetch(
                    &store,
                    slot,
                    &ranges,
                    &want,
                    &format!("{rel} after {pos} shreds"),
                );
                checks += 1;
            }
        }
        assert!(checks > 0, "{rel}");
        // Everything in: the fetch equals the file-based deshred of all complete sets
        // below the first hole (all of them for a slot without holes).
        let all: BTreeSet<usize> = data.iter().copied().collect();
        let (slot, ranges, want) = model(&packets, &all);
        check_fetch(&store, slot, &ranges, &want, rel);
    }
}
