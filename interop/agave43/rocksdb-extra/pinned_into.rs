// Appended to a copy of crates.io's rocksdb 0.24.0 by scripts/agave-rocksdb-patch.sh, as a
// module of that crate (`mod bstore_pinned_into;` at the end of its lib.rs), so it sees the
// crate's `pub(crate)` items. Agave 4.3's solana-ledger calls four methods whose form exists
// only in Agave's own fork of rocksdb; they are there to reuse one pinnable slice across many
// point reads and one write batch across insert calls. These versions keep the calls'
// meaning with a fresh pinned read each time and a write that only reads the batch:
//
// - `DB::new_pinnable_slice` returns a slice that holds a real, empty RocksDB value, so
//   reading it before any get yields `&[]` (the crate's `Deref` passes the C pointer straight
//   to `slice::from_raw_parts`, so the slice must never wrap a null handle).
// - `get_pinned_cf_into` replaces the slice's value on a hit and returns `true`; on a miss it
//   returns `false` and leaves the slice as it was (callers read it only after `true`).
// - `DBPinnableSlice::reset` keeps the current value: the pin it holds is released when the
//   next read replaces it or the slice drops. Releasing it earlier needs a C++ call that the
//   C API does not offer.
// - `DBWithThreadMode::write` takes the batch by value or by reference (`Borrow`), as the fork's
//   takes `&mut WriteBatch` and leaves the batch to the caller (Agave clears it before reuse).
//   The script renames the crate's own by-value `write` to `write_owned`: an inherent method
//   cannot be given a second signature by appending alone.

use std::borrow::Borrow;

use crate::db::{DBCommon, DBInner};
use crate::{
    ffi, AsColumnFamilyRef, DBPinnableSlice, DBWithThreadMode, Error, ThreadMode, WriteBatch,
    WriteOptions,
};
use libc::c_char;

impl<T: ThreadMode> DBWithThreadMode<T> {
    /// Writes `batch` atomically with default write options. The batch is only read: a
    /// caller that passes `&mut batch` keeps it, with its updates still in it.
    pub fn write<B: Borrow<WriteBatch>>(&self, batch: B) -> Result<(), Error> {
        let batch = batch.borrow();
        let writeopts = WriteOptions::default();
        // SAFETY: the three handles are live for the call; RocksDB copies what it keeps.
        unsafe {
            ffi_try!(ffi::rocksdb_write(
                self.inner.inner(),
                writeopts.inner,
                batch.inner
            ));
        }
        Ok(())
    }
}

impl<T: ThreadMode, D: DBInner> DBCommon<T, D> {
    /// An empty slice for `get_pinned_cf_into`. The C API has no constructor for a bare
    /// PinnableSlice, so the empty value is read back from a one-entry indexed write batch
    /// (key `""` -> value `""`): the lookup finds the key in the batch and never reads the
    /// database; the batch is freed before returning and the slice owns its copy.
    pub fn new_pinnable_slice(&self) -> DBPinnableSlice<'_> {
        let empty: [u8; 0] = [];
        // SAFETY: every handle created here is freed here; the returned pointer, when not
        // null, is a PinnableSlice the caller owns (freed by DBPinnableSlice's Drop).
        unsafe {
            let batch = ffi::rocksdb_writebatch_wi_create(0, 1);
            ffi::rocksdb_writebatch_wi_put(
                batch,
                empty.as_ptr() as *const c_char,
                0,
                empty.as_ptr() as *const c_char,
                0,
            );
            let readopts = ffi::rocksdb_readoptions_create();
            let mut err: *mut c_char = std::ptr::null_mut();
            let value = ffi::rocksdb_writebatch_wi_get_pinned_from_batch_and_db(
                batch,
                self.inner.inner(),
                readopts,
                empty.as_ptr() as *const c_char,
                0,
                &mut err,
            );
            ffi::rocksdb_readoptions_destroy(readopts);
            ffi::rocksdb_writebatch_wi_destroy(batch);
            if !err.is_null() {
                ffi::rocksdb_free(err as *mut libc::c_void);
            }
            // A key just put into the batch is always found there; a null here would mean
            // the C library broke that contract, and wrapping null would be unsound.
            assert!(
                !value.is_null(),
                "rocksdb: an indexed write batch lost the key it was just given"
            );
            DBPinnableSlice::from_c(value)
        }
    }

    /// Reads `key` of `cf` into `value`: `Ok(true)` and the value replaced when the key
    /// exists, `Ok(false)` and `value` untouched when it does not.
    pub fn get_pinned_cf_into<'a, K: AsRef<[u8]>>(
        &'a self,
        cf: &impl AsColumnFamilyRef,
        key: K,
        value: &mut DBPinnableSlice<'a>,
    ) -> Result<bool, Error> {
        match self.get_pinned_cf(cf, key)? {
            Some(found) => {
                *value = found;
                Ok(true)
            }
            None => Ok(false),
        }
    }
}

impl DBPinnableSlice<'_> {
    /// Marks the slice as done with; see the file comment for why the value stays pinned
    /// until the next read into it.
    pub fn reset(&mut self) {}
}
