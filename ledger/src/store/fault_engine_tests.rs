//! The fault engine's own rules: the Nth operation of the armed kind fails once, with an
//! error naming it, and nothing of a failed write reaches the inner engine.

use super::*;
use crate::store::column::Column;
use crate::store::columns::{DeadSlots, Root};
use crate::store::kv::KvBatch;
use crate::store::mem_engine::MemEngine;

fn put(engine: &FaultEngine<MemEngine>, key: u8) -> Result<()> {
    let mut batch = engine.batch()?;
    batch.put(Root::NAME, &[key], &[1])?;
    batch.put(DeadSlots::NAME, &[key], &[1])?;
    engine.write(batch)
}

fn keys(engine: &MemEngine, cf: &'static str) -> Vec<Vec<u8>> {
    let mut cursor = engine.cursor(cf, &[], None, Direction::Forward);
    let mut out = Vec::new();
    while let Some(Ok((k, _))) = cursor.advance() {
        out.push(k.to_vec());
    }
    out
}

#[test]
fn the_nth_write_fails_once_and_applies_nothing() {
    let engine = FaultEngine::new(MemEngine::new());
    put(&engine, 1).expect("unarmed write");
    engine.faults().fail_nth(FaultPoint::Write, 2);
    put(&engine, 2).expect("first write after arming");
    let err = put(&engine, 3).expect_err("second write after arming fails");
    let fault = InjectedFault::of(&err).expect("an injected fault");
    assert_eq!(
        *fault,
        InjectedFault {
            point: FaultPoint::Write,
            ordinal: 3
        }
    );
    assert!(
        err.to_string().contains("injected fault: write #3"),
        "{err}"
    );
    assert_eq!(keys(engine.inner(), Root::NAME), [vec![1], vec![2]]);
    assert_eq!(keys(engine.inner(), DeadSlots::NAME), [vec![1], vec![2]]);
    assert!(!engine.faults().is_armed(FaultPoint::Write));
    put(&engine, 3).expect("the retry succeeds");
    assert_eq!(keys(engine.inner(), Root::NAME).len(), 3);
    assert_eq!(engine.faults().fired(FaultPoint::Write), 1);
    assert_eq!(engine.faults().seen(FaultPoint::Write), 4);
}

#[test]
fn reads_cursor_steps_and_compactions_fail_on_schedule() {
    let engine = FaultEngine::with_schedule(
        MemEngine::new(),
        &[
            (FaultPoint::Read, 2),
            (FaultPoint::CursorStep, 2),
            (FaultPoint::Compact, 1),
        ],
    );
    for key in 0..3 {
        put(&engine, key).expect("write");
    }
    assert!(
        engine
            .get_pinned(Root::NAME, &[0])
            .expect("read 1")
            .is_some()
    );
    let err = engine
        .multi_get_pinned(Root::NAME, &[[0u8], [1]])
        .expect_err("read 2 fails");
    assert_eq!(
        InjectedFault::of(&err).map(|f| f.point),
        Some(FaultPoint::Read)
    );
    assert!(err.to_string().contains("column root"), "{err}");
    assert_eq!(
        engine
            .multi_get_pinned(Root::NAME, &[[0u8], [1]])
            .expect("read 3")
            .len(),
        2
    );

    let mut cursor = engine.cursor(Root::NAME, &[], None, Direction::Forward);
    assert!(matches!(cursor.advance(), Some(Ok((k, _))) if k == [0]));
    let step = cursor.advance().expect("an item");
    let err = step.expect_err("step 2 fails");
    assert_eq!(
        InjectedFault::of(&err).map(|f| f.point),
        Some(FaultPoint::CursorStep)
    );
    assert!(cursor.advance().is_none(), "a failed step ends the walk");

    let err = engine
        .compact_range(Root::NAME, &[0], &[9])
        .expect_err("compaction 1 fails");
    assert_eq!(
        InjectedFault::of(&err).map(|f| f.point),
        Some(FaultPoint::Compact)
    );
    engine
        .compact_range(Root::NAME, &[0], &[9])
        .expect("compaction 2");
    assert_eq!(engine.faults().fired_total(), 3);
}

#[test]
fn disarmed_and_cleared_schedules_never_fire() {
    let engine = FaultEngine::new(MemEngine::new());
    engine.faults().fail_nth(FaultPoint::Write, 1);
    engine.faults().fail_nth(FaultPoint::Read, 1);
    engine.faults().clear();
    put(&engine, 1).expect("write");
    assert!(engine.get_pinned(Root::NAME, &[1]).expect("read").is_some());
    engine.faults().fail_nth(FaultPoint::Read, 1);
    engine.faults().fail_nth(FaultPoint::Read, 0);
    assert!(engine.get_pinned(Root::NAME, &[1]).expect("read").is_some());
    assert_eq!(engine.faults().fired_total(), 0);
}

#[test]
fn a_fault_fires_once_across_threads() {
    let engine = FaultEngine::new(MemEngine::new());
    put(&engine, 1).expect("write");
    engine.faults().fail_nth(FaultPoint::Read, 50);
    let failures: usize = std::thread::scope(|s| {
        let workers: Vec<_> = (0..4)
            .map(|_| {
                s.spawn(|| {
                    (0..100)
                        .filter(|_| engine.get_pinned(Root::NAME, &[1]).is_err())
                        .count()
                })
            })
            .collect();
        workers.into_iter().filter_map(|w| w.join().ok()).sum()
    });
    assert_eq!(failures, 1);
    assert_eq!(engine.faults().seen(FaultPoint::Read), 400);
}
