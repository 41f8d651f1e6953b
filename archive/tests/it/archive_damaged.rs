//! Scenario: damaged or hostile objects give errors that name the object, never a panic, a
//! wrong block or an allocation past the read limits.

use crate::common;

use bstore_archive::{
    Archive, ArchiveError, ArchiveReader, ReadLimits, SigTable, build_range_index,
};
use bstore_ledger::Slot;
use object_store::{ObjectStoreExt, PutPayload};

fn put(archive: &Archive, key: &object_store::path::Path, bytes: Vec<u8>) {
    common::run(archive.object_store().put(key, PutPayload::from(bytes))).expect("puts");
}

fn get(archive: &Archive, key: &object_store::path::Path) -> Vec<u8> {
    common::run(async { archive.object_store().get(key).await?.bytes().await })
        .expect("gets")
        .to_vec()
}

#[test]
fn damaged_objects_are_named_errors() {
    let store = common::ledger(1, 12);
    let archive = Archive::in_memory();
    common::archive(&store, &archive, 8, None, None);
    let keys = archive.keys().clone();

    // A flipped byte in a block object.
    let mut block = get(&archive, &keys.block(Slot(3)));
    let mid = block.len() / 2;
    block[mid] ^= 0xff;
    put(&archive, &keys.block(Slot(3)), block);
    let reader = common::run(ArchiveReader::open(archive.clone())).expect("opens");
    let e = common::run(reader.block(Slot(3))).expect_err("corrupt");
    assert!(e.to_string().contains("blocks/0000000000000003"), "{e}");

    // A block object stored under another slot's name.
    let other = get(&archive, &keys.block(Slot(4)));
    put(&archive, &keys.block(Slot(5)), other);
    let e = common::run(reader.block(Slot(5))).expect_err("wrong slot");
    assert!(e.to_string().contains("holds slot 4, not 5"), "{e}");

    // A block object above the limit is refused before its body is read.
    let small = Archive::clone(&archive).with_limits(ReadLimits {
        block_object_bytes: 100,
        ..ReadLimits::default()
    });
    let r2 = common::run(ArchiveReader::open(small)).expect("opens");
    assert!(matches!(
        common::run(r2.block(Slot(6))),
        Err(ArchiveError::TooLarge { .. })
    ));

    // A truncated signature table of an unsealed slot fails the refresh that loads it.
    let mut sigs = get(&archive, &keys.sigs(Slot(10)));
    sigs.truncate(sigs.len() - 1);
    put(&archive, &keys.sigs(Slot(10)), sigs);
    let e = common::run(ArchiveReader::open(archive.clone())).expect_err("corrupt table");
    assert!(e.to_string().contains("sigs/000000000000000a"), "{e}");
}

#[test]
fn a_damaged_seal_is_caught_when_loaded() {
    let store = common::ledger(1, 12);
    let archive = Archive::in_memory();
    common::archive(&store, &archive, 8, None, None);
    let key = archive.keys().index(Slot(0), 7);
    let mut seal = get(&archive, &key);
    seal[70] ^= 1; // inside the slot list
    put(&archive, &key, seal);
    let e = common::run(ArchiveReader::open(archive.clone())).expect_err("corrupt seal");
    assert!(
        e.to_string().contains("index/0000000000000000-00000007"),
        "{e}"
    );
    assert!(e.to_string().contains("checksum"), "{e}");
}

#[test]
fn an_index_entry_pointing_at_the_wrong_transaction_is_an_error() {
    let store = common::ledger(1, 12);
    let archive = Archive::in_memory();
    common::archive(&store, &archive, 8, None, None);
    // Rebuild the seal of [0, 8) (slots 1..=7) with slot 3's indexes shifted by one: a seal
    // whose checksum is right but whose entries lie.
    let layout = bstore_archive::Layout::new(8).expect("layout");
    let mut tables: Vec<SigTable> = (1..=7)
        .map(|s| SigTable::from_record(&common::record(&store, Slot(s))).expect("table"))
        .collect();
    for (_, index) in &mut tables[2].entries {
        *index += 1;
    }
    let refs: Vec<&SigTable> = tables.iter().collect();
    let seal = build_range_index(&layout, Slot(0), &refs).expect("builds");
    put(&archive, &archive.keys().index(Slot(0), 7), seal);

    let reader = common::run(ArchiveReader::open(archive.clone())).expect("opens");
    let (sig, _) = common::signatures(&common::record(&store, Slot(3)))[0];
    let e = common::run(reader.transaction(&sig)).expect_err("a lying seal");
    assert!(e.to_string().contains("blocks/0000000000000003"), "{e}");
    assert!(
        e.to_string()
            .contains("not the one the signature index names"),
        "{e}"
    );
}

#[test]
fn too_many_unsealed_slots_are_refused_not_loaded() {
    // Ranges of 64 and 12 slots: nothing is closed, so all 12 are unsealed.
    let store = common::ledger(1, 12);
    let archive = Archive::in_memory();
    common::archive(&store, &archive, 64, None, None);
    let tight = archive.clone().with_limits(ReadLimits {
        unsealed_slots: 11,
        ..ReadLimits::default()
    });
    let e = common::run(ArchiveReader::open(tight)).expect_err("over the limit");
    assert!(matches!(e, ArchiveError::TooLarge { .. }), "{e}");
    let fits = archive.with_limits(ReadLimits {
        unsealed_slots: 12,
        ..ReadLimits::default()
    });
    common::run(ArchiveReader::open(fits)).expect("at the limit");
}
