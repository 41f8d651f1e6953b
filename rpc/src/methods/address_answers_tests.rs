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
    answers.keep(&ask(&a, 10), found(&[5, 4]), "[two]".to_string());
    assert_eq!(
        answers.reuse(&ask(&a, 10), &found(&[5, 4])).as_deref(),
        Some(&b"[two]"[..])
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
        KeptAnswerCounts {
            reused: 1,
            missed: 7
        }
    );
    // A newer answer replaces the kept one, and its bytes.
    answers.keep(&ask(&a, 10), found(&[6, 5, 4]), "[three]".to_string());
    assert_eq!(
        answers.reuse(&ask(&a, 10), &found(&[6, 5, 4])).as_deref(),
        Some(&b"[three]"[..])
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
    answers.keep(
        &confirmed(Some(Slot(6))),
        found(&[7, 5]),
        "[7c,5f]".to_string(),
    );
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
fn nothing_is_kept_with_no_bound() {
    let off = AddressAnswers::new(0);
    off.keep(&ask(&[1; 32], 1), found(&[1]), "[]".to_string());
    assert_eq!(off.reuse(&ask(&[1; 32], 1), &found(&[1])), None);
    assert_eq!(off.held(), (0, 0));
    assert_eq!(off.counts(), KeptAnswerCounts::default());
}

#[test]
fn a_kept_answer_is_sent_from_the_bytes_kept() {
    let answers = AddressAnswers::new(1 << 20);
    let a = [1; 32];
    let mut written = String::with_capacity(64);
    written.push_str("[five,four]");
    let Text::Shared(sent) = answers.keep(&ask(&a, 10), found(&[5, 4]), written) else {
        panic!("a kept answer is sent shared");
    };
    let reused = answers
        .reuse(&ask(&a, 10), &found(&[5, 4]))
        .expect("reused");
    // One allocation for the table, the first answer and every repeat: nothing copied.
    assert_eq!(reused.as_ptr(), sent.as_ptr());
    assert_eq!(&reused[..], b"[five,four]");
    // Counted for its length, not the capacity it was written with.
    let (count, bytes) = answers.held();
    assert_eq!(count, 1);
    assert_eq!(
        bytes,
        11 + 2 * std::mem::size_of::<Found>() + ANSWER_OVERHEAD
    );
    // Not kept (no bound): sent as written.
    let off = AddressAnswers::new(0);
    assert!(matches!(
        off.keep(&ask(&a, 10), found(&[5, 4]), "[]".to_string()),
        Text::Written(_)
    ));
}
