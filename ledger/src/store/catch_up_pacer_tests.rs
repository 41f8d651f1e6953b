use std::io::Write;
use std::time::{Duration, Instant};

use super::*;

const SLICE: Duration = Duration::from_millis(5);

/// Calls `wait` until it is due or `limit` passes; the time it took.
fn until_due(pacer: &mut CatchUpPacer, limit: Duration) -> Option<Duration> {
    let started = Instant::now();
    while started.elapsed() < limit {
        if pacer.wait(SLICE) {
            return Some(started.elapsed());
        }
    }
    None
}

fn on_change(min_gap_ms: u64, idle_ms: u64) -> CatchUpPacing {
    CatchUpPacing::OnChange {
        min_gap: Duration::from_millis(min_gap_ms),
        idle: Duration::from_millis(idle_ms),
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_write_makes_a_catch_up_due_and_nothing_else_does() {
    let dir = tempfile::tempdir().expect("dir");
    let mut pacer = CatchUpPacer::new(dir.path(), on_change(0, 60_000));
    assert!(pacer.is_watching(), "{:?}", pacer.watch_error());
    // The first call is always due: the pacer cannot know what happened before it.
    assert!(pacer.wait(SLICE));
    // No change: not due within 20 slices.
    for _ in 0..20 {
        assert!(!pacer.wait(SLICE));
    }
    // A new file, then an append to it: each makes exactly one catch-up due.
    let path = dir.path().join("000001.log");
    let mut file = std::fs::File::create(&path).expect("create");
    assert!(until_due(&mut pacer, Duration::from_secs(10)).is_some());
    assert!(!pacer.wait(SLICE));
    file.write_all(b"record").expect("append");
    file.flush().expect("flush");
    assert!(until_due(&mut pacer, Duration::from_secs(10)).is_some());
    assert!(!pacer.wait(SLICE));
}

#[cfg(target_os = "linux")]
#[test]
fn changes_within_the_gap_wait_for_it_and_are_not_lost() {
    let dir = tempfile::tempdir().expect("dir");
    let mut pacer = CatchUpPacer::new(dir.path(), on_change(300, 60_000));
    assert!(pacer.wait(SLICE));
    let after_first = Instant::now();
    std::fs::write(dir.path().join("MANIFEST-000002"), b"x").expect("write");
    assert!(until_due(&mut pacer, Duration::from_secs(10)).is_some());
    assert!(after_first.elapsed() >= Duration::from_millis(300));
}

#[test]
fn with_no_change_a_catch_up_is_due_after_idle() {
    let dir = tempfile::tempdir().expect("dir");
    let mut pacer = CatchUpPacer::new(dir.path(), on_change(0, 200));
    assert!(pacer.wait(SLICE));
    let waited = until_due(&mut pacer, Duration::from_secs(10)).expect("due after idle");
    assert!(waited >= Duration::from_millis(190), "{waited:?}");
}

#[test]
fn polling_is_due_once_per_period() {
    let dir = tempfile::tempdir().expect("dir");
    let mut pacer = CatchUpPacer::new(dir.path(), CatchUpPacing::Poll(Duration::from_millis(100)));
    assert!(!pacer.is_watching());
    assert!(pacer.wait(SLICE));
    // A change does not matter when polling.
    std::fs::write(dir.path().join("000003.log"), b"x").expect("write");
    let waited = until_due(&mut pacer, Duration::from_secs(10)).expect("due");
    assert!(waited >= Duration::from_millis(90), "{waited:?}");
}

#[test]
fn a_directory_that_cannot_be_watched_falls_back_to_polling() {
    let dir = tempfile::tempdir().expect("dir");
    let missing = dir.path().join("absent");
    let mut pacer = CatchUpPacer::new(&missing, on_change(100, 60_000));
    assert!(!pacer.is_watching());
    assert!(pacer.watch_error().is_some_and(|e| e.contains("absent")));
    assert!(pacer.wait(SLICE));
    // Polls every min_gap instead of waiting for the idle minute.
    let waited = until_due(&mut pacer, Duration::from_secs(10)).expect("polls");
    assert!(waited >= Duration::from_millis(90), "{waited:?}");
}
