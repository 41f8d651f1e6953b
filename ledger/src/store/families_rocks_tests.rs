//! Ledgers made with RocksDB directly, as Agave 3.x and 4.x leave them, opened by bstore in
//! every access mode: the family set on disk afterwards, and no row lost.

use std::collections::BTreeSet;
use std::path::Path;

use rocksdb::{DB, Options};

use super::{AGAVE4, DEFAULT};
use crate::store::{AccessMode, Blockstore};

/// Families whose newest row a read-write open decodes (`formats.rs`): no marker row there.
const CHECKED: [&str; 4] = ["meta", "index", "erasure_meta", "merkle_root_meta"];

/// Creates `<ledger>/rocksdb` with `families`, one marker row `k → name` in each not
/// [`CHECKED`].
fn create(ledger: &Path, families: &[&str]) {
    let mut opts = Options::default();
    opts.create_if_missing(true);
    opts.create_missing_column_families(true);
    let db = DB::open_cf(&opts, ledger.join("rocksdb"), families).expect("create");
    for name in families.iter().filter(|n| !CHECKED.contains(n)) {
        let cf = db.cf_handle(name).expect("family");
        db.put_cf(cf, b"k", name.as_bytes()).expect("put");
    }
}

fn families(ledger: &Path) -> BTreeSet<String> {
    DB::list_cf(&Options::default(), ledger.join("rocksdb"))
        .expect("list")
        .into_iter()
        .collect()
}

/// Every family's marker row is still there, holding the family's name.
fn assert_kept(ledger: &Path, names: &[&str]) {
    let names: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| !CHECKED.contains(n))
        .collect();
    let db = DB::open_cf_for_read_only(
        &Options::default(),
        ledger.join("rocksdb"),
        families(ledger),
        false,
    )
    .expect("read-only");
    for name in names {
        let cf = db.cf_handle(name).expect("family kept");
        let value = db.get_cf(cf, b"k").expect("get");
        assert_eq!(value.as_deref(), Some(name.as_bytes()), "{name}");
    }
}

fn every_mode(ledger: &Path) -> Vec<AccessMode> {
    vec![
        AccessMode::ReadOnly,
        AccessMode::Secondary {
            secondary_path: ledger.join("secondary"),
        },
        AccessMode::ReadWrite,
    ]
}

#[test]
fn a_new_ledger_gets_exactly_agave_4x_families() {
    let dir = tempfile::tempdir().expect("tempdir");
    drop(Blockstore::open(dir.path(), AccessMode::ReadWrite).expect("create"));
    let want: BTreeSet<String> = AGAVE4
        .iter()
        .chain([&DEFAULT])
        .map(|n| n.to_string())
        .collect();
    assert_eq!(families(dir.path()), want);
}

#[test]
fn an_agave_4x_ledger_opens_in_every_mode_and_loses_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    create(dir.path(), &AGAVE4);
    for mode in every_mode(dir.path()) {
        let name = mode.name();
        drop(Blockstore::open(dir.path(), mode).unwrap_or_else(|e| panic!("{name}: {e}")));
    }
    let mut want: BTreeSet<String> = AGAVE4.iter().map(|n| n.to_string()).collect();
    want.insert(DEFAULT.to_string());
    assert_eq!(families(dir.path()), want, "nothing added, nothing dropped");
    assert_kept(dir.path(), &AGAVE4);
}

#[test]
fn retired_families_are_opened_and_kept_never_dropped() {
    let dir = tempfile::tempdir().expect("tempdir");
    // An Agave 3.x ledger: its families, with `transaction_status_index`, without 4.x's new ones.
    let mut old: Vec<&str> = AGAVE4
        .iter()
        .copied()
        .filter(|n| !n.starts_with("alt_") && *n != "double_merkle_meta")
        .collect();
    old.extend(super::RETIRED);
    create(dir.path(), &old);
    for mode in every_mode(dir.path()) {
        let name = mode.name();
        drop(Blockstore::open(dir.path(), mode).unwrap_or_else(|e| panic!("{name}: {e}")));
    }
    let on_disk = families(dir.path());
    for name in AGAVE4.iter().chain(&super::RETIRED) {
        assert!(
            on_disk.contains(*name),
            "{name} missing after a read-write open"
        );
    }
    assert_kept(dir.path(), &old);
}

#[test]
fn an_unknown_family_is_kept_read_only_and_secondary_and_refused_read_write() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut names: Vec<&str> = AGAVE4.to_vec();
    names.push("future_column");
    create(dir.path(), &names);
    let mut modes = every_mode(dir.path());
    let read_write = modes.pop().expect("read-write last");
    for mode in modes {
        let name = mode.name();
        drop(Blockstore::open(dir.path(), mode).unwrap_or_else(|e| panic!("{name}: {e}")));
    }
    let err = Blockstore::open(dir.path(), read_write).expect_err("refused");
    assert!(err.to_string().contains("future_column"), "{err}");
    assert_kept(dir.path(), &names);
}
