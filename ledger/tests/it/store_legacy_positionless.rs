//! Scenario: mainnet slot 102815960 (October 2021), whose legacy 32:32 sets carry code
//! shreds that all state position 0 and are numbered like the set's data shreds (leaders of
//! Solana 1.7 and early 1.8). Inserted with 356 data shreds dropped, in several random
//! orders and call sizes, the slot is an honest slot: no shred refused, no duplicate proof,
//! every lost data shred rebuilt byte for byte, and all 881 entries fetched equal the full
//! slot's. A forged code shred that really conflicts with the set (another shape, or a
//! stated position that no reading of the stored shreds shares) is still refused and proven.

use crate::common;
use common::legacy_shapes;

use std::collections::BTreeMap;
use std::str::FromStr;

use bstore_ledger::entry::encode_entries;
use bstore_ledger::fetch::EntryFetch;
use bstore_ledger::shred::ShredRef;
use bstore_ledger::store::{
    Blockstore, DuplicateKind, InsertDefect, InsertOptions, LeaderCheck, MemEngine,
};
use bstore_ledger::{LedgerError, Pubkey, ShredIndex, Slot};

const DIR: &str = "radiance-mainnet-102815960";
const SLOT: Slot = Slot(102_815_960);
const DROPPED: usize = 356;

struct SlotShreds {
    /// Stored data payloads by index.
    data: BTreeMap<u32, Vec<u8>>,
    /// Code payloads with their fec_set_index.
    code: Vec<(u32, Vec<u8>)>,
}

fn slot_shreds() -> SlotShreds {
    let data = common::read_records(&format!("{DIR}/data_shreds.bin"))
        .into_iter()
        .map(|p| (ShredRef::parse(&p).expect("parses").index().0, p))
        .collect();
    let code = common::read_records(&format!("{DIR}/code_shreds.bin"))
        .into_iter()
        .map(|p| (ShredRef::parse(&p).expect("parses").fec_set_index(), p))
        .collect();
    SlotShreds { data, code }
}

fn leader() -> Pubkey {
    let e = common::json(&format!("{DIR}/expected.json"));
    Pubkey::from_str(e["shreds"]["leader"].as_str().expect("leader")).expect("base58")
}

/// xorshift64, seeded per test.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// `DROPPED` data indexes, random, never more from a set than it has code shreds (so every
/// set keeps enough shreds to be rebuilt).
fn pick_dropped(shreds: &SlotShreds, rng: &mut Rng) -> Vec<u32> {
    let mut budget: BTreeMap<u32, usize> = BTreeMap::new();
    for (fec, _) in &shreds.code {
        *budget.entry(*fec).or_default() += 1;
    }
    let mut order: Vec<u32> = shreds.data.keys().copied().collect();
    rng.shuffle(&mut order);
    let mut dropped = Vec::new();
    for index in order {
        let fec = ShredRef::parse(&shreds.data[&index])
            .expect("parses")
            .fec_set_index();
        let left = budget.entry(fec).or_default();
        if *left > 0 && dropped.len() < DROPPED {
            *left -= 1;
            dropped.push(index);
        }
    }
    assert_eq!(dropped.len(), DROPPED);
    dropped.sort_unstable();
    dropped
}

/// Inserts `packets` in random order and random call sizes; asserts the calls refuse
/// nothing, fail no recovery and prove nothing. Returns the data shreds recovered.
fn insert_shuffled(
    store: &Blockstore<MemEngine>,
    mut packets: Vec<&Vec<u8>>,
    rng: &mut Rng,
    options: InsertOptions,
) -> usize {
    rng.shuffle(&mut packets);
    let mut recovered = 0;
    let mut rest = &packets[..];
    while !rest.is_empty() {
        let take = (1 + rng.below(120)).min(rest.len());
        let (call, tail) = rest.split_at(take);
        rest = tail;
        let out = store.insert_shreds_with(call, options).expect("insert");
        assert!(out.rejected.is_empty(), "{:?}", out.rejected);
        assert!(out.recovery_failed.is_empty(), "{:?}", out.recovery_failed);
        assert!(out.duplicate_slots.is_empty(), "{:?}", out.duplicate_slots);
        recovered += out.recovered;
    }
    recovered
}

/// The slot's entries as stored bytes (what replay and getBlock would read).
fn entry_bytes(store: &Blockstore<MemEngine>) -> (usize, Vec<u8>) {
    let entries = store.get_slot_entries(SLOT, 0).expect("entries fetch");
    (entries.len(), encode_entries(&entries))
}

#[test]
fn honest_2021_slot_recovers_fully_in_any_order_without_a_proof() {
    let shreds = slot_shreds();
    let full = Blockstore::in_memory();
    full.insert_shreds_with(shreds.data.values(), legacy_shapes())
        .expect("insert");
    let (count, want) = entry_bytes(&full);
    assert_eq!(count, 881);

    for seed in 1..=4u64 {
        let mut rng = Rng(0x1020_2021 ^ (seed << 32));
        let dropped = pick_dropped(&shreds, &mut rng);
        let kept = shreds
            .data
            .iter()
            .filter(|(i, _)| dropped.binary_search(i).is_err())
            .map(|(_, p)| p);
        let packets: Vec<&Vec<u8>> = kept.chain(shreds.code.iter().map(|(_, p)| p)).collect();
        // Odd seeds also check every shred against the slot leader.
        let options = InsertOptions {
            leader: match seed % 2 {
                1 => LeaderCheck::Verify(leader()),
                _ => LeaderCheck::Skip,
            },
            ..legacy_shapes()
        };
        let store = Blockstore::in_memory();
        let recovered = insert_shuffled(&store, packets, &mut rng, options);
        // A set can be rebuilt before all of its kept data shreds arrived: those come
        // later as duplicates of what recovery stored, which would be proven if they
        // differed in a byte.
        assert!(recovered >= DROPPED, "seed {seed}: {recovered} recovered");
        assert_eq!(store.duplicate_slot_proof(SLOT).expect("read"), None);
        for (index, payload) in &shreds.data {
            let stored = store.data_shred(SLOT, ShredIndex(*index)).expect("read");
            assert_eq!(stored.as_ref(), Some(payload), "shred {index}");
        }
        let meta = store.meta(SLOT).expect("read").expect("meta");
        assert!(meta.is_full(), "seed {seed}");
        assert_eq!(entry_bytes(&store), (881, want.clone()), "seed {seed}");
        // Every code shred was stored: none was taken for another set's.
        for (_, payload) in &shreds.code {
            let index = ShredRef::parse(payload).expect("parses").index();
            let stored = store.code_shred(SLOT, index).expect("read");
            assert_eq!(stored.as_ref(), Some(payload), "code shred {index}");
        }
    }
}

/// The code shreds of set `fec`, by index.
fn set_code(shreds: &SlotShreds, fec: u32) -> BTreeMap<u32, &Vec<u8>> {
    shreds
        .code
        .iter()
        .filter(|(f, _)| *f == fec)
        .map(|(_, p)| (ShredRef::parse(p).expect("parses").index().0, p))
        .collect()
}

fn assert_erasure_conflict(out: &bstore_ledger::store::InsertOutcome) {
    assert_eq!(out.inserted, 0);
    assert!(
        matches!(
            out.rejected[0].error,
            LedgerError::ShredRejected {
                defect: InsertDefect::ErasureConfigConflict { .. },
                ..
            }
        ),
        "{:?}",
        out.rejected
    );
    assert_eq!(
        out.duplicate_slots
            .iter()
            .map(|d| d.kind)
            .collect::<Vec<_>>(),
        vec![DuplicateKind::ErasureConfigConflict]
    );
}

#[test]
fn a_code_shred_of_another_shape_is_still_proven() {
    let shreds = slot_shreds();
    let code = set_code(&shreds, 64);
    let store = Blockstore::in_memory();
    let out = store
        .insert_shreds_with(code.values(), legacy_shapes())
        .expect("insert");
    assert!(out.rejected.is_empty() && out.duplicate_slots.is_empty());
    // One of the set's code shreds restated with 31 code shreds instead of 32.
    let (&index, honest) = code.iter().nth(3).expect("a code shred");
    let mut forged = honest.to_vec();
    forged[85..87].copy_from_slice(&31u16.to_le_bytes());
    forged[73..77].copy_from_slice(&(index + 1000).to_le_bytes());
    let out = store
        .insert_shreds_with([&forged], legacy_shapes())
        .expect("insert");
    assert_erasure_conflict(&out);
    let proof = store
        .duplicate_slot_proof(SLOT)
        .expect("read")
        .expect("proof");
    let first = code.values().next().expect("first");
    assert_eq!((&proof.shred1, &proof.shred2), (*first, &forged));
}

#[test]
fn a_stated_position_no_stored_reading_shares_is_still_proven() {
    let shreds = slot_shreds();
    let code = set_code(&shreds, 64);
    let indexes: Vec<u32> = code.keys().copied().collect();
    // Two stored shreds of set 64 leave one reading (the set's index, 64). A shred stating
    // position 1 at the third index puts the set's code range at that index − 1: no stored
    // shred can be read that way unless it sits there, so pick such a third shred.
    let third = *indexes[2..]
        .iter()
        .find(|&&i| !indexes.contains(&(i - 1)) && i - 1 != 64)
        .expect("a code shred with a gap before it");
    let store = Blockstore::in_memory();
    let out = store
        .insert_shreds_with([code[&indexes[0]], code[&indexes[1]]], legacy_shapes())
        .expect("insert");
    assert!(out.rejected.is_empty() && out.duplicate_slots.is_empty());
    let mut forged = code[&third].to_vec();
    forged[87..89].copy_from_slice(&1u16.to_le_bytes());
    let out = store
        .insert_shreds_with([&forged], legacy_shapes())
        .expect("insert");
    assert_erasure_conflict(&out);
    let proof = store
        .duplicate_slot_proof(SLOT)
        .expect("read")
        .expect("proof");
    assert_eq!(&proof.shred2, &forged);
    assert!(
        [code[&indexes[0]], code[&indexes[1]]].contains(&&proof.shred1),
        "the witness is a stored shred of the set"
    );
    // Each shred of the proof alone shows the conflict: they share no reading.
    let (a, b) = (
        ShredRef::parse(&proof.shred1).expect("parses"),
        ShredRef::parse(&proof.shred2).expect("parses"),
    );
    let readings = |s: &ShredRef<'_>| bstore_ledger::shred::FirstCodeIndex::of(s).expect("code");
    assert!(!readings(&a).agrees_with(&readings(&b)));
}

#[test]
fn a_forged_first_shred_is_proven_by_the_honest_ones() {
    let shreds = slot_shreds();
    let code = set_code(&shreds, 96);
    let indexes: Vec<u32> = code.keys().copied().collect();
    // The forged shred comes first and defines the set's erasure_meta: position 2 at the
    // last index. Honest shreds then arrive; the first one that shares no reading with it
    // is refused and proven, and the proof names the forged shred.
    let last = *indexes.last().expect("a code shred");
    let mut forged = code[&last].to_vec();
    forged[87..89].copy_from_slice(&2u16.to_le_bytes());
    let store = Blockstore::in_memory();
    store
        .insert_shreds_with([&forged], legacy_shapes())
        .expect("insert");
    let honest: Vec<&Vec<u8>> = indexes[..indexes.len() - 1]
        .iter()
        .map(|i| code[i])
        .collect();
    let out = store
        .insert_shreds_with(&honest, legacy_shapes())
        .expect("insert");
    assert!(!out.rejected.is_empty());
    assert_eq!(
        out.duplicate_slots
            .iter()
            .map(|d| d.kind)
            .collect::<Vec<_>>(),
        vec![DuplicateKind::ErasureConfigConflict]
    );
    let proof = store
        .duplicate_slot_proof(SLOT)
        .expect("read")
        .expect("proof");
    assert_eq!(&proof.shred1, &forged);
}

/// Whatever the order, a set holding a forged code shred that states another code range
/// ends with one proof, and its two shreds conflict on their own: no first code index
/// reading in common. A code shred stating the position its index has in the set (as
/// later 1.8 leaders wrote it) is no conflict.
#[test]
fn a_forged_code_shred_in_any_order_makes_a_self_standing_proof() {
    let shreds = slot_shreds();
    let code = set_code(&shreds, 128);
    let indexes: Vec<u32> = code.keys().copied().collect();
    let readings = |p: &[u8]| {
        let shred = ShredRef::parse(p).expect("parses");
        bstore_ledger::shred::FirstCodeIndex::of(&shred).expect("code")
    };
    for seed in 1..=12u64 {
        let mut rng = Rng(0xF0F0_1234 ^ (seed << 40));
        // A code shred at a free index of the set's range: odd seeds state its position in
        // set 128 (consistent), even seeds a position that puts the range elsewhere.
        let free: Vec<u32> = (129..160).filter(|i| !indexes.contains(i)).collect();
        let at = free[rng.below(free.len())];
        let consistent = seed % 2 == 1;
        let position = match consistent {
            true => (at - 128) as u16,
            false => {
                let p = 1 + rng.below(4) as u16;
                if at - u32::from(p) == 128 { p + 1 } else { p }
            }
        };
        let template = code[&indexes[rng.below(indexes.len())]];
        let mut forged = template.to_vec();
        forged[73..77].copy_from_slice(&at.to_le_bytes());
        forged[87..89].copy_from_slice(&position.to_le_bytes());
        let mut packets: Vec<&Vec<u8>> = code.values().copied().collect();
        packets.push(&forged);
        rng.shuffle(&mut packets);
        let store = Blockstore::in_memory();
        let mut kinds = Vec::new();
        for call in packets.chunks(1 + rng.below(5)) {
            let out = store
                .insert_shreds_with(call, legacy_shapes())
                .expect("insert");
            kinds.extend(out.duplicate_slots.iter().map(|d| d.kind));
        }
        if consistent {
            assert!(kinds.is_empty(), "seed {seed}: {kinds:?}");
            let stored = store.code_shred(SLOT, ShredIndex(at)).expect("read");
            assert_eq!(stored.as_ref(), Some(&forged), "seed {seed}");
            continue;
        }
        // Honest shreds admit only their own index or 128, and two of them share only 128,
        // which the forged shred does not admit.
        assert_eq!(
            kinds,
            vec![DuplicateKind::ErasureConfigConflict],
            "seed {seed}"
        );
        let proof = store
            .duplicate_slot_proof(SLOT)
            .expect("read")
            .expect("proof");
        assert!(
            [&proof.shred1, &proof.shred2].contains(&&forged),
            "seed {seed}"
        );
        assert!(
            !readings(&proof.shred1).agrees_with(&readings(&proof.shred2)),
            "seed {seed}: the proof's shreds share a reading"
        );
    }
}
