//! The transaction memo changes how much of a block a lookup reads, never its answer: in any
//! order, on either read path, with hints planted wrong, every lookup gives the position and
//! bytes the whole-block fetch gives.

use super::*;
use crate::Hash;
use crate::fetch::fetch_block_views;
use crate::store::MemEngine;
use crate::synth::{SlotGenerator, SlotSpec};

/// A transaction's first signature and bytes.
type Tx = ([u8; 64], Vec<u8>);

/// A full block of many data sets in memory, and its transactions in block order.
fn block() -> (Blockstore<MemEngine>, Slot, Vec<Tx>) {
    let store = Blockstore::in_memory();
    let spec = SlotSpec {
        data_shreds: 160,
        ..SlotSpec::default()
    };
    let g = SlotGenerator::new(11, 1)
        .generate(Slot(20), Slot(19), Hash::default(), spec)
        .expect("generate");
    store.insert_shreds(&g.data_shreds).expect("insert");
    let meta = store.meta(g.slot).expect("read").expect("meta");
    assert!(meta.is_full(), "a full block");
    let mut buf = FetchBuffer::new();
    let views = fetch_block_views(&store, g.slot, &meta, &mut buf).expect("whole block");
    assert!(views.sets.len() > 4, "several data sets");
    let txs = views
        .sets
        .iter()
        .flat_map(|s| s.entries.transactions())
        .map(|t| (*t.first_signature().expect("signed"), t.bytes().to_vec()))
        .collect();
    (store, g.slot, txs)
}

fn check(store: &Blockstore<MemEngine>, slot: Slot, txs: &[Tx], order: &[usize]) {
    let meta = store.meta(slot).expect("read").expect("meta");
    let mut buf = FetchBuffer::new();
    for &i in order {
        let (signature, bytes) = &txs[i];
        let found = store
            .find_block_transaction(slot, &meta, signature, &mut buf)
            .expect("lookup")
            .expect("found");
        assert_eq!(found.index as usize, i, "position of transaction {i}");
        assert_eq!(found.transaction.bytes(), bytes.as_slice(), "bytes of {i}");
    }
}

/// Every transaction of `txs` is located in the one set the memo names, at its position
/// and with its bytes.
fn check_located(store: &Blockstore<MemEngine>, slot: Slot, txs: &[Tx]) {
    let meta = store.meta(slot).expect("read").expect("meta");
    let mut buf = FetchBuffer::new();
    for (i, (signature, bytes)) in txs.iter().enumerate() {
        match store
            .find_located_transaction(slot, &meta, signature, &mut buf)
            .expect("lookup")
        {
            Located::Found(found) => {
                assert_eq!(found.index as usize, i, "position of {i}");
                assert_eq!(found.transaction.bytes(), bytes.as_slice());
            }
            Located::Unlocated => panic!("transaction {i} not located"),
        }
    }
}

#[test]
fn lookups_in_any_order_answer_as_the_whole_block_does() {
    for path in [ReadPath::Scan, ReadPath::MultiGet] {
        let (store, slot, txs) = block();
        store.set_read_path(path);
        let n = txs.len();
        let forward: Vec<usize> = (0..n).collect();
        let backward: Vec<usize> = (0..n).rev().collect();
        // Middle first (the walk stops there and resumes later), then both ends, then all.
        let scattered: Vec<usize> = [n / 2, n - 1, 0]
            .into_iter()
            .chain((0..n).map(|i| (i * 7 + 3) % n))
            .collect();
        check(&store, slot, &txs, &scattered);
        check(&store, slot, &txs, &backward);
        check(&store, slot, &txs, &forward);
        // A fresh store, looked up from the end first: one walk over the whole block.
        let (store, slot, txs) = block();
        store.set_read_path(path);
        check(&store, slot, &txs, &backward);
        check(&store, slot, &txs, &forward);
        let meta = store.meta(slot).expect("read").expect("meta");
        let mut buf = FetchBuffer::new();
        let absent = store
            .find_block_transaction(slot, &meta, &[0xEE; 64], &mut buf)
            .expect("lookup");
        assert!(absent.is_none(), "{path:?}: not in the block");
    }
}

#[test]
fn a_wrong_hint_costs_a_walk_not_a_wrong_answer() {
    let (store, slot, txs) = block();
    let meta = store.meta(slot).expect("read").expect("meta");
    let plan = store
        .plan(slot, block_start(&meta), AllowDead::No)
        .expect("plan")
        .expect("a plan");
    let key = MemoKey::new(block_start(&meta), meta.first_shred_timestamp, &plan.ranges);
    let last = txs.len() - 1;
    let wrong_set = SetHint {
        set_start: plan.ranges[0].start,
        tx_base: 999,
    };
    let beyond = SetHint {
        set_start: plan.ranges[plan.ranges.len() - 1].start,
        tx_base: 5,
    };
    // The last transaction hinted into the first set; the first one hinted past its set.
    store.tx_memo.record(
        slot,
        key,
        &[(signature_prefix(&txs[last].0), wrong_set)],
        Some(beyond),
        false,
    );
    check(&store, slot, &txs, &[last, 0, 1]);
    // A hint naming a set the block does not have.
    let nowhere = SetHint {
        set_start: 7777,
        tx_base: 0,
    };
    store.tx_memo.record(
        slot,
        key,
        &[(signature_prefix(&txs[2].0), nowhere)],
        Some(nowhere),
        false,
    );
    check(&store, slot, &txs, &[2, 3, last]);
}

#[test]
fn a_block_not_yet_full_is_not_remembered() {
    let store = Blockstore::in_memory();
    let spec = SlotSpec {
        data_shreds: 96,
        ..SlotSpec::default()
    };
    let g = SlotGenerator::new(12, 1)
        .generate(Slot(30), Slot(29), Hash::default(), spec)
        .expect("generate");
    // Every shred but the last: the completed sets are readable, the block is not full.
    let (last, rest) = g.data_shreds.split_last().expect("shreds");
    store.insert_shreds(rest).expect("insert");
    let meta = store.meta(g.slot).expect("read").expect("meta");
    assert!(!meta.is_full());
    let mut buf = FetchBuffer::new();
    let views = fetch_block_views(&store, g.slot, &meta, &mut buf).expect("partial block");
    let first = *views
        .sets
        .iter()
        .flat_map(|s| s.entries.transactions())
        .next()
        .expect("a transaction")
        .first_signature()
        .expect("signed");
    let found = store
        .find_block_transaction(g.slot, &meta, &first, &mut buf)
        .expect("lookup");
    assert_eq!(found.map(|f| f.index), Some(0));
    assert_eq!(store.tx_memo.bytes(), 0, "nothing remembered");
    // Full now: the next lookup is remembered.
    store.insert_shreds([last]).expect("insert");
    let meta = store.meta(g.slot).expect("read").expect("meta");
    assert!(meta.is_full());
    let found = store
        .find_block_transaction(g.slot, &meta, &first, &mut buf)
        .expect("lookup");
    assert_eq!(found.map(|f| f.index), Some(0));
    assert!(store.tx_memo.bytes() > 0, "remembered once full");
}

#[test]
fn a_located_lookup_reads_one_named_set_or_nothing() {
    let (store, slot, txs) = block();
    let meta = store.meta(slot).expect("read").expect("meta");
    let mut buf = FetchBuffer::new();
    let last = txs.len() - 1;
    // Nothing walked yet: not located, and nothing is walked to locate it.
    assert_eq!(store.located_transaction_set_shreds(&txs[last].0), None);
    let located = store
        .find_located_transaction(slot, &meta, &txs[last].0, &mut buf)
        .expect("lookup");
    assert!(matches!(located, Located::Unlocated));
    assert_eq!(store.tx_memo.bytes(), 0, "nothing walked");
    // After one walk over the whole block, every transaction is located in its set.
    check(&store, slot, &txs, &[last]);
    let plan = store
        .plan(slot, block_start(&meta), AllowDead::No)
        .expect("plan")
        .expect("a plan");
    let widest = plan.ranges.iter().map(|r| r.end - r.start).max();
    for (signature, _) in &txs {
        assert_eq!(store.located_transaction_set_shreds(signature), widest);
    }
    check_located(&store, slot, &txs);
    // A hint that does not hold: unlocated, and the memo is left as it was.
    let key = MemoKey::new(block_start(&meta), meta.first_shred_timestamp, &plan.ranges);
    let wrong = SetHint {
        set_start: plan.ranges[0].start,
        tx_base: 0,
    };
    store.tx_memo.record(
        slot,
        key,
        &[(signature_prefix(&txs[last].0), wrong)],
        None,
        false,
    );
    let before = store.tx_memo.bytes();
    let located = store
        .find_located_transaction(slot, &meta, &txs[last].0, &mut buf)
        .expect("lookup");
    assert!(matches!(located, Located::Unlocated));
    assert_eq!(store.tx_memo.bytes(), before);
    check(&store, slot, &txs, &[last]);
}

#[test]
fn a_block_read_whole_locates_every_transaction() {
    use crate::fetch::{BlockReader, SlotRead};

    let (store, slot, txs) = block();
    let meta = store.meta(slot).expect("read").expect("meta");
    let mut buf = FetchBuffer::new();
    store
        .block(slot, SlotRead::Unread, &mut buf)
        .expect("read")
        .expect("a block");
    let bytes = store.tx_memo.bytes();
    assert!(bytes > 0, "remembered");
    // Read again: already known whole, nothing recorded again.
    store
        .block(slot, SlotRead::Checked(meta.clone()), &mut buf)
        .expect("read")
        .expect("a block");
    assert_eq!(store.tx_memo.bytes(), bytes);
    check_located(&store, slot, &txs);
    // With the memo off, a block read remembers nothing.
    let (store, slot, _) = block();
    store.set_transaction_memo_budget(0);
    store
        .block(slot, SlotRead::Unread, &mut buf)
        .expect("read")
        .expect("a block");
    assert_eq!(store.tx_memo.bytes(), 0);
}
