use super::*;

fn sig(first: u8, rest: u8) -> [u8; 64] {
    let mut s = [rest; 64];
    s[0] = first;
    s
}

fn key(timestamp: u64) -> MemoKey {
    MemoKey::new(0, timestamp, &[0..4, 4..9, 9..12])
}

fn hint(set_start: u32, tx_base: u32) -> SetHint {
    SetHint { set_start, tx_base }
}

/// A memo holding slots `1..=n`, each a block of one transaction (`a`, in set 0).
fn one_tx_blocks(n: u64) -> (TxMemo, [u8; 64]) {
    let memo = TxMemo::default();
    let a = sig(1, 0);
    for slot in 1..=n {
        let seen = [(signature_prefix(&a), hint(0, 0))];
        memo.record(Slot(slot), key(7), &seen, None, false);
    }
    (memo, a)
}

#[test]
fn a_walked_block_answers_with_the_set_or_where_to_resume() {
    let memo = TxMemo::default();
    let (a, b, c) = (sig(1, 0), sig(2, 0), sig(3, 0));
    assert_eq!(memo.lookup(Slot(5), key(7), &a), Hint::Unknown);
    let seen = [
        (signature_prefix(&a), hint(0, 0)),
        (signature_prefix(&b), hint(4, 1)),
    ];
    memo.record(Slot(5), key(7), &seen, Some(hint(9, 3)), false);
    assert_eq!(memo.lookup(Slot(5), key(7), &a), Hint::Set(hint(0, 0)));
    assert_eq!(memo.lookup(Slot(5), key(7), &b), Hint::Set(hint(4, 1)));
    assert_eq!(memo.lookup(Slot(5), key(7), &c), Hint::ResumeAt(hint(9, 3)));
    // Another slot, or the same slot under another key (received again), knows nothing.
    assert_eq!(memo.lookup(Slot(6), key(7), &a), Hint::Unknown);
    assert_eq!(memo.lookup(Slot(5), key(8), &a), Hint::Unknown);
    // A walk resumed from there adds its sets; walked to the end, nothing is left to resume.
    memo.record(
        Slot(5),
        key(7),
        &[(signature_prefix(&c), hint(9, 3))],
        None,
        true,
    );
    assert_eq!(memo.lookup(Slot(5), key(7), &a), Hint::Set(hint(0, 0)));
    assert_eq!(memo.lookup(Slot(5), key(7), &c), Hint::Set(hint(9, 3)));
    assert_eq!(memo.lookup(Slot(5), key(7), &sig(4, 0)), Hint::Unknown);
}

#[test]
fn a_walk_from_the_start_or_under_a_new_key_replaces_the_block() {
    let memo = TxMemo::default();
    let (a, b) = (sig(1, 0), sig(2, 0));
    memo.record(
        Slot(5),
        key(7),
        &[(signature_prefix(&a), hint(0, 0))],
        None,
        false,
    );
    // Resumed under another key: the old sets are not kept.
    memo.record(
        Slot(5),
        key(8),
        &[(signature_prefix(&b), hint(4, 1))],
        None,
        true,
    );
    assert_eq!(memo.lookup(Slot(5), key(8), &a), Hint::Unknown);
    assert_eq!(memo.lookup(Slot(5), key(8), &b), Hint::Set(hint(4, 1)));
    // From the start under the same key: replaced too.
    memo.record(
        Slot(5),
        key(8),
        &[(signature_prefix(&a), hint(0, 0))],
        None,
        false,
    );
    assert_eq!(memo.lookup(Slot(5), key(8), &b), Hint::Unknown);
    assert_eq!(memo.bytes(), BLOCK_BYTES + ENTRY_BYTES);
}

#[test]
fn forgetting_a_range_drops_its_blocks_only() {
    let (memo, a) = one_tx_blocks(5);
    memo.forget(Slot(2), Slot(4));
    for slot in 1..=5 {
        let kept = memo.lookup(Slot(slot), key(7), &a) != Hint::Unknown;
        assert_eq!(kept, slot == 1 || slot == 5, "slot {slot}");
    }
    assert_eq!(memo.bytes(), 2 * (BLOCK_BYTES + ENTRY_BYTES));
}

#[test]
fn the_budget_evicts_the_lowest_slots_first() {
    let memo = TxMemo::default();
    // Blocks of 4,096 transactions: 131,200 estimated bytes each.
    let per_block = 4096;
    let block = |slot: u64| -> Vec<(u64, SetHint)> {
        (0..per_block)
            .map(|i| ((slot << 32) | i, hint(0, i as u32)))
            .collect()
    };
    let each = BLOCK_BYTES + per_block as usize * ENTRY_BYTES;
    let fit = (MEMO_BUDGET / each) as u64;
    for slot in 0..fit + 10 {
        memo.record(Slot(slot), key(7), &block(slot), None, false);
        assert!(memo.bytes() <= MEMO_BUDGET, "slot {slot}: {}", memo.bytes());
    }
    let probe = |slot: u64| {
        let mut s = [0u8; 64];
        s[..8].copy_from_slice(&((slot << 32) | 3).to_le_bytes());
        memo.lookup(Slot(slot), key(7), &s)
    };
    for slot in 0..10 {
        assert_eq!(probe(slot), Hint::Unknown, "slot {slot} evicted");
    }
    for slot in 10..fit + 10 {
        assert_eq!(probe(slot), Hint::Set(hint(0, 3)), "slot {slot} kept");
    }
    // A block larger than the whole budget is not remembered, and evicts nothing.
    let huge: Vec<(u64, SetHint)> = (0..(MEMO_BUDGET / ENTRY_BYTES) as u64 + 1)
        .map(|i| (i, hint(0, 0)))
        .collect();
    let before = memo.bytes();
    memo.record(Slot(u64::MAX), key(7), &huge, None, false);
    assert_eq!(memo.bytes(), before);
    assert_eq!(probe(fit + 9), Hint::Set(hint(0, 3)));
}

#[test]
fn a_smaller_budget_drops_the_lowest_slots_and_zero_remembers_nothing() {
    let (memo, a) = one_tx_blocks(4);
    let each = BLOCK_BYTES + ENTRY_BYTES;
    memo.set_budget(2 * each);
    assert_eq!(memo.bytes(), 2 * each);
    assert_eq!(memo.lookup(Slot(2), key(7), &a), Hint::Unknown);
    assert_eq!(memo.lookup(Slot(3), key(7), &a), Hint::Set(hint(0, 0)));
    memo.set_budget(0);
    assert_eq!(memo.bytes(), 0);
    memo.record(
        Slot(9),
        key(7),
        &[(signature_prefix(&a), hint(0, 0))],
        None,
        false,
    );
    assert_eq!(memo.lookup(Slot(9), key(7), &a), Hint::Unknown);
}

#[test]
fn a_located_transaction_names_its_blocks_widest_set_until_the_block_goes() {
    let (memo, a) = one_tx_blocks(3);
    // `key` has sets 0..4, 4..9 and 9..12: the widest has 5 shreds.
    assert_eq!(memo.located(&a), Some(5));
    assert_eq!(memo.located(&sig(9, 9)), None);
    // The latest slot recorded locates it; once that block is forgotten, nothing does.
    memo.forget(Slot(3), Slot(3));
    assert_eq!(memo.located(&a), None);
    let b = sig(2, 0);
    memo.record(
        Slot(9),
        key(7),
        &[(signature_prefix(&b), hint(4, 1))],
        None,
        false,
    );
    assert_eq!(memo.located(&b), Some(5));
    memo.set_budget(0);
    assert_eq!(memo.located(&b), None);
}

#[test]
fn a_resumed_walk_that_no_longer_fits_leaves_nothing_of_its_block() {
    let memo = TxMemo::default();
    let (a, b) = (sig(1, 0), sig(2, 0));
    memo.set_budget(BLOCK_BYTES + ENTRY_BYTES);
    memo.record(
        Slot(5),
        key(7),
        &[(signature_prefix(&a), hint(0, 0))],
        Some(hint(4, 1)),
        false,
    );
    assert_eq!(memo.located(&a), Some(5));
    // The resumed walk adds a second transaction: the block outgrows the budget and goes,
    // its index entries with it.
    memo.record(
        Slot(5),
        key(7),
        &[(signature_prefix(&b), hint(4, 1))],
        None,
        true,
    );
    assert_eq!(memo.bytes(), 0);
    assert_eq!(memo.located(&a), None);
    assert_eq!(memo.lookup(Slot(5), key(7), &a), Hint::Unknown);
    assert!(
        memo.inner.lock().expect("lock").located.is_empty(),
        "no stale entries"
    );
}

#[test]
fn a_blockhash_is_kept_under_its_key_only() {
    let memo = TxMemo::default();
    let h = Hash([9; 32]);
    // Nothing to note it on yet.
    memo.note_blockhash(Slot(5), key(7), h);
    assert_eq!(memo.blockhash(Slot(5), key(7)), None);

    memo.record(Slot(5), key(7), &[], None, false);
    assert_eq!(
        memo.blockhash(Slot(5), key(7)),
        None,
        "recorded without one"
    );
    memo.note_blockhash(Slot(5), key(8), h);
    assert_eq!(
        memo.blockhash(Slot(5), key(7)),
        None,
        "noted under another key"
    );
    memo.note_blockhash(Slot(5), key(7), h);
    assert_eq!(memo.blockhash(Slot(5), key(7)), Some(h));
    assert_eq!(
        memo.blockhash(Slot(5), key(8)),
        None,
        "received again: another key"
    );
    assert_eq!(memo.blockhash(Slot(6), key(7)), None);

    // A walk that continues the remembered one keeps it; one from the start drops it.
    memo.record(Slot(5), key(7), &[], None, true);
    assert_eq!(memo.blockhash(Slot(5), key(7)), Some(h));
    memo.record(Slot(5), key(7), &[], None, false);
    assert_eq!(memo.blockhash(Slot(5), key(7)), None);

    memo.note_blockhash(Slot(5), key(7), h);
    memo.forget(Slot(5), Slot(5));
    assert_eq!(memo.blockhash(Slot(5), key(7)), None, "purged");
}

#[test]
fn only_a_block_walked_to_its_end_takes_a_blockhash_from_a_known_read() {
    let memo = TxMemo::default();
    let h = Hash([3; 32]);
    assert!(!memo.note_blockhash_if_whole(Slot(5), key(7), h), "unknown");

    memo.record(Slot(5), key(7), &[], Some(hint(4, 2)), false);
    assert!(
        !memo.note_blockhash_if_whole(Slot(5), key(7), h),
        "walk stopped early"
    );
    assert_eq!(memo.blockhash(Slot(5), key(7)), None);

    memo.record(Slot(5), key(7), &[], None, true);
    assert!(
        !memo.note_blockhash_if_whole(Slot(5), key(8), h),
        "other key"
    );
    assert_eq!(memo.blockhash(Slot(5), key(7)), None);
    assert!(memo.note_blockhash_if_whole(Slot(5), key(7), h));
    assert_eq!(memo.blockhash(Slot(5), key(7)), Some(h));
}
