//! The contract of `ledger/src/store/kv.rs`, one generic check per rule. Every check takes a
//! fresh, empty, read-write engine and panics (fails its test) on the first breach.

use bstore_ledger::LedgerError;
use bstore_ledger::store::kv::{Direction, KvBatch, KvCursor};
use bstore_ledger::store::{AccessMode, Column, KvEngine, columns};

/// Two columns every engine has; the suite writes raw bytes (no rule here decodes them).
const A: &str = columns::Root::NAME;
const B: &str = columns::DeadSlots::NAME;
/// A column no engine has.
const MISSING: &str = "no_such_column";

type Entries = Vec<(Vec<u8>, Vec<u8>)>;

/// The value stored under `key` by these checks: tells which key it belongs to.
fn value_of(key: &[u8]) -> Vec<u8> {
    let mut v = vec![0xAA];
    v.extend_from_slice(key);
    v
}

fn put_all<E: KvEngine>(engine: &E, cf: &'static str, keys: &[&[u8]]) {
    let mut batch = engine.batch().expect("batch");
    for key in keys {
        batch.put(cf, key, &value_of(key)).expect("put");
    }
    engine.write(batch).expect("write");
}

fn get<E: KvEngine>(engine: &E, cf: &'static str, key: &[u8]) -> Option<Vec<u8>> {
    engine.get_pinned(cf, key).expect("get").map(|v| v.to_vec())
}

fn scan<E: KvEngine>(
    engine: &E,
    cf: &'static str,
    lower: &[u8],
    upper: Option<&[u8]>,
    direction: Direction,
) -> Entries {
    let mut cursor = engine.cursor(cf, lower, upper, direction);
    let mut out = Vec::new();
    while let Some(item) = cursor.advance() {
        let (k, v) = item.expect("cursor step");
        out.push((k.to_vec(), v.to_vec()));
    }
    assert!(cursor.advance().is_none(), "an ended cursor stays ended");
    out
}

fn all<E: KvEngine>(engine: &E, cf: &'static str) -> Entries {
    scan(engine, cf, &[], None, Direction::Forward)
}

/// What `scan` must return for `keys` stored by `put_all`.
fn entries(keys: &[&[u8]]) -> Entries {
    keys.iter().map(|k| (k.to_vec(), value_of(k))).collect()
}

fn slot_keys(slots: impl Iterator<Item = u64>) -> Vec<[u8; 8]> {
    slots.map(u64::to_be_bytes).collect()
}

pub(super) fn missing_column_reads_empty_and_refuses_writes<E: KvEngine>(engine: &E) {
    assert_eq!(get(engine, MISSING, b"k"), None);
    let many = engine
        .multi_get_pinned(MISSING, &[b"a", b"b"])
        .expect("multi-get of a missing column");
    assert!(
        many.len() == 2 && many.iter().all(Option::is_none),
        "{many:?}"
    );
    assert!(all(engine, MISSING).is_empty());
    assert_eq!(engine.estimate_num_keys(MISSING).expect("estimate"), 0);
    let mut batch = engine.batch().expect("batch");
    for (op, result) in [
        ("put", batch.put(MISSING, b"k", b"v")),
        ("delete", batch.delete(MISSING, b"k")),
        ("delete_range", batch.delete_range(MISSING, b"a", b"z")),
    ] {
        match result {
            Err(LedgerError::ColumnNotOpen { column }) => assert_eq!(column, MISSING),
            other => panic!("{op} on a missing column: {other:?}"),
        }
    }
}

pub(super) fn get_returns_the_last_value_put<E: KvEngine>(engine: &E) {
    assert_eq!(get(engine, A, b"k"), None, "an empty engine holds nothing");
    let mut batch = engine.batch().expect("batch");
    batch.put(A, b"k", b"one").expect("put");
    batch.put(A, b"empty", b"").expect("put");
    engine.write(batch).expect("write");
    let mut batch = engine.batch().expect("batch");
    batch.put(A, b"k", b"two").expect("put");
    engine.write(batch).expect("write");
    assert_eq!(get(engine, A, b"k").as_deref(), Some(&b"two"[..]));
    assert_eq!(
        get(engine, A, b"empty").as_deref(),
        Some(&b""[..]),
        "an empty value is stored, not absent"
    );
    assert_eq!(get(engine, B, b"k"), None, "columns are separate");
    assert_eq!(get(engine, A, b"k\0"), None, "keys match exactly");
}

pub(super) fn batch_applies_all_or_nothing_in_order<E: KvEngine>(engine: &E) {
    let mut batch = engine.batch().expect("batch");
    batch.put(A, b"a", b"1").expect("put");
    batch.put(B, b"b", b"2").expect("put");
    assert_eq!(
        get(engine, A, b"a"),
        None,
        "nothing is seen before the write"
    );
    drop(batch);
    assert!(all(engine, A).is_empty() && all(engine, B).is_empty());

    // A refused operation leaves the batch unwritten by its caller: nothing lands.
    let mut batch = engine.batch().expect("batch");
    batch.put(A, b"a", b"1").expect("put");
    assert!(batch.put(MISSING, b"x", b"y").is_err());
    drop(batch);
    assert!(all(engine, A).is_empty());

    let mut batch = engine.batch().expect("batch");
    batch.put(A, b"a", b"1").expect("put");
    batch.put(B, b"b", b"2").expect("put");
    // Operations apply in the order they were added.
    batch.put(A, b"gone", b"x").expect("put");
    batch.delete(A, b"gone").expect("delete");
    batch.delete_range(B, b"c", b"e").expect("delete_range");
    batch.put(B, b"d", b"back").expect("put");
    engine.write(batch).expect("write");
    assert_eq!(all(engine, A), [(b"a".to_vec(), b"1".to_vec())]);
    assert_eq!(
        all(engine, B),
        [
            (b"b".to_vec(), b"2".to_vec()),
            (b"d".to_vec(), b"back".to_vec())
        ]
    );
}

/// A writer rewrites two keys of one column in each batch; every cursor opened meanwhile
/// sees both keys with the same value (a whole batch, never half of one).
pub(super) fn concurrent_readers_see_whole_batches<E: KvEngine>(engine: &E) {
    const BATCHES: u32 = 300;
    let write = |i: u32| {
        let mut batch = engine.batch().expect("batch");
        batch.put(A, b"left", &i.to_be_bytes()).expect("put");
        batch.put(A, b"right", &i.to_be_bytes()).expect("put");
        engine.write(batch).expect("write");
    };
    write(0);
    std::thread::scope(|s| {
        let writer = s.spawn(move || (1..=BATCHES).for_each(write));
        let mut views = 0u32;
        loop {
            let done = writer.is_finished();
            let seen = all(engine, A);
            assert_eq!(seen.len(), 2, "{seen:?}");
            assert_eq!(seen[0].1, seen[1].1, "a torn batch: {seen:?}");
            views += 1;
            if done {
                break;
            }
        }
        assert!(views > 0);
    });
    assert_eq!(
        get(engine, A, b"left"),
        Some(BATCHES.to_be_bytes().to_vec())
    );
}

pub(super) fn multi_get_answers_every_key_in_key_order<E: KvEngine>(engine: &E) {
    let stored = slot_keys([1, 3, 5, 300].into_iter());
    let refs: Vec<&[u8]> = stored.iter().map(|k| &k[..]).collect();
    put_all(engine, A, &refs);
    let asked = slot_keys([0, 1, 2, 3, 5, 6, 300, u64::MAX].into_iter());
    let got: Vec<Option<Vec<u8>>> = engine
        .multi_get_pinned(A, &asked)
        .expect("multi-get")
        .into_iter()
        .map(|v| v.map(|v| v.to_vec()))
        .collect();
    let want: Vec<Option<Vec<u8>>> = asked
        .iter()
        .map(|k| stored.contains(k).then(|| value_of(k)))
        .collect();
    assert_eq!(got, want);
    let none: [[u8; 8]; 0] = [];
    assert!(engine.multi_get_pinned(A, &none).expect("empty").is_empty());
}

pub(super) fn cursor_walks_forward_and_reverse_within_bounds<E: KvEngine>(engine: &E) {
    // Byte order, not length order: [2] < [2, 0] < [2, 255] < [3].
    let keys: [&[u8]; 7] = [&[1], &[2], &[2, 0], &[2, 255], &[3], &[4, 1], &[5]];
    put_all(engine, A, &keys);
    put_all(engine, B, &[&[2, 1]]);
    let fwd = scan(engine, A, &[2], Some(&[4]), Direction::Forward);
    assert_eq!(
        fwd,
        entries(&keys[1..5]),
        "lower inclusive, upper exclusive"
    );
    let mut rev = scan(engine, A, &[2], Some(&[4]), Direction::Reverse);
    rev.reverse();
    assert_eq!(rev, fwd, "reverse walks the same keys backwards");
    assert_eq!(
        scan(engine, A, &[2, 0], Some(&[3]), Direction::Forward),
        entries(&keys[2..4])
    );
    assert_eq!(
        scan(engine, A, &[4], None, Direction::Forward),
        entries(&keys[5..])
    );
    let mut to_end = scan(engine, A, &[3], None, Direction::Reverse);
    to_end.reverse();
    assert_eq!(to_end, entries(&keys[4..]), "None is the end of the column");
    assert_eq!(all(engine, A), entries(&keys));
    assert!(scan(engine, A, &[6], None, Direction::Forward).is_empty());
    assert!(scan(engine, A, &[2], Some(&[2]), Direction::Reverse).is_empty());
    assert!(scan(engine, A, &[0], Some(&[1]), Direction::Forward).is_empty());
}

/// The rest of a cursor's walk (after a seek).
fn rest<C: KvCursor>(cursor: &mut C) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    while let Some(item) = cursor.advance() {
        out.push(item.expect("cursor step").0.to_vec());
    }
    out
}

fn keys_of(keys: &[&[u8]]) -> Vec<Vec<u8>> {
    keys.iter().map(|k| k.to_vec()).collect()
}

pub(super) fn cursor_seeks_within_its_bounds_and_restarts<E: KvEngine>(engine: &E) {
    let keys: [&[u8]; 7] = [&[1], &[2], &[2, 0], &[2, 255], &[3], &[4, 1], &[5]];
    put_all(engine, A, &keys);
    // Forward over [2]..[4]: the first key at or after the target.
    let mut fwd = engine.cursor(A, &[2], Some(&[4]), Direction::Forward);
    fwd.seek(&[2, 1]);
    assert_eq!(rest(&mut fwd), keys_of(&keys[3..5]), "between two keys");
    assert!(fwd.advance().is_none(), "ended");
    fwd.seek(&[2, 0]);
    let (k, v) = fwd.advance().expect("an exact key").expect("step");
    assert_eq!((k, v), (&[2u8, 0][..], &value_of(&[2, 0])[..]));
    fwd.seek(&[0]);
    assert_eq!(
        rest(&mut fwd),
        keys_of(&keys[1..5]),
        "below lower: from lower"
    );
    fwd.seek(&[3, 0]);
    assert!(fwd.advance().is_none(), "past the last key below upper");
    fwd.seek(&[9]);
    assert!(fwd.advance().is_none(), "past upper");
    // Seeking backwards after a walk, then walking on.
    fwd.seek(&[2, 255]);
    assert_eq!(rest(&mut fwd), keys_of(&keys[3..5]));
    // Reverse over [2]..[4]: the last key at or before the target.
    let mut rev = engine.cursor(A, &[2], Some(&[4]), Direction::Reverse);
    rev.seek(&[2, 1]);
    assert_eq!(
        rest(&mut rev),
        vec![vec![2, 0], vec![2]],
        "between two keys"
    );
    rev.seek(&[2, 255]);
    assert_eq!(rev.advance().expect("exact").expect("step").0, &[2, 255]);
    rev.seek(&[9]);
    assert_eq!(
        rest(&mut rev),
        vec![vec![3], vec![2, 255], vec![2, 0], vec![2]],
        "at or above upper: from the last key below it"
    );
    rev.seek(&[1, 255]);
    assert!(rev.advance().is_none(), "below lower");
    // A cursor over a column the engine does not have stays empty.
    let mut none = engine.cursor(MISSING, &[], None, Direction::Forward);
    none.seek(&[1]);
    assert!(none.advance().is_none());
    // A seek before any step is the first position.
    let mut fresh = engine.cursor(A, &[], None, Direction::Forward);
    fresh.seek(&[4]);
    assert_eq!(rest(&mut fresh), keys_of(&keys[5..]));
}

pub(super) fn delete_and_delete_range_remove_exactly_their_keys<E: KvEngine>(engine: &E) {
    let keys = slot_keys(0..10);
    let refs: Vec<&[u8]> = keys.iter().map(|k| &k[..]).collect();
    put_all(engine, A, &refs);
    put_all(engine, B, &refs);
    let mut batch = engine.batch().expect("batch");
    batch.delete(A, &keys[2]).expect("delete");
    batch
        .delete(A, &20u64.to_be_bytes())
        .expect("deleting an absent key");
    batch
        .delete_range(A, &keys[5], &keys[8])
        .expect("delete_range");
    batch
        .delete_range(A, &keys[9], &keys[9])
        .expect("an empty range");
    engine.write(batch).expect("write");
    let left: Vec<&[u8]> = [0, 1, 3, 4, 8, 9].iter().map(|&i| refs[i]).collect();
    assert_eq!(all(engine, A), entries(&left));
    assert_eq!(all(engine, B), entries(&refs), "other columns untouched");
    let mut batch = engine.batch().expect("batch");
    batch
        .delete_range(A, &0u64.to_be_bytes(), &u64::MAX.to_be_bytes())
        .expect("delete_range");
    engine.write(batch).expect("write");
    assert!(all(engine, A).is_empty());
}

pub(super) fn catch_up_is_a_no_op_on_a_primary<E: KvEngine>(engine: &E) {
    assert_eq!(engine.mode(), &AccessMode::ReadWrite);
    put_all(engine, A, &[b"k"]);
    engine.catch_up().expect("catch_up");
    engine.catch_up().expect("catch_up twice");
    assert_eq!(all(engine, A), entries(&[b"k"]));
}

pub(super) fn compact_range_keeps_live_data<E: KvEngine>(engine: &E) {
    let keys = slot_keys(0..50);
    let refs: Vec<&[u8]> = keys.iter().map(|k| &k[..]).collect();
    put_all(engine, A, &refs);
    let mut batch = engine.batch().expect("batch");
    batch
        .delete_range(A, &keys[10], &keys[20])
        .expect("delete_range");
    batch.delete(A, &keys[25]).expect("delete");
    engine.write(batch).expect("write");
    let live: Vec<&[u8]> = (0..50)
        .filter(|i| !(10..20).contains(i) && *i != 25)
        .map(|i| refs[i])
        .collect();
    engine
        .compact_range(A, &keys[5], &keys[30])
        .expect("compact part");
    assert_eq!(all(engine, A), entries(&live));
    engine
        .compact_range(A, &[], &[0xFF; 9])
        .expect("compact all");
    assert_eq!(all(engine, A), entries(&live));
    engine
        .compact_range(MISSING, &[], &[0xFF])
        .expect("compacting a missing column");
    put_all(engine, A, &[&keys[15]]);
    assert_eq!(get(engine, A, &keys[15]), Some(value_of(&keys[15])));
}

pub(super) fn estimate_num_keys_is_sane<E: KvEngine>(engine: &E) {
    assert_eq!(engine.estimate_num_keys(A).expect("estimate"), 0);
    let keys = slot_keys(0..200);
    let refs: Vec<&[u8]> = keys.iter().map(|k| &k[..]).collect();
    put_all(engine, A, &refs);
    let n = refs.len() as u64;
    for stage in ["after puts", "after compaction"] {
        let estimate = engine.estimate_num_keys(A).expect("estimate");
        assert!(
            (n / 2..=n * 2).contains(&estimate),
            "{stage}: {estimate} keys estimated, {n} stored"
        );
        engine.compact_range(A, &[], &[0xFF; 9]).expect("compact");
    }
    assert_eq!(engine.estimate_num_keys(B).expect("estimate"), 0);
}

/// RocksDB refuses a batch holding an inverted delete range; every engine must, so a rule
/// that sends one fails the same way on each.
pub(super) fn inverted_delete_range_refuses_the_whole_batch<E: KvEngine>(engine: &E) {
    put_all(engine, A, &[b"b"]);
    let mut batch = engine.batch().expect("batch");
    batch.put(B, b"new", b"v").expect("put");
    let refused = batch
        .delete_range(A, b"c", b"a")
        .and_then(|()| engine.write(batch));
    assert!(refused.is_err(), "an inverted delete range was accepted");
    assert_eq!(all(engine, A), entries(&[b"b"]));
    assert!(
        all(engine, B).is_empty(),
        "nothing of the refused batch landed"
    );
}
