//! Scenario: a leader equivocates. Agave's shredder makes two versions of one slot signed by
//! the same key (`gen --version-seed`); bstore ingests part of version A, then one shred of
//! version B, and must do what Agave 4.x's insert path does with the same shreds in the same
//! order (`insert --via window-service`): store the same duplicate-slot proof (read back by
//! Agave's `has_duplicate_shreds_in_slot` / `get_duplicate_slot`, both shreds valid by
//! Agave's shred API, the same bytes) or none (a chained-root conflict), and mark the slot
//! dead exactly when Agave does (a conflict in a slot that is not full). And the reverse: a
//! proof Agave stored is bstore's.

use super::*;

use bstore_interop_protocol::{DuplicateKind, DuplicateProofRead, DuplicateStored};
use bstore_ledger::store::DuplicateSlotProof;

/// The equivocated slot: two FEC sets of 32 data + 32 code shreds per version.
const SLOT: u64 = 900;
const SEED: u64 = 11;

/// Versions A and B of [`SLOT`].
struct Versions {
    a: Generated,
    b: Generated,
}

impl Versions {
    fn new(dir: &Path) -> Self {
        let a = Generated::version(dir, SLOT, 1, 64, SEED, 1);
        let b = Generated::version(dir, SLOT, 1, 64, SEED, 2);
        assert_eq!(a.leader(), b.leader(), "one leader signs both versions");
        assert_ne!(
            a.slots()[0].entries_sha256,
            b.slots()[0].entries_sha256,
            "the versions hold different entries"
        );
        Self { a, b }
    }

    fn leader(&self) -> &str {
        self.a.leader()
    }
}

/// Which shred: (is data, index within its kind).
type Pos = (bool, u32);

/// The payload of the shred at `pos` in `stream`.
fn shred_at(stream: &Path, pos: Pos) -> Vec<u8> {
    read_stream_file(stream)
        .expect("stream file")
        .into_iter()
        .find(|p| {
            let shred = ShredRef::parse(p).expect("a valid shred");
            (shred.is_data(), shred.index().0) == pos
        })
        .unwrap_or_else(|| panic!("no shred {pos:?} in {}", stream.display()))
}

/// The shreds of `src` that `keep(is_data, index)` selects, written to `dir/name`.
fn part(src: &Path, dir: &Path, name: &str, keep: impl Fn(bool, u32) -> bool) -> PathBuf {
    let dst = dir.join(name);
    let kept = filtered_stream(src, &dst, |is_data, _, index| keep(is_data, index));
    assert!(kept > 0, "{name}: no shred selected");
    dst
}

fn bstore_proof(ledger: &Path) -> Option<DuplicateSlotProof> {
    let store = Blockstore::open(ledger, AccessMode::ReadOnly).expect("bstore opens the ledger");
    store
        .duplicate_slot_proof(Slot(SLOT))
        .expect("bstore decodes the proof row")
}

/// Agave's `duplicate-proof` of [`SLOT`] (signatures checked against `leader`) and the
/// proof's two payloads as Agave returned them.
fn agave_proof(ledger: &Path, leader: &str) -> (DuplicateProofRead, Vec<Vec<u8>>) {
    let out = ledger.with_extension("agave-proof.bin");
    let read: DuplicateProofRead = agave(&[
        "duplicate-proof",
        "--ledger",
        s(ledger),
        "--slot",
        &SLOT.to_string(),
        "--leader",
        leader,
        "--out",
        s(&out),
    ]);
    assert!(read.has_duplicate, "Agave sees no proof: {read:?}");
    let shreds = read_stream_file(&out).expect("the proof Agave read");
    (read, shreds)
}

/// Both shreds of the proof parse with Agave's `Shred::new_from_serialized_shred`, pass
/// `sanitize`, are of [`SLOT`] and carry the leader's signature, and the pair shows `kind`.
fn assert_valid_for_agave(read: &DuplicateProofRead, kind: DuplicateKind) {
    let proof = read
        .proof
        .as_ref()
        .unwrap_or_else(|| panic!("Agave reads no proof: {read:?}"));
    assert!(proof.valid, "Agave rejects the proof: {read:?}");
    for (name, shred) in [("shred1", &proof.shred1), ("shred2", &proof.shred2)] {
        let shred = shred
            .parsed()
            .unwrap_or_else(|| panic!("{name} does not parse for Agave: {read:?}"));
        assert_eq!(shred.slot, SLOT, "{name}: {read:?}");
        assert!(shred.sanitize_ok, "{name}: {read:?}");
        assert_eq!(shred.signed_by_leader, Some(true), "{name}: {read:?}");
    }
    assert!(
        proof.conflicts.contains(&kind),
        "Agave's checks do not find a {} in the proof: {read:?}",
        kind.name()
    );
}

/// One collision of two versions.
struct Case {
    /// Name of the part files.
    name: &'static str,
    /// Shreds of version A inserted first.
    a_part: fn(bool, u32) -> bool,
    /// The one shred of version B inserted next.
    b_shred: Pos,
    /// The conflict (its name is bstore's `DuplicateKind` name).
    kind: DuplicateKind,
    /// The shred of A the proof must hold as shred1 (the stored one Agave compares with).
    shred1: Pos,
    /// Whether B's shred is stored (a chaining conflict is, as in Agave; the others not).
    b_stored: bool,
    /// Whether a proof is stored (Agave 4.x stores none for a chained-root conflict).
    proof: bool,
    /// Whether the slot ends dead (Agave 4.x: a conflict while the slot is not full).
    dead: bool,
}

fn collide(case: &Case) {
    let dir = tempfile::tempdir().expect("tempdir");
    let versions = Versions::new(dir.path());
    let leader = versions.leader();
    let a_file = part(&versions.a.stream, dir.path(), case.name, case.a_part);
    let b_file = part(&versions.b.stream, dir.path(), "b.bin", |d, i| {
        (d, i) == case.b_shred
    });

    let ledger = dir.path().join("by-bstore");
    let out = bstore_ingest(&ledger, &[&a_file], Some(leader));
    assert_eq!(
        (&out["duplicate_slots"], &out["rejected"]),
        (&json!([]), &json!(0)),
        "version A alone: {out}"
    );
    let out = bstore_ingest(&ledger, &[&b_file], Some(leader));
    let reported = match case.proof {
        true => json!([{"slot": SLOT, "kind": case.kind.name()}]),
        false => json!([]),
    };
    assert_eq!(out["duplicate_slots"], reported, "{out}");
    let marked = if case.dead { json!([SLOT]) } else { json!([]) };
    assert_eq!(out["slots_marked_dead"], marked, "{out}");
    assert_eq!(
        out["inserted"],
        u64::from(case.b_stored),
        "B's shred stored? {out}"
    );
    let proof = bstore_proof(&ledger);
    assert_eq!(proof.is_some(), case.proof, "bstore's proof");
    if let Some(proof) = &proof {
        assert!(
            proof.shred1 == shred_at(&versions.a.stream, case.shred1),
            "shred1 of bstore's proof is not A's shred {:?}",
            case.shred1
        );
        assert!(
            proof.shred2 == shred_at(&versions.b.stream, case.b_shred),
            "shred2 of bstore's proof is not B's shred"
        );
        // Agave reads bstore's proof, byte for byte, and finds it valid.
        let (read, shreds) = agave_proof(&ledger, leader);
        assert_valid_for_agave(&read, case.kind);
        assert!(
            shreds == [proof.shred1.clone(), proof.shred2.clone()],
            "Agave's get_duplicate_slot returns other bytes than bstore stored"
        );
    }
    let (summary, _) = agave_read(&ledger, SLOT);
    assert_eq!(summary.duplicate_proof, case.proof, "{summary:?}");
    assert_eq!(
        summary.dead, case.dead,
        "Agave reads bstore's dead flag: {summary:?}"
    );

    // Agave's own insert path, same shreds in the same order: the same proof, the same dead
    // flag, the same rows.
    let by_agave = dir.path().join("by-agave");
    let insert = |file: &Path| -> Inserted {
        agave(&[
            "insert",
            "--ledger",
            s(&by_agave),
            "--via",
            "window-service",
            s(file),
        ])
    };
    insert(&a_file);
    let found = insert(&b_file);
    assert!(
        found
            .possible_duplicates
            .iter()
            .any(|d| d.kind == case.kind),
        "Agave's insert finds no {}: {found:?}",
        case.kind.name()
    );
    let (theirs_summary, _) = agave_read(&by_agave, SLOT);
    assert_eq!(
        (theirs_summary.duplicate_proof, theirs_summary.dead),
        (case.proof, case.dead),
        "Agave's own insert: {theirs_summary:?}"
    );
    if let Some(proof) = proof {
        let (_, theirs) = agave_proof(&by_agave, leader);
        assert!(
            theirs == [proof.shred1, proof.shred2],
            "Agave stores another proof for the same shreds than bstore"
        );
    }
    let differences = column_differences(&ledger, &by_agave, SLOT);
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}

/// (i) All of version A, then B's data shred 5: two payloads at one position. B's shred is
/// not stored; the proof is (A's shred 5, B's shred 5).
#[test]
#[ignore = "needs the Agave tool; run scripts/interop-agave.sh"]
fn same_position_proof_from_agave_versions() {
    collide(&Case {
        name: "a-all.bin",
        a_part: |_, _| true,
        b_shred: (true, 5),
        kind: DuplicateKind::SamePosition,
        shred1: (true, 5),
        b_stored: false,
        proof: true,
        dead: false,
    });
}

/// (ii) A's data shreds 0..10, then B's data shred 20 (a free position of the same FEC
/// set, under another Merkle root): refused; the proof holds the set's first stored shred,
/// and the slot (not full) is marked dead.
#[test]
#[ignore = "needs the Agave tool; run scripts/interop-agave.sh"]
fn merkle_root_conflict_proof_from_agave_versions() {
    collide(&Case {
        name: "a-set0-head.bin",
        a_part: |is_data, index| is_data && index < 10,
        b_shred: (true, 20),
        kind: DuplicateKind::MerkleRootConflict,
        shred1: (true, 0),
        b_stored: false,
        proof: true,
        dead: true,
    });
}

/// (iii) A's first FEC set (its 32 data shreds and code shred 0, which gives the set's
/// shape), then B's data shred 32, the first of B's second set, which chains to B's first
/// root: stored, no proof (Agave 4.x), and the slot is marked dead.
#[test]
#[ignore = "needs the Agave tool; run scripts/interop-agave.sh"]
fn chained_merkle_root_conflict_from_agave_versions_marks_the_slot_dead() {
    collide(&Case {
        name: "a-set0.bin",
        a_part: |is_data, index| if is_data { index < 32 } else { index == 0 },
        b_shred: (true, 32),
        kind: DuplicateKind::ChainedMerkleRootConflict,
        shred1: (false, 0),
        b_stored: true,
        proof: false,
        dead: true,
    });
}

/// The reverse: Agave inserts version A and stores a proof with `store_duplicate_slot`
/// (A's and B's data shred 7). bstore reads it byte for byte, and a later conflict in the
/// slot is counted but not reported again, leaving Agave's proof in place.
#[test]
#[ignore = "needs the Agave tool; run scripts/interop-agave.sh"]
fn agave_stored_proof_is_bstores() {
    let dir = tempfile::tempdir().expect("tempdir");
    let versions = Versions::new(dir.path());
    let leader = versions.leader();
    let ledger = dir.path().join("by-agave");
    agave_insert(&ledger, &versions.a.stream, "all");
    let (shred1, shred2) = (
        shred_at(&versions.a.stream, (true, 7)),
        shred_at(&versions.b.stream, (true, 7)),
    );
    let proof_file = dir.path().join("proof.bin");
    let mut bytes = Vec::new();
    write_record(&mut bytes, &shred1);
    write_record(&mut bytes, &shred2);
    std::fs::write(&proof_file, bytes).expect("write the proof file");
    let stored: DuplicateStored = agave(&[
        "store-duplicate",
        "--ledger",
        s(&ledger),
        "--slot",
        &SLOT.to_string(),
        s(&proof_file),
    ]);
    assert!(stored.has_duplicate, "{stored:?}");

    let expected = DuplicateSlotProof { shred1, shred2 };
    assert_eq!(
        bstore_proof(&ledger).as_ref(),
        Some(&expected),
        "bstore reads Agave's proof"
    );
    let b5 = part(&versions.b.stream, dir.path(), "b5.bin", |d, i| {
        (d, i) == (true, 5)
    });
    let out = bstore_ingest(&ledger, &[&b5], Some(leader));
    assert_eq!(
        (
            &out["duplicate_slots"],
            &out["duplicates"],
            &out["inserted"]
        ),
        (&json!([]), &json!(1), &json!(0)),
        "a slot with a proof is not reported again: {out}"
    );
    assert_eq!(
        bstore_proof(&ledger).as_ref(),
        Some(&expected),
        "Agave's proof stays"
    );
    let (read, shreds) = agave_proof(&ledger, leader);
    assert_valid_for_agave(&read, DuplicateKind::SamePosition);
    assert!(shreds == [expected.shred1, expected.shred2]);
}
