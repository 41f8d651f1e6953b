//! Scenario: erasure recovery on Agave-made FEC sets. Agave's shredder makes slots of three
//! 32:32 sets; up to 32 shreds of each set are dropped (data shreds included, in a different
//! pattern per set); bstore ingests the rest and must rebuild every dropped data shred: the
//! slots are full with the generator's exact entries, for bstore and for Agave reading
//! bstore's ledger, and Agave's `index` row lists every data shred. Agave's own recovering
//! insert path on the same shreds recovers as many and writes the same rows.

use super::*;

const START: u64 = 800;
const SLOTS: u64 = 3;
const DATA_PER_SLOT: u64 = 96;
const SHREDS_PER_SET: u32 = 32;

/// Whether the shred at `pos` (its index within its kind, modulo the set) of FEC set `set` in
/// the `nth` slot is dropped. Each set loses at most 32 of its 64 shreds, so each can be
/// rebuilt from what is left.
fn dropped(nth: u64, set: u32, is_data: bool, pos: u32) -> bool {
    match (nth, set, is_data) {
        // Every data shred: the 32 code shreds alone rebuild them.
        (0, 0, true) => true,
        // Half the data and the other half of the code.
        (0, 1, true) => pos < 16,
        (0, 1, false) => pos >= 16,
        // Only the slot's last shred (last-in-slot flag, resigned set).
        (0, 2, true) => pos == SHREDS_PER_SET - 1,
        // Every other shred of each kind.
        (1, 0, _) => pos.is_multiple_of(2),
        // All data but one, and one code shred: exactly 32 left.
        (1, 2, true) => pos != 0,
        (1, 2, false) => pos == 0,
        (2, 0, true) => pos < 10,
        // Every code shred, no data shred: nothing to rebuild.
        (2, 1, false) => true,
        (2, 2, true) => (8..28).contains(&pos),
        (2, 2, false) => pos < 12,
        _ => false,
    }
}

fn is_dropped(slot: u64, is_data: bool, index: u32) -> bool {
    let set = index / SHREDS_PER_SET;
    dropped(slot - START, set, is_data, index % SHREDS_PER_SET)
}

/// The data shreds [`dropped`] removes, in all.
fn dropped_data() -> u64 {
    (START..START + SLOTS)
        .map(|slot| {
            (0..DATA_PER_SLOT as u32)
                .filter(|&i| is_dropped(slot, true, i))
                .count() as u64
        })
        .sum()
}

/// Agave-made slots of `seed`, and a stream file of them without the [`dropped`] shreds
/// (with how many shreds it keeps).
fn with_drops(dir: &Path, seed: u64) -> (Generated, PathBuf, usize) {
    let generated = Generated::new(dir, START, SLOTS, DATA_PER_SLOT, seed);
    let file = dir.join("dropped.bin");
    let kept = filtered_stream(&generated.stream, &file, |is_data, slot, index| {
        !is_dropped(slot, is_data, index)
    });
    (generated, file, kept)
}

#[test]
#[ignore = "needs the Agave tool; run scripts/interop-agave.sh"]
fn bstore_recovers_agave_made_sets_and_agave_reads_them() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (generated, file, kept) = with_drops(dir.path(), 21);
    let want_recovered = dropped_data();
    assert_eq!(want_recovered, 32 + 16 + 1 + 16 + 31 + 10 + 20);
    assert!(kept < 1024, "one insert call on each side");

    let ledger = dir.path().join("by-bstore");
    let out = bstore_ingest(&ledger, &[&file], Some(generated.leader()));
    assert_eq!(out["rejected"], 0, "{out}");
    assert_eq!(out["recovery_failed"], 0, "{out}");
    assert_eq!(out["duplicate_slots"], json!([]), "{out}");
    assert_eq!(out["recovered"], want_recovered, "{out}");
    assert_eq!(out["slots_full"], json!(generated.slot_numbers()), "{out}");

    for gen_slot in generated.slots() {
        let slot = gen_slot.slot;
        assert_slot_exact_on_both_sides(&ledger, gen_slot, &generated.entries(slot));
        let (summary, _) = agave_read(&ledger, slot);
        let index = summary
            .index
            .row
            .unwrap_or_else(|| panic!("Agave finds no index row of slot {slot}"));
        let data: Vec<u64> = (0..DATA_PER_SLOT).collect();
        assert_eq!(
            index.data.indices, data,
            "Agave's index of slot {slot} lists every data shred, recovered ones too"
        );
        // Recovered coding shreds are not stored (as in Agave): the ones received are.
        let code: Vec<u64> = (0..gen_slot.code_shreds)
            .filter(|&i| !is_dropped(slot, false, i as u32))
            .collect();
        assert_eq!(index.coding.indices, code, "slot {slot}");
    }

    // Agave's recovering insert path on the same shreds: as many recovered, the same rows.
    let by_agave = dir.path().join("by-agave");
    let theirs: Inserted = agave(&[
        "insert",
        "--ledger",
        s(&by_agave),
        "--via",
        "window-service",
        s(&file),
    ]);
    assert_eq!(theirs.recovered, want_recovered, "Agave: {theirs:?}");
    assert_eq!(theirs.slots_full, generated.slot_numbers());
    let mut differences = Vec::new();
    for slot in generated.slot_numbers() {
        differences.extend(column_differences(&ledger, &by_agave, slot));
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}

/// The same drops ingested in calls of 37 shreds: sets are rebuilt from shreds stored by
/// earlier calls, with the same result.
#[test]
#[ignore = "needs the Agave tool; run scripts/interop-agave.sh"]
fn bstore_recovers_across_insert_calls() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (generated, file, _) = with_drops(dir.path(), 22);
    let ledger = dir.path().join("by-bstore");
    let out = json_lines(&bstore(&[
        "ledger",
        "ingest",
        "--ledger",
        s(&ledger),
        "--batch",
        "37",
        "--leader",
        generated.leader(),
        s(&file),
    ]))
    .remove(0);
    assert_eq!(out["recovered"], dropped_data(), "{out}");
    assert_eq!(out["slots_full"], json!(generated.slot_numbers()), "{out}");
    for gen_slot in generated.slots() {
        let slot = gen_slot.slot;
        assert_slot_exact_on_both_sides(&ledger, gen_slot, &generated.entries(slot));
    }
}
