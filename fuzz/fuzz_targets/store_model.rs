//! Model-based fuzzing of the blockstore (the pattern of redb's `fuzz_redb`): the input is
//! a sequence of operations — insert shreds, insert a corrupted shred, fetch, mark dead, set
//! root — run against the in-memory engine and a reference model; every fetch, meta, chain
//! link and flag is checked against the model after every step. The model is the one of
//! `ledger/tests/store_model.rs`, which also runs it on RocksDB.
#![no_main]

#[path = "../../ledger/tests/it/model/mod.rs"]
mod model;

use std::sync::OnceLock;

use bstore_ledger::store::Blockstore;
use libfuzzer_sys::fuzz_target;

fn ledger() -> &'static model::GenLedger {
    static LEDGER: OnceLock<model::GenLedger> = OnceLock::new();
    LEDGER.get_or_init(|| model::GenLedger::new(0x5eed))
}

fuzz_target!(|data: &[u8]| {
    let store = Blockstore::in_memory();
    if let Err(e) = model::run(&store, ledger(), data) {
        panic!("store disagrees with the model: {e}");
    }
});
