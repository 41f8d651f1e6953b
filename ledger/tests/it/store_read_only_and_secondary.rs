//! A read-only instance and a secondary instance see what a live read-write instance wrote;
//! the secondary follows new writes after `catch_up`. Neither may write.
#![cfg(feature = "storage")]

use crate::store_support;

use bstore_ledger::LedgerError;
use bstore_ledger::shred::ShredRef;
use bstore_ledger::store::{AccessMode, Blockstore};
use store_support::{SlotExpectation, open_rw, testnet};

#[test]
fn read_only_and_secondary_see_the_writer() {
    let (packets, expected) = testnet();
    let want = SlotExpectation::from_json(&expected["shreds"]);
    let (first, second): (Vec<&Vec<u8>>, Vec<&Vec<u8>>) = packets
        .iter()
        .partition(|p| ShredRef::parse(p).expect("parse").index().0 < 160);
    let dir = tempfile::tempdir().expect("tempdir");
    let secondary_dir = tempfile::tempdir().expect("tempdir");

    let writer = open_rw(dir.path());
    writer.insert_shreds(&first).expect("insert first half");
    writer.set_roots([want.slot]).expect("root");

    let read_only = Blockstore::open(dir.path(), AccessMode::ReadOnly).expect("read-only");
    let secondary = Blockstore::open(
        dir.path(),
        AccessMode::Secondary {
            secondary_path: secondary_dir.path().to_path_buf(),
        },
    )
    .expect("secondary");
    for reader in [&read_only, &secondary] {
        let meta = reader.meta(want.slot).expect("read").expect("meta");
        assert_eq!(meta.consumed, 160, "{:?}", reader.access_mode());
        assert!(reader.is_root(want.slot).expect("root"));
        assert!(!meta.is_full());
    }

    writer.insert_shreds(&second).expect("insert second half");
    secondary.catch_up().expect("catch up");
    let meta = secondary.meta(want.slot).expect("read").expect("meta");
    want.check_meta(&meta, "secondary after catch-up");
    assert!(meta.is_full());
    for p in &second {
        let index = ShredRef::parse(p).expect("parse").index();
        assert!(
            secondary
                .data_shred(want.slot, index)
                .expect("read")
                .is_some()
        );
    }

    for reader in [&read_only, &secondary] {
        assert!(matches!(
            reader.insert_shreds(&first),
            Err(LedgerError::NotWritable { .. })
        ));
        assert!(matches!(
            reader.set_roots([want.parent]),
            Err(LedgerError::NotWritable { .. })
        ));
    }
    assert!(Blockstore::open(&dir.path().join("missing"), AccessMode::ReadOnly).is_err());
}

/// A secondary remembers the ledger's ends between catch-ups and forgets them at each one;
/// a read-write store reads them every time.
#[test]
fn a_secondary_remembers_the_ledgers_ends_until_it_catches_up() {
    use bstore_ledger::Slot;
    use bstore_ledger::store::LedgerEnd;
    use std::cell::Cell;

    let dir = tempfile::tempdir().expect("tempdir");
    let secondary_dir = tempfile::tempdir().expect("tempdir");
    let writer = open_rw(dir.path());
    writer.set_roots([Slot(10), Slot(20)]).expect("roots");
    let secondary = Blockstore::open(
        dir.path(),
        AccessMode::Secondary {
            secondary_path: secondary_dir.path().to_path_buf(),
        },
    )
    .expect("secondary");
    assert_eq!(secondary.max_root().expect("max"), Some(Slot(20)));
    assert_eq!(secondary.lowest_root().expect("low"), Some(Slot(10)));

    writer.set_roots([Slot(5), Slot(30)]).expect("more roots");
    // The writer sees its own roots at once.
    assert_eq!(writer.max_root().expect("max"), Some(Slot(30)));
    assert_eq!(writer.lowest_root().expect("low"), Some(Slot(5)));
    // The secondary's view has not moved yet, then moves with the catch-up.
    assert_eq!(secondary.max_root().expect("max"), Some(Slot(20)));
    secondary.catch_up().expect("catch up");
    assert_eq!(secondary.max_root().expect("max"), Some(Slot(30)));
    assert_eq!(secondary.lowest_root().expect("low"), Some(Slot(5)));

    let reads = Cell::new(0u64);
    let read = || -> Result<Option<Slot>, LedgerError> {
        reads.set(reads.get() + 1);
        Ok(Some(Slot(reads.get())))
    };
    let first = secondary
        .remembered_end(LedgerEnd::FirstAvailableBlock, read)
        .expect("first");
    let again = secondary
        .remembered_end(LedgerEnd::FirstAvailableBlock, read)
        .expect("again");
    assert_eq!(
        (first, again, reads.get()),
        (Some(Slot(1)), Some(Slot(1)), 1)
    );
    secondary.catch_up().expect("catch up");
    let after = secondary
        .remembered_end(LedgerEnd::FirstAvailableBlock, read)
        .expect("after");
    assert_eq!((after, reads.get()), (Some(Slot(2)), 2));
    // A failed read is not remembered.
    let failed: Result<Option<Slot>, &str> =
        secondary.remembered_end(LedgerEnd::LowestRoot, || Err("disk"));
    assert_eq!(failed, Err("disk"));
    assert_eq!(secondary.lowest_root().expect("low"), Some(Slot(5)));

    writer
        .remembered_end(LedgerEnd::FirstAvailableBlock, read)
        .expect("rw");
    writer
        .remembered_end(LedgerEnd::FirstAvailableBlock, read)
        .expect("rw");
    assert_eq!(reads.get(), 4, "a read-write store reads every time");
}

/// A secondary remembers rooted slots and their block times across calls (one read each),
/// never a slot found unrooted or a time found missing (the writer may add them), and
/// forgets what a purge removed, from the bottom or to the top, at its next catch-up.
#[test]
fn a_secondary_remembers_roots_and_block_times_until_they_are_purged() {
    use bstore_ledger::Slot;
    use bstore_ledger::store::{FaultEngine, FaultPoint, OpenOptions, RocksEngine};

    let dir = tempfile::tempdir().expect("tempdir");
    let secondary_dir = tempfile::tempdir().expect("tempdir");
    let writer = open_rw(dir.path());
    writer
        .set_roots([Slot(10), Slot(20), Slot(30), Slot(40)])
        .expect("roots");
    writer.set_block_time(Slot(20), 1_000).expect("time");
    let mode = AccessMode::Secondary {
        secondary_path: secondary_dir.path().to_path_buf(),
    };
    let engine = RocksEngine::open_with(dir.path(), &OpenOptions::for_mode(mode)).expect("open");
    let secondary = Blockstore::with_engine(FaultEngine::new(engine), dir.path());
    let reads = || secondary.faults().seen(FaultPoint::Read);

    // Rooted: read once. Not rooted: read every time.
    assert!(secondary.is_root(Slot(20)).expect("root"));
    let before = reads();
    assert!(secondary.is_root(Slot(20)).expect("root"));
    assert_eq!(reads(), before, "a remembered root is not read again");
    assert!(!secondary.is_root(Slot(25)).expect("root"));
    assert!(!secondary.is_root(Slot(25)).expect("root"));
    assert_eq!(reads(), before + 2, "an unrooted slot is read every time");

    // A rooted slot's time: read once; a missing time is read again and seen once written.
    assert!(secondary.is_root(Slot(30)).expect("root"));
    assert_eq!(secondary.block_time(Slot(20)).expect("time"), Some(1_000));
    assert_eq!(secondary.block_time(Slot(30)).expect("time"), None);
    writer.set_block_time(Slot(30), 3_000).expect("time");
    secondary.catch_up().expect("catch up");
    let before = reads();
    assert_eq!(secondary.block_time(Slot(20)).expect("time"), Some(1_000));
    assert_eq!(reads(), before, "a remembered time is not read again");
    assert_eq!(
        secondary
            .block_times(&[Slot(30), Slot(20), Slot(25)])
            .expect("times"),
        vec![Some(3_000), Some(1_000), None]
    );
    assert_eq!(
        reads(),
        before + 1,
        "one multi-get for the times not remembered"
    );
    assert_eq!(secondary.block_time(Slot(30)).expect("time"), Some(3_000));
    assert_eq!(reads(), before + 1);

    // A purge from the bottom and one to the top: both are forgotten after the catch-up.
    assert!(secondary.is_root(Slot(40)).expect("root"));
    writer.purge_slots(Slot(0), Slot(20)).expect("purge bottom");
    writer.purge_slots(Slot(35), Slot(50)).expect("purge top");
    secondary.catch_up().expect("catch up");
    for gone in [Slot(10), Slot(20), Slot(40)] {
        assert!(!secondary.is_root(gone).expect("root"), "{gone:?}");
        assert_eq!(secondary.block_time(gone).expect("time"), None, "{gone:?}");
    }
    assert!(secondary.is_root(Slot(30)).expect("root"));
    assert_eq!(secondary.block_time(Slot(30)).expect("time"), Some(3_000));
}

/// A secondary sees its writer's purge at its next catch-up though the writer writes
/// nothing after it: the purge's compaction flushes the memtables, and without the purge's
/// last write (`wake_followers`) the secondary would keep answering the purged rows it had
/// replayed before, in every column not written again.
#[test]
fn a_secondary_sees_a_purge_with_nothing_written_after_it() {
    use bstore_ledger::Slot;

    for reclaiming in [false, true] {
        let dir = tempfile::tempdir().expect("tempdir");
        let secondary_dir = tempfile::tempdir().expect("tempdir");
        let writer = open_rw(dir.path());
        writer.set_roots([Slot(10), Slot(20)]).expect("roots");
        writer.set_block_time(Slot(10), 1_000).expect("time");
        writer.set_dead_slot(Slot(15)).expect("dead");
        let secondary = Blockstore::open(
            dir.path(),
            AccessMode::Secondary {
                secondary_path: secondary_dir.path().to_path_buf(),
            },
        )
        .expect("secondary");
        assert!(secondary.is_root(Slot(10)).expect("root"));
        assert!(secondary.is_dead(Slot(15)).expect("dead"));
        if reclaiming {
            writer
                .purge_slots_reclaiming(Slot(0), Slot(15))
                .expect("purge");
        } else {
            writer.purge_slots(Slot(0), Slot(15)).expect("purge");
        }
        secondary.catch_up().expect("catch up");
        let seen = (
            secondary.is_root(Slot(10)).expect("root"),
            secondary.block_time(Slot(10)).expect("time"),
            secondary.is_dead(Slot(15)).expect("dead"),
            secondary.lowest_root().expect("lowest"),
        );
        assert_eq!(
            seen,
            (false, None, false, Some(Slot(20))),
            "reclaiming {reclaiming}"
        );
    }
}

/// RPC's confirmed chain is remembered on a secondary per catch-up and per key (window and
/// tip), and read every time on a read-write store.
#[test]
fn a_secondary_remembers_the_confirmed_chain_per_catch_up_and_key() {
    use bstore_ledger::Slot;
    use bstore_ledger::store::ChainKey;
    use std::cell::Cell;

    let dir = tempfile::tempdir().expect("tempdir");
    let secondary_dir = tempfile::tempdir().expect("tempdir");
    let writer = open_rw(dir.path());
    let secondary = Blockstore::open(
        dir.path(),
        AccessMode::Secondary {
            secondary_path: secondary_dir.path().to_path_buf(),
        },
    )
    .expect("secondary");
    let reads = Cell::new(0u64);
    let read = || -> Result<Vec<Slot>, LedgerError> {
        reads.set(reads.get() + 1);
        Ok(vec![Slot(reads.get())])
    };
    let key = ChainKey {
        window: 100,
        tip: Some(Slot(7)),
    };
    let first = secondary.remembered_chain(key, read).expect("chain");
    let again = secondary.remembered_chain(key, read).expect("chain");
    assert_eq!(
        (&first[..], &again[..], reads.get()),
        (&[Slot(1)][..], &[Slot(1)][..], 1)
    );
    // Another tip or window is another chain.
    let other = ChainKey {
        tip: Some(Slot(8)),
        ..key
    };
    assert_eq!(
        &secondary.remembered_chain(other, read).expect("chain")[..],
        &[Slot(2)]
    );
    secondary.catch_up().expect("catch up");
    assert_eq!(
        &secondary.remembered_chain(other, read).expect("chain")[..],
        &[Slot(3)]
    );
    // A failed read is not kept.
    let failed = secondary.remembered_chain(key, || Err::<Vec<Slot>, _>("disk"));
    assert_eq!(failed.err(), Some("disk"));
    writer.remembered_chain(key, read).expect("rw");
    writer.remembered_chain(key, read).expect("rw");
    assert_eq!(reads.get(), 5, "a read-write store reads every time");
}
