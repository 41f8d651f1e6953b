use bstore_ledger::store::SlotMeta;

use super::*;

const SLOT: Slot = Slot(7);

/// What a fresh answer of `SLOT` was read from: its frame, no parent.
fn read_of_slot() -> Option<(BlockFrame, ParentState)> {
    Some((
        BlockFrame::of(&SlotMeta::new(SLOT, Some(Slot(SLOT.0 - 1)))),
        ParentState::Absent,
    ))
}

fn config() -> BlockConfig {
    BlockConfig::from_param(None).expect("Agave's defaults")
}

/// A text with spare capacity, as an encoder leaves it.
fn encoded(len: usize) -> String {
    let mut text = String::with_capacity(2 * len);
    text.push_str(&"b".repeat(len));
    text
}

#[test]
fn a_kept_answer_shares_its_bytes_and_is_counted_for_its_length() {
    let answers = BlockAnswers::new(1 << 20);
    let cfg = config();
    let Text::Shared(sent) = answers.fresh(SLOT, &cfg, read_of_slot(), true, encoded(1000)) else {
        panic!("a kept answer is sent shared");
    };
    assert_eq!(sent.len(), 1000);
    let kept = answers.0.get(&(SLOT, cfg)).expect("kept");
    // The answer sent and the one kept are one allocation: nothing was copied.
    assert_eq!(kept.text.as_ptr(), sent.as_ptr());
    // Counted for its length (its spare capacity is given back before it is kept).
    let (count, bytes) = answers.0.held();
    assert_eq!(count, 1);
    assert_eq!(bytes, 1000 + kept.frame.heap_bytes() + ANSWER_OVERHEAD);
    assert_eq!(answers.counts().missed, 1);
}

#[test]
fn an_answer_not_kept_is_sent_as_written() {
    let cfg = config();
    let answers = BlockAnswers::new(1 << 20);
    // Not whole (a block time or height may still come), or not read to be kept.
    for (read, whole) in [(read_of_slot(), false), (None, true)] {
        let text = encoded(100);
        let at = text.as_ptr();
        let Text::Written(sent) = answers.fresh(SLOT, &cfg, read, whole, text) else {
            panic!("an answer not kept is sent as written");
        };
        assert_eq!(sent.as_ptr(), at);
        assert!(!answers.holds(SLOT, &cfg));
    }
    assert_eq!(answers.0.held(), (0, 0));
    assert_eq!(answers.counts().missed, 2);
    // Nothing kept at all: nothing counted either.
    let off = BlockAnswers::new(0);
    let sent = off.fresh(SLOT, &cfg, read_of_slot(), true, encoded(100));
    assert!(matches!(sent, Text::Written(text) if text.len() == 100));
    assert!(!off.holds(SLOT, &cfg));
    assert_eq!(off.counts().missed, 0);
}
