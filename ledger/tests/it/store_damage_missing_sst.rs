//! A live SST file that is missing, or shorter than RocksDB's metadata says, is an error
//! naming the file in read-only, secondary and read-write opens (a secondary used to answer
//! as if the file's rows had never been written), and `check` reports it.
#![cfg(feature = "storage")]

use crate::damage_support::{
    Flush, assert_nothing_lost, db, every_mode, files, open_err, small_ledger,
};

use bstore_ledger::store::check;

#[test]
fn a_missing_or_truncated_sst_is_an_error_naming_it_in_every_mode() {
    let dir = tempfile::tempdir().expect("tempdir");
    small_ledger(dir.path(), Flush::Yes);
    let healthy = check(dir.path(), None).expect("check");
    assert!(healthy.is_healthy(), "{:?}", healthy.damage);
    let sst_of = |column: &str| {
        healthy
            .sst_files
            .iter()
            .find(|f| f.column == column)
            .map(|f| f.name.clone())
            .unwrap_or_else(|| panic!("an SST of {column}: {:?}", healthy.sst_files))
    };
    let (data, roots) = (sst_of("data_shred"), sst_of("root"));

    let path = db(dir.path()).join(&data);
    let bytes = std::fs::read(&path).expect("read");
    std::fs::remove_file(&path).expect("delete");
    let before = files(dir.path());
    let secondary = tempfile::tempdir().expect("tempdir");
    for mode in every_mode(secondary.path()) {
        let err = open_err(dir.path(), mode.clone());
        assert!(err.to_string().contains(&data), "{mode:?}: {err}");
    }
    assert_nothing_lost(&before, dir.path(), "opens");
    let report = check(dir.path(), None).expect("check");
    assert!(
        report.damage.iter().any(|d| d.file == data),
        "{:?}",
        report.damage
    );

    std::fs::write(&path, &bytes).expect("restore");
    let roots_path = db(dir.path()).join(&roots);
    let root_bytes = std::fs::read(&roots_path).expect("read");
    std::fs::write(&roots_path, &root_bytes[..root_bytes.len() / 2]).expect("truncate");
    for mode in every_mode(secondary.path()) {
        let err = open_err(dir.path(), mode.clone());
        assert!(err.to_string().contains(&roots), "{mode:?}: {err}");
    }
    let report = check(dir.path(), None).expect("check");
    assert!(
        report.damage.iter().any(|d| d.file == roots),
        "{:?}",
        report.damage
    );
}
