//! PoH on real data: testnet slot 417955322 chains from its parent blockhash to its
//! blockhash through all 9 data sets with 64 ticks of 62,500 hashes; a flipped byte breaks
//! the chain at exactly that entry; every other folder's count of verified links agrees with
//! its `expected.json`.

use crate::common;

use bstore_formats::entry::{
    EntriesView, Entry, PohDefect, PohEntry, TickRules, decode_entries, verify_poh,
    verify_slot_ticks,
};
use bstore_formats::{FormatError, Hash};
use serde_json::Value;

const TESTNET: &str = "sig-testnet-417955322";

fn hash(v: &Value) -> Hash {
    v.as_str()
        .expect("base58 string")
        .parse()
        .expect("valid hash")
}

/// `upstream_asserted` keys carry their provenance after the name ("parent_blockhash (...)").
fn parent_blockhash(j: &Value) -> Hash {
    let up = j["upstream_asserted"]
        .as_object()
        .expect("upstream_asserted");
    let (_, v) = up
        .iter()
        .find(|(k, _)| k.starts_with("parent_blockhash"))
        .expect("parent blockhash asserted upstream");
    hash(v)
}

fn as_u64(v: &Value) -> u64 {
    v.as_u64()
        .unwrap_or_else(|| panic!("expected a number, got {v}"))
}

/// The testnet slot's data sets, in shred order.
fn testnet_batches(j: &Value) -> Vec<Vec<u8>> {
    j["deshred"]["batches"]
        .as_array()
        .expect("batches")
        .iter()
        .map(|b| {
            let file = b["file"].as_str().expect("file");
            std::fs::read(common::path(&format!("{TESTNET}/{file}"))).expect("readable batch")
        })
        .collect()
}

fn testnet_entries(j: &Value) -> Vec<Entry> {
    testnet_batches(j)
        .iter()
        .flat_map(|b| decode_entries(b).expect("valid batch"))
        .collect()
}

#[test]
fn testnet_slot_chains_from_parent_to_blockhash() {
    let j = common::json(&format!("{TESTNET}/expected.json"));
    let totals = &j["deshred"]["totals"];
    let parent = parent_blockhash(&j);
    assert_eq!(parent, hash(&totals["poh_seed"]));
    let blockhash = hash(&totals["last_entry_hash"]);

    let entries = testnet_entries(&j);
    assert_eq!(entries.len() as u64, as_u64(&totals["poh_links_verified"]));
    assert_eq!(
        verify_poh(&parent, &entries).expect("owned chain verifies"),
        blockhash
    );

    // The same through views, data set by data set, each chaining from the last.
    let batches = testnet_batches(&j);
    let mut prev = parent;
    for b in &batches {
        let view = EntriesView::parse(b).expect("valid batch");
        prev = verify_poh(&prev, view.iter()).expect("view chain verifies");
    }
    assert_eq!(prev, blockhash);

    // A wrong seed fails at the first entry.
    match verify_poh(&blockhash, &entries) {
        Err(FormatError::Poh {
            entry: 0,
            defect: PohDefect::HashMismatch { .. },
        }) => {}
        other => panic!("wrong seed must fail at entry 0, got {other:?}"),
    }
}

#[test]
fn testnet_slot_tick_rules() {
    let j = common::json(&format!("{TESTNET}/expected.json"));
    let totals = &j["deshred"]["totals"];
    let entries = testnet_entries(&j);
    let ticks = as_u64(&totals["ticks"]);
    assert_eq!(entries.iter().filter(|e| e.is_tick()).count() as u64, ticks);
    let total_hashes: u64 = entries.iter().map(|e| e.num_hashes).sum();
    assert_eq!(total_hashes, as_u64(&totals["num_hashes"]));
    // The data implies its hashes per tick: 4,000,000 hashes over 64 ticks.
    let hashes_per_tick = total_hashes / ticks;
    assert_eq!(hashes_per_tick * ticks, total_hashes);
    assert_eq!(hashes_per_tick, TickRules::MAINNET_HASHES_PER_TICK);

    let rules = TickRules {
        ticks_per_slot: ticks,
        hashes_per_tick: Some(hashes_per_tick),
    };
    verify_slot_ticks(&entries, &rules).expect("testnet slot follows the tick rules");
    verify_slot_ticks(&entries, &TickRules::MAINNET).expect("mainnet rules");
    verify_slot_ticks(&entries, &TickRules::default()).expect("hashes unchecked");

    let first_tick = entries.iter().position(|e| e.is_tick()).expect("a tick");
    let off_by_one = TickRules {
        hashes_per_tick: Some(hashes_per_tick + 1),
        ..rules
    };
    match verify_slot_ticks(&entries, &off_by_one) {
        Err(FormatError::Poh {
            entry,
            defect: PohDefect::HashesPerTick { expected, found },
        }) => {
            assert_eq!(
                (entry, expected, found),
                (first_tick, hashes_per_tick + 1, hashes_per_tick)
            );
        }
        other => panic!("wrong hashes_per_tick must fail, got {other:?}"),
    }
    let fewer_ticks = TickRules {
        ticks_per_slot: ticks - 1,
        ..rules
    };
    assert!(matches!(
        verify_slot_ticks(&entries, &fewer_ticks),
        Err(FormatError::Poh {
            defect: PohDefect::TickCount { .. },
            ..
        })
    ));
    let more_ticks = TickRules {
        ticks_per_slot: ticks + 1,
        ..rules
    };
    assert!(matches!(
        verify_slot_ticks(&entries, &more_ticks),
        Err(FormatError::Poh {
            defect: PohDefect::TickCount { .. },
            ..
        })
    ));
    // Without its final tick the slot no longer ends on one.
    let last_tx = entries
        .iter()
        .rposition(|e| !e.is_tick())
        .expect("an entry with txs");
    assert!(matches!(
        verify_slot_ticks(&entries[..=last_tx], &TickRules::default()),
        Err(FormatError::Poh { defect: PohDefect::DoesNotEndOnTick, entry }) if entry == last_tx
    ));
}

#[test]
fn flipped_bytes_fail_at_their_entry() {
    let j = common::json(&format!("{TESTNET}/expected.json"));
    let parent = parent_blockhash(&j);
    let entries = testnet_entries(&j);
    let with_txs = entries
        .iter()
        .position(|e| !e.is_tick())
        .expect("entry with txs");
    let tick = entries.len() - 1;
    for target in [0, with_txs, 50, tick] {
        let mut broken = entries.clone();
        broken[target].hash.0[7] ^= 0x01;
        match verify_poh(&parent, &broken) {
            Err(FormatError::Poh {
                entry,
                defect: PohDefect::HashMismatch { found, .. },
            }) => {
                assert_eq!(entry, target);
                assert_eq!(found, broken[target].hash);
            }
            other => panic!("flipped hash at {target} must fail there, got {other:?}"),
        }
    }
    // A flipped signature byte changes the mixin: the entry's own link breaks.
    let mut broken = entries.clone();
    broken[with_txs].transactions[0].signatures[0].0[0] ^= 0x80;
    assert!(matches!(
        verify_poh(&parent, &broken),
        Err(FormatError::Poh { entry, .. }) if entry == with_txs
    ));
    // The same through a view over bytes with one hash byte flipped (data set 4, entry 2).
    let batches = testnet_batches(&j);
    let mut bytes = batches[3].clone();
    let view = EntriesView::parse(&batches[3]).expect("valid");
    let e2 = view.get(2).expect("entry 2");
    let offset = e2.bytes().as_ptr() as usize - batches[3].as_ptr() as usize + 8;
    bytes[offset + 31] ^= 0x10;
    let first = j["deshred"]["batches"][3]["first_entry_index"]
        .as_u64()
        .expect("index") as usize;
    let start = if first == 0 {
        parent
    } else {
        entries[first - 1].hash
    };
    let broken = EntriesView::parse(&bytes).expect("still well-formed");
    assert!(matches!(
        verify_poh(&start, broken.iter()),
        Err(FormatError::Poh { entry: 2, .. })
    ));
}

/// Links (consecutive pairs) that verify, and the indices of those that do not.
fn links<E: PohEntry>(entries: &[E]) -> (u64, Vec<u64>) {
    let mut ok = 0;
    let mut failed = Vec::new();
    for (i, pair) in entries.windows(2).enumerate() {
        match verify_poh(&pair[0].hash(), &pair[1..]) {
            Ok(_) => ok += 1,
            Err(_) => failed.push(i as u64 + 1),
        }
    }
    (ok, failed)
}

fn check_links(what: &str, bytes: &[u8], x: &Value) {
    let view = EntriesView::parse(bytes).expect("valid data set");
    let views: Vec<_> = view.iter().collect();
    let (ok, failed) = links(&views);
    assert_eq!(
        ok,
        as_u64(&x["poh_links_verified"]),
        "{what}: verified links"
    );
    if let Some(want) = x.get("poh_links_failed") {
        let want: Vec<u64> = want.as_array().expect("list").iter().map(as_u64).collect();
        assert_eq!(failed, want, "{what}: failed links");
    }
    let owned = decode_entries(bytes).expect("valid data set");
    assert_eq!(
        links(&owned),
        (ok, failed),
        "{what}: owned agrees with views"
    );
}

#[test]
fn other_folders_link_counts() {
    let v2 = common::json("sig-v2-slot410010000-fec0/expected.json");
    let bytes = std::fs::read(common::path(
        "sig-v2-slot410010000-fec0/batches/batch_00000_00031.bin",
    ))
    .expect("read");
    check_links("v2 fec0", &bytes, &v2["deshred"]["totals"]);

    let rec = "sig-mainnet-shreds/recovery_slot284737905_fec483";
    let j = common::json(&format!("{rec}/expected.json"));
    let bytes = std::fs::read(common::path(&format!(
        "{rec}/batches/batch_00483_00489.bin"
    )))
    .expect("read");
    check_links(
        "mainnet recovery",
        &bytes,
        &j["deshred_after_recovery"]["totals"],
    );

    let fd = common::json("firedancer/expected.json");
    for name in ["localnet-slot0-batch0.bin", "localnet-slot210-batch6.bin"] {
        let bytes = std::fs::read(common::path(&format!("firedancer/localnet-shreds/{name}")))
            .expect("read");
        check_links(
            name,
            &bytes,
            &fd["items"][format!("localnet-shreds/{name}")],
        );
    }
    let bytes =
        std::fs::read(common::path("firedancer/demo-shreds/demo-shreds.bin")).expect("read");
    check_links(
        "demo",
        &bytes,
        &fd["items"]["demo-shreds"]["deshred"]["totals"],
    );

    // Agave's test generator uses random entry hashes: no link verifies.
    let ag = common::json("sig-agave-generated/expected.json");
    let name = "agave.blockstore.test_get_rooted_block.entries.bin";
    let mut bytes = 200u64.to_le_bytes().to_vec();
    for r in common::read_records(&format!("sig-agave-generated/{name}")) {
        bytes.extend_from_slice(&r);
    }
    let totals =
        &ag["files"]["agave.blockstore.test_get_rooted_block.shreds.bin"]["deshred"]["totals"];
    check_links("agave generated", &bytes, totals);
}
