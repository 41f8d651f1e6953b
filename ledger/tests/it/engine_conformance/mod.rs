//! One conformance suite for every engine of the storage seam: the contract written at the
//! top of `ledger/src/store/kv.rs`, checked by the generic functions of `contract.rs` (and,
//! for engines with read-only and secondary modes, `modes.rs`). Each engine below runs every
//! check as its own test (`engine_conformance::<engine>::<check>`); a new engine passes
//! this suite before the blockstore runs on it.

mod contract;
#[cfg(feature = "storage")]
mod modes;

use bstore_ledger::store::{FaultEngine, KvEngine, MemEngine};

/// An engine under test and what must outlive it (the temporary directory of a RocksDB
/// engine).
pub(crate) struct Subject<E> {
    pub engine: E,
    _dir: Option<tempfile::TempDir>,
}

impl<E: KvEngine> Subject<E> {
    fn in_memory(engine: E) -> Self {
        Self { engine, _dir: None }
    }
}

/// A fresh read-write RocksDB engine in a temporary directory, wrapped by `wrap`.
#[cfg(feature = "storage")]
fn rocks<E: KvEngine>(wrap: impl FnOnce(bstore_ledger::store::RocksEngine) -> E) -> Subject<E> {
    use bstore_ledger::store::{AccessMode, RocksEngine};
    let dir = tempfile::tempdir().expect("tempdir");
    let engine = RocksEngine::open(dir.path(), AccessMode::ReadWrite).expect("open read-write");
    Subject {
        engine: wrap(engine),
        _dir: Some(dir),
    }
}

/// Declares module `$engine` with one test per check of `contract.rs`, each on a fresh
/// engine from `$make`.
macro_rules! conformance {
    ($engine:ident, $make:expr) => {
        mod $engine {
            use super::*;
            conformance!(@checks $make;
                missing_column_reads_empty_and_refuses_writes,
                get_returns_the_last_value_put,
                batch_applies_all_or_nothing_in_order,
                concurrent_readers_see_whole_batches,
                multi_get_answers_every_key_in_key_order,
                cursor_walks_forward_and_reverse_within_bounds,
                cursor_seeks_within_its_bounds_and_restarts,
                delete_and_delete_range_remove_exactly_their_keys,
                catch_up_is_a_no_op_on_a_primary,
                compact_range_keeps_live_data,
                estimate_num_keys_is_sane,
                inverted_delete_range_refuses_the_whole_batch,
            );
        }
    };
    (@checks $make:expr; $($check:ident),* $(,)?) => {
        $(
            #[test]
            fn $check() {
                let subject = $make;
                contract::$check(&subject.engine);
            }
        )*
    };
}

conformance!(mem, Subject::in_memory(MemEngine::new()));
conformance!(
    fault_over_mem,
    Subject::in_memory(FaultEngine::new(MemEngine::new()))
);
#[cfg(feature = "storage")]
conformance!(rocks, super::rocks(|e| e));
#[cfg(feature = "storage")]
conformance!(fault_over_rocks, super::rocks(FaultEngine::new));
