//! The contract for engines with access modes (RocksDB, and the fault engine over it): a
//! read-only or secondary instance reads what the primary wrote, refuses every batch with
//! `NotWritable`, and a secondary sees the primary's later writes after `catch_up`.

use bstore_ledger::LedgerError;
use bstore_ledger::store::kv::KvBatch;
use bstore_ledger::store::{AccessMode, Column, FaultEngine, KvEngine, RocksEngine, columns};

const CF: &str = columns::Root::NAME;

fn put<E: KvEngine>(engine: &E, key: &[u8]) {
    let mut batch = engine.batch().expect("batch");
    batch.put(CF, key, b"v").expect("put");
    engine.write(batch).expect("write");
}

fn has<E: KvEngine>(engine: &E, key: &[u8]) -> bool {
    engine.get_pinned(CF, key).expect("get").is_some()
}

fn refuses_writes<E: KvEngine>(engine: &E, mode: &'static str) {
    match engine.batch() {
        Err(LedgerError::NotWritable { mode: said }) => assert_eq!(said, mode),
        Err(e) => panic!("open {mode}: wrong refusal: {e}"),
        Ok(_) => panic!("open {mode}: a write batch was handed out"),
    }
}

fn read_only_and_secondary_refuse_writes<E: KvEngine>(wrap: impl Fn(RocksEngine) -> E) {
    let dir = tempfile::tempdir().expect("tempdir");
    let follower = tempfile::tempdir().expect("tempdir");
    let open = |mode: AccessMode| wrap(RocksEngine::open(dir.path(), mode).expect("open"));
    let primary = open(AccessMode::ReadWrite);
    put(&primary, b"first");

    let read_only = open(AccessMode::ReadOnly);
    assert_eq!(read_only.mode(), &AccessMode::ReadOnly);
    refuses_writes(&read_only, "read-only");
    assert!(has(&read_only, b"first"));
    read_only.catch_up().expect("catch_up is a no-op read-only");

    let secondary = open(AccessMode::Secondary {
        secondary_path: follower.path().to_path_buf(),
    });
    refuses_writes(&secondary, "as a secondary");
    assert!(has(&secondary, b"first"));
    put(&primary, b"second");
    assert!(
        !has(&secondary, b"second"),
        "a secondary waits for catch_up"
    );
    secondary.catch_up().expect("catch_up");
    assert!(has(&secondary, b"second"));
    refuses_writes(&secondary, "as a secondary");
}

#[test]
fn rocks_read_only_and_secondary_refuse_writes() {
    read_only_and_secondary_refuse_writes(|e| e);
}

#[test]
fn fault_over_rocks_read_only_and_secondary_refuse_writes() {
    read_only_and_secondary_refuse_writes(FaultEngine::new);
}
