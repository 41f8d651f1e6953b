use super::*;

fn ask(address: &[u8; 32], limit: usize) -> Question<'_> {
    Question {
        address,
        limit,
        commitment: Commitment::Finalized,
        max_root: Some(Slot(100)),
    }
}

fn found(slots: &[u64]) -> Vec<Found> {
    slots
        .iter()
        .enumerate()
        .map(|(i, s)| (Slot(*s), i as u32, [*s as u8; 64]))
        .collect()
}

#[test]
fn an_answer_is_reused_only_for_the_same_entries() {
    let answers = AddressAnswers::new(1 << 20);
    let a = [1; 32];
    assert_eq!(answers.reuse(&ask(&a, 10), &found(&[5, 4])), None);
    answers.keep(&ask(&a, 10), found(&[5, 4]), "[two]");
    assert_eq!(
        answers.reuse(&ask(&a, 10), &found(&[5, 4])).as_deref(),
        Some("[two]")
    );
    // Another limit, another address, other entries: not this answer.
    assert_eq!(answers.reuse(&ask(&a, 11), &found(&[5, 4])), None);
    assert_eq!(answers.reuse(&ask(&[2; 32], 10), &found(&[5, 4])), None);
    assert_eq!(answers.reuse(&ask(&a, 10), &found(&[6, 5, 4])), None);
    assert_eq!(answers.reuse(&ask(&a, 10), &found(&[5])), None);
    let mut other_index = found(&[5, 4]);
    other_index[1].1 = 7;
    assert_eq!(answers.reuse(&ask(&a, 10), &other_index), None);
    let mut other_signature = found(&[5, 4]);
    other_signature[0].2[63] ^= 1;
    assert_eq!(answers.reuse(&ask(&a, 10), &other_signature), None);
    assert_eq!(
        answers.counts(),
        AddressAnswerCounts {
            reused: 1,
            missed: 7
        }
    );
    // A newer answer replaces the kept one, and its bytes.
    answers.keep(&ask(&a, 10), found(&[6, 5, 4]), "[three]");
    assert_eq!(
        answers.reuse(&ask(&a, 10), &found(&[6, 5, 4])).as_deref(),
        Some("[three]")
    );
    assert_eq!(answers.reuse(&ask(&a, 10), &found(&[5, 4])), None);
    let (count, bytes) = answers.held();
    assert_eq!(count, 1);
    assert_eq!(
        bytes,
        "[three]".len() + 3 * size_of::<Found>() + ANSWER_OVERHEAD
    );
}

#[test]
fn an_entry_crossing_the_root_or_another_commitment_is_another_answer() {
    let answers = AddressAnswers::new(1 << 20);
    let a = [1; 32];
    let confirmed = |max_root| Question {
        address: &a,
        limit: 10,
        commitment: Commitment::Confirmed,
        max_root,
    };
    // Written when slot 7 was above the root (confirmed) and 5 below it (finalized).
    answers.keep(&confirmed(Some(Slot(6))), found(&[7, 5]), "[7c,5f]");
    // The root moved but no entry crossed it: the same answer.
    assert!(
        answers
            .reuse(&confirmed(Some(Slot(5))), &found(&[7, 5]))
            .is_some()
    );
    assert!(
        answers
            .reuse(&confirmed(Some(Slot(6))), &found(&[7, 5]))
            .is_some()
    );
    // Slot 7 rooted: its entry is finalized now.
    assert_eq!(
        answers.reuse(&confirmed(Some(Slot(7))), &found(&[7, 5])),
        None
    );
    // No root at all, or the root below 5: slot 5's entry is confirmed.
    assert_eq!(answers.reuse(&confirmed(None), &found(&[7, 5])), None);
    assert_eq!(
        answers.reuse(&confirmed(Some(Slot(4))), &found(&[7, 5])),
        None
    );
    // The same address and limit at finalized is another question.
    let finalized = Question {
        commitment: Commitment::Finalized,
        ..confirmed(Some(Slot(6)))
    };
    assert_eq!(answers.reuse(&finalized, &found(&[7, 5])), None);
}

#[test]
fn the_least_recently_used_go_first_and_the_bound_holds() {
    let one = "x".repeat(1000);
    let each = one.len() + size_of::<Found>() + ANSWER_OVERHEAD;
    let answers = AddressAnswers::new(8 * each);
    for k in 0..8u8 {
        answers.keep(&ask(&[k; 32], 1), found(&[1]), &one);
    }
    assert_eq!(answers.held(), (8, 8 * each));
    // Address 0 is used again, so 1 is now the oldest.
    assert!(answers.reuse(&ask(&[0; 32], 1), &found(&[1])).is_some());
    answers.keep(&ask(&[8; 32], 1), found(&[1]), &one);
    // A quarter of eight went: addresses 1 and 2, the least recently used.
    assert_eq!(answers.held(), (7, 7 * each));
    for k in [1u8, 2] {
        assert_eq!(answers.reuse(&ask(&[k; 32], 1), &found(&[1])), None, "{k}");
    }
    for k in [0u8, 3, 4, 5, 6, 7, 8] {
        assert!(
            answers.reuse(&ask(&[k; 32], 1), &found(&[1])).is_some(),
            "{k}"
        );
    }
    // Thousands more never pass the bound.
    for k in 0..5000u32 {
        let mut address = [0; 32];
        address[..4].copy_from_slice(&k.to_le_bytes());
        answers.keep(&ask(&address, 1), found(&[1]), &one);
        assert!(answers.held().1 <= 8 * each);
    }
}

#[test]
fn nothing_is_kept_past_the_bound_or_with_no_bound() {
    let text = "y".repeat(4096);
    let small = AddressAnswers::new(4096);
    small.keep(&ask(&[1; 32], 1), found(&[1]), &text);
    assert_eq!(small.held(), (0, 0));
    assert_eq!(small.reuse(&ask(&[1; 32], 1), &found(&[1])), None);
    let off = AddressAnswers::new(0);
    assert!(!off.enabled());
    off.keep(&ask(&[1; 32], 1), found(&[1]), "[]");
    assert_eq!(off.reuse(&ask(&[1; 32], 1), &found(&[1])), None);
    assert_eq!(off.held(), (0, 0));
    assert_eq!(off.counts(), AddressAnswerCounts::default());
}

#[test]
fn an_answer_too_large_for_the_bound_replaces_nothing_it_should_not() {
    let answers = AddressAnswers::new(2048);
    answers.keep(&ask(&[1; 32], 1), found(&[1]), "[small]");
    answers.keep(&ask(&[2; 32], 1), found(&[1]), "[small]");
    // Too large to keep: the kept answer for its own key goes (it is out of date), the
    // others stay.
    answers.keep(&ask(&[1; 32], 1), found(&[2]), &"z".repeat(4096));
    assert_eq!(answers.held().0, 1);
    assert_eq!(answers.reuse(&ask(&[1; 32], 1), &found(&[1])), None);
    assert!(answers.reuse(&ask(&[2; 32], 1), &found(&[1])).is_some());
}
