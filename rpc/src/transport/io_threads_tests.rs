use std::sync::mpsc as std_mpsc;
use std::thread::ThreadId;
use std::time::Duration;

use super::*;

const WAIT: Duration = Duration::from_secs(10);

/// Waits until the threads' open counts add up to `n`.
fn wait_open(io: &IoThreads, n: usize) {
    let deadline = std::time::Instant::now() + WAIT;
    while io
        .threads
        .iter()
        .map(|t| t.open.load(Ordering::Relaxed))
        .sum::<usize>()
        != n
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the open count never reached {n}"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// A task that reports its thread, then holds its connection open until `release` fires.
fn held(
    seen: std_mpsc::Sender<ThreadId>,
    release: tokio::sync::oneshot::Receiver<()>,
) -> ConnectionTask {
    Box::pin(async move {
        let _ = seen.send(std::thread::current().id());
        let _ = release.await;
    })
}

#[test]
fn a_new_connection_goes_to_the_thread_with_the_fewest_open() {
    let io = IoThreads::start(2).expect("threads");
    let (seen_tx, seen) = std_mpsc::channel();
    let (release_a, a) = tokio::sync::oneshot::channel();
    let (release_b, b) = tokio::sync::oneshot::channel();
    assert!(io.hand_off(held(seen_tx.clone(), a)));
    let first = seen.recv_timeout(WAIT).expect("the task ran");
    assert!(io.hand_off(held(seen_tx.clone(), b)));
    let second = seen.recv_timeout(WAIT).expect("the task ran");
    assert_ne!(
        first, second,
        "both threads idle but one: the busy one was chosen"
    );

    // The first thread's connection ends: it is the least busy again, whatever the rotation.
    release_a.send(()).expect("the task waits");
    wait_open(&io, 1);
    for _ in 0..3 {
        let (release, rx) = tokio::sync::oneshot::channel();
        assert!(io.hand_off(held(seen_tx.clone(), rx)));
        assert_eq!(seen.recv_timeout(WAIT).expect("the task ran"), first);
        release.send(()).expect("the task waits");
        wait_open(&io, 1);
    }
    release_b.send(()).expect("the task waits");
    io.join();
}

#[test]
fn a_panicking_connection_leaves_its_thread_serving() {
    let io = IoThreads::start(1).expect("threads");
    assert!(io.hand_off(Box::pin(async { panic!("a handler bug") })));
    let (seen_tx, seen) = std_mpsc::channel();
    let (release, rx) = tokio::sync::oneshot::channel();
    assert!(io.hand_off(held(seen_tx, rx)));
    seen.recv_timeout(WAIT).expect("the task ran");
    release.send(()).expect("the task waits");
    // The panicked task gave its count back too.
    wait_open(&io, 0);
    io.join();
}

/// Sets its flag when dropped.
struct Dropped(Arc<std::sync::atomic::AtomicBool>);

impl Drop for Dropped {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

#[test]
fn join_ends_every_thread_and_drops_what_it_still_runs() {
    let io = IoThreads::start(3).expect("threads");
    let flags: Vec<_> = (0..3)
        .map(|_| Arc::new(std::sync::atomic::AtomicBool::new(false)))
        .collect();
    for flag in &flags {
        let guard = Dropped(Arc::clone(flag));
        assert!(io.hand_off(Box::pin(async move {
            let _guard = guard;
            std::future::pending::<()>().await;
        })));
    }
    wait_open(&io, 3);
    assert!(
        io.threads
            .iter()
            .all(|t| t.open.load(Ordering::Relaxed) == 1)
    );
    io.join();
    assert!(flags.iter().all(|f| f.load(Ordering::SeqCst)));
}
