//! Model-based fuzzing of the blockstore (the pattern of redb's `fuzz_redb`): the input is
//! a sequence of operations — insert shreds, insert a corrupted shred, fetch, mark dead, set
//! root, and fail the Nth write, read or cursor step of the next operation — run against
//! the in-memory engine behind a `FaultEngine` and a reference model; every fetch, meta,
//! chain link and flag is checked against the model after every step, and a step failed
//! by its fault must return that fault and change nothing. The model is the one of
//! `ledger/tests/it/store_model.rs`, which also runs it on RocksDB.
#![no_main]

#[path = "../../ledger/tests/it/model/mod.rs"]
mod model;

use std::sync::OnceLock;

use std::path::Path;

use bstore_ledger::store::{Blockstore, FaultEngine, MemEngine};
use libfuzzer_sys::fuzz_target;

fn ledger() -> &'static model::GenLedger {
    static LEDGER: OnceLock<model::GenLedger> = OnceLock::new();
    LEDGER.get_or_init(|| model::GenLedger::new(0x5eed))
}

fuzz_target!(|data: &[u8]| {
    let store = Blockstore::with_engine(FaultEngine::new(MemEngine::new()), Path::new(""));
    if let Err(e) = model::run_with_faults(&store, ledger(), data) {
        panic!("store disagrees with the model: {e}");
    }
});
