use super::*;

/// An answer counted for its text's length.
#[derive(Debug)]
struct Text(String);

impl KeptSize for Text {
    fn kept_bytes(&self) -> usize {
        self.0.len()
    }
}

fn text(kept: &KeptAnswers<u32, Text>, key: u32) -> Option<String> {
    kept.get(&key).map(|t| t.0.clone())
}

#[test]
fn the_least_recently_used_go_first_and_the_bound_holds() {
    let one = "x".repeat(1000);
    let kept = KeptAnswers::new(8 * one.len());
    for k in 0..8 {
        kept.keep(k, Text(one.clone()));
    }
    assert_eq!(kept.held(), (8, 8 * one.len()));
    // Key 0 is used again, so 1 is now the oldest; `contains` leaves the order alone.
    assert!(text(&kept, 0).is_some());
    assert!(kept.contains(&1));
    kept.keep(8, Text(one.clone()));
    // A quarter of eight went: keys 1 and 2, the least recently used.
    assert_eq!(kept.held(), (7, 7 * one.len()));
    for k in [1, 2] {
        assert_eq!(text(&kept, k), None, "{k}");
        assert!(!kept.contains(&k), "{k}");
    }
    for k in [0, 3, 4, 5, 6, 7, 8] {
        assert!(text(&kept, k).is_some(), "{k}");
    }
    // Thousands more never pass the bound.
    for k in 100..5100 {
        kept.keep(k, Text(one.clone()));
        assert!(kept.held().1 <= 8 * one.len());
    }
}

#[test]
fn a_newer_answer_replaces_the_kept_one_and_its_bytes() {
    let kept = KeptAnswers::new(1 << 20);
    kept.keep(1, Text("[two]".into()));
    kept.keep(1, Text("[three]".into()));
    assert_eq!(text(&kept, 1).as_deref(), Some("[three]"));
    assert_eq!(kept.held(), (1, "[three]".len()));
}

#[test]
fn nothing_is_kept_past_the_bound_or_with_no_bound() {
    let small = KeptAnswers::new(4096);
    small.keep(1, Text("y".repeat(4097)));
    assert_eq!(small.held(), (0, 0));
    assert_eq!(text(&small, 1), None);
    let off = KeptAnswers::new(0);
    assert!(!off.enabled());
    off.keep(1, Text("[]".into()));
    assert_eq!(text(&off, 1), None);
    assert!(!off.contains(&1));
    assert_eq!(off.held(), (0, 0));
}

#[test]
fn an_answer_too_large_for_the_bound_replaces_nothing_it_should_not() {
    let kept = KeptAnswers::new(2048);
    kept.keep(1, Text("[small]".into()));
    kept.keep(2, Text("[small]".into()));
    // Too large to keep: the kept answer for its own key goes (it is out of date), the
    // others stay.
    kept.keep(1, Text("z".repeat(4096)));
    assert_eq!(kept.held().0, 1);
    assert_eq!(text(&kept, 1), None);
    assert!(text(&kept, 2).is_some());
}

#[test]
fn counts_are_what_the_user_counted() {
    let kept = KeptAnswers::<u32, Text>::new(1024);
    kept.count(true);
    kept.count(false);
    kept.count(false);
    assert_eq!(
        kept.counts(),
        KeptAnswerCounts {
            reused: 1,
            missed: 2
        }
    );
}
