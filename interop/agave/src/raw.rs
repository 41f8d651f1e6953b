//! Raw rows of Agave's column families, read with the `rocksdb` crate solana-ledger itself
//! links (same version, so one RocksDB build): Agave's public API decodes `index`,
//! `erasure_meta` and `merkle_root_meta` rows but keeps most of their fields private, and
//! the bstore side needs the bytes themselves.

use std::path::{Path, PathBuf};

use rocksdb::{DB, Direction, IteratorMode, Options};

use crate::error::{Context, Result};

/// Agave keeps the database in `<ledger>/rocksdb`.
pub fn db_path(ledger: &Path) -> PathBuf {
    ledger.join("rocksdb")
}

/// A read-only view of the database (no lock taken, so it can run beside a writer).
#[derive(Debug)]
pub struct RawDb {
    db: DB,
    families: Vec<String>,
}

/// One row: key and value bytes.
pub type Row = (Vec<u8>, Vec<u8>);

impl RawDb {
    pub fn open(ledger: &Path) -> Result<Self> {
        let path = db_path(ledger);
        let opts = Options::default();
        let families = DB::list_cf(&opts, &path)
            .context(format!("listing column families of {}", path.display()))?;
        let db = DB::open_cf_for_read_only(&opts, &path, &families, false)
            .context(format!("opening {} read-only", path.display()))?;
        Ok(Self { db, families })
    }

    pub fn families(&self) -> &[String] {
        &self.families
    }

    /// Every row of `family` whose key starts with `slot` big-endian; an absent family has
    /// no rows.
    pub fn slot_rows(&self, family: &str, slot: u64) -> Result<Vec<Row>> {
        let Some(cf) = self.db.cf_handle(family) else {
            return Ok(Vec::new());
        };
        let prefix = slot.to_be_bytes();
        let mut rows = Vec::new();
        for item in self
            .db
            .iterator_cf(&cf, IteratorMode::From(&prefix, Direction::Forward))
        {
            let (key, value) = item.context(format!("reading column {family}"))?;
            if !key.starts_with(&prefix) {
                break;
            }
            rows.push((key.to_vec(), value.to_vec()));
        }
        Ok(rows)
    }
}
